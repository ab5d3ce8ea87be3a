package eval

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/repomap-dev/repomap/internal/gitcmd"
)

// repo runs read-only git commands on one repository. Nothing it runs
// writes to the repository: no command that updates the index, refs or
// objects, and optional locks are off (GIT_OPTIONAL_LOCKS=0).
type repo struct {
	dir string
}

func (r *repo) command(ctx context.Context, args ...string) *exec.Cmd {
	return gitcmd.Command(ctx, r.dir, args...)
}

// output runs git with args and returns its standard output.
func (r *repo) output(ctx context.Context, args ...string) ([]byte, error) {
	return gitcmd.Output(ctx, r.dir, args...)
}

// resolve returns the commit hash that rev names.
func (r *repo) resolve(ctx context.Context, rev string) (string, error) {
	if strings.HasPrefix(rev, "-") {
		return "", fmt.Errorf("bad revision %q", rev)
	}
	out, err := r.output(ctx, "rev-parse", "--verify", "--quiet", rev+"^{commit}")
	if err != nil {
		return "", fmt.Errorf("no commit %q: %w", rev, err)
	}
	return strings.TrimSpace(string(out)), nil
}

// commit is one commit of the history with what it changed.
type commit struct {
	hash    string
	parents []string
	message string
	changes []change
}

// change is one file a commit changed, as "git log --raw" tells it.
type change struct {
	path             string
	oldMode, newMode string // "000000" when the file is absent on that side
	oldOID, newOID   string
	status           byte // A, D, M or T (renames are off)
}

// history calls each with the non-merge commits reachable from the
// commit hash rev, newest first, until each returns false. Renames are not detected: a renamed
// file is a deletion and an addition.
func (r *repo) history(parent context.Context, rev string, each func(commit) (bool, error)) error {
	ctx, cancel := context.WithCancel(parent)
	defer cancel()
	// One record per commit: "\x1e<hash> <parents>\n<message>\0", then its
	// raw changes, each ":<modes> <oids> <status>\0<path>\0".
	cmd := r.command(ctx, "log", "--no-merges", "--no-renames", "--raw", "-z", "--no-abbrev",
		"--no-color", "--format=%x1e%H %P%n%B", rev, "--")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	pipe, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("git log: %w", err)
	}
	stopped := false
	scanErr := func() error {
		br := bufio.NewReaderSize(pipe, 64<<10)
		var cur *commit
		flush := func() (bool, error) {
			if cur == nil {
				return true, nil
			}
			c := *cur
			cur = nil
			return each(c)
		}
		for {
			tok, err := br.ReadBytes(0)
			if errors.Is(err, io.EOF) {
				if len(bytes.TrimSpace(tok)) != 0 {
					return fmt.Errorf("git log: truncated output")
				}
				_, err := flush()
				return err
			}
			if err != nil {
				return err
			}
			tok = bytes.TrimLeft(tok[:len(tok)-1], "\n")
			switch {
			case len(tok) > 0 && tok[0] == 0x1e:
				more, err := flush()
				if err != nil || !more {
					stopped = true
					return err
				}
				head, msg, _ := strings.Cut(string(tok[1:]), "\n")
				fields := strings.Fields(head)
				if len(fields) == 0 {
					return fmt.Errorf("git log: bad record %q", head)
				}
				cur = &commit{hash: fields[0], parents: fields[1:], message: msg}
			case len(tok) > 0 && tok[0] == ':':
				meta := strings.Fields(string(tok[1:]))
				p, err := br.ReadBytes(0)
				if err != nil || cur == nil || len(meta) != 5 || len(meta[4]) == 0 {
					return fmt.Errorf("git log: bad change %q", tok)
				}
				cur.changes = append(cur.changes, change{
					path:    string(p[:len(p)-1]),
					oldMode: meta[0], newMode: meta[1],
					oldOID: meta[2], newOID: meta[3],
					status: meta[4][0],
				})
			case len(tok) == 0:
			default:
				return fmt.Errorf("git log: unexpected output %q", tok)
			}
		}
	}()
	if stopped || scanErr != nil {
		cancel()
		_, _ = io.Copy(io.Discard, pipe)
		_ = cmd.Wait()
		if scanErr != nil && parent.Err() != nil {
			return parent.Err()
		}
		return scanErr
	}
	if err := cmd.Wait(); err != nil {
		if parent.Err() != nil {
			return parent.Err()
		}
		return fmt.Errorf("git log: %w: %s", err, strings.TrimSpace(stderr.String()))
	}
	return nil
}

// entry is one file of a tree.
type entry struct {
	mode string // 100644, 100755, 120000 (link) or 160000 (submodule)
	oid  string
	size int64
}

// tree lists the files of the tree of commit rev, by path from the top of
// the repository. Submodules are left out, and so are files whose blob
// the object store lacks, as in a mirror that left its largest files out.
func (r *repo) tree(ctx context.Context, rev string) (map[string]entry, error) {
	out, err := r.output(ctx, "ls-tree", "-r", "-z", "-l", "--full-tree", rev)
	if err != nil {
		return nil, err
	}
	files := make(map[string]entry)
	for len(out) > 0 {
		rec, rest, ok := bytes.Cut(out, []byte{0})
		if !ok {
			return nil, fmt.Errorf("git ls-tree: truncated output")
		}
		out = rest
		// "<mode> <type> <oid> <size>\t<path>"
		meta, p, ok := strings.Cut(string(rec), "\t")
		fields := strings.Fields(meta)
		if !ok || len(fields) != 4 {
			return nil, fmt.Errorf("git ls-tree: bad entry %q", rec)
		}
		if fields[1] != "blob" {
			continue // a submodule
		}
		if fields[3] == "BAD" {
			continue // a blob the object store lacks (a partial mirror)
		}
		size, err := strconv.ParseInt(fields[3], 10, 64)
		if err != nil {
			return nil, fmt.Errorf("git ls-tree: bad entry %q", rec)
		}
		files[p] = entry{mode: fields[0], oid: fields[2], size: size}
	}
	return files, nil
}

// blobs reads objects through one long-lived "git cat-file --batch". It is
// safe for concurrent use; reads are served one at a time.
type blobs struct {
	mu   sync.Mutex
	cmd  *exec.Cmd
	in   io.WriteCloser
	out  *bufio.Reader
	err  error // the first failure; every read after it fails
	done bool
}

// openBlobs starts "git cat-file --batch" in r; it ends with ctx or Close.
func (r *repo) openBlobs(ctx context.Context) (*blobs, error) {
	cmd := r.command(ctx, "cat-file", "--batch")
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("git cat-file: %w", err)
	}
	return &blobs{cmd: cmd, in: in, out: bufio.NewReaderSize(out, 64<<10)}, nil
}

// read returns the content of the blob oid.
func (b *blobs) read(oid string) ([]byte, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.done {
		return nil, errors.New("git cat-file: closed")
	}
	if b.err != nil {
		return nil, b.err
	}
	data, err := b.readLocked(oid)
	if err != nil && !errors.Is(err, errMissing) {
		b.err = err // the stream is out of step: give up on it
	}
	return data, err
}

var errMissing = errors.New("no such object")

func (b *blobs) readLocked(oid string) ([]byte, error) {
	if strings.ContainsAny(oid, " \n") || oid == "" {
		return nil, fmt.Errorf("git cat-file: bad object name %q", oid)
	}
	if _, err := io.WriteString(b.in, oid+"\n"); err != nil {
		return nil, fmt.Errorf("git cat-file: %w", err)
	}
	head, err := b.out.ReadString('\n')
	if err != nil {
		return nil, fmt.Errorf("git cat-file: %w", err)
	}
	// "<oid> <type> <size>" or "<name> missing"
	fields := strings.Fields(head)
	if len(fields) == 2 && fields[1] == "missing" {
		return nil, fmt.Errorf("git cat-file %s: %w", oid, errMissing)
	}
	if len(fields) != 3 {
		return nil, fmt.Errorf("git cat-file: bad header %q", head)
	}
	size, err := strconv.ParseInt(fields[2], 10, 64)
	if err != nil || size < 0 {
		return nil, fmt.Errorf("git cat-file: bad header %q", head)
	}
	data := make([]byte, size+1) // and the "\n" after it
	if _, err := io.ReadFull(b.out, data); err != nil {
		return nil, fmt.Errorf("git cat-file: %w", err)
	}
	if fields[1] != "blob" {
		return nil, fmt.Errorf("git cat-file %s: a %s, not a blob", oid, fields[1])
	}
	return data[:size], nil
}

// Close ends the cat-file process. It is safe to call more than once.
func (b *blobs) Close() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.done {
		return nil
	}
	b.done = true
	b.in.Close()
	err := b.cmd.Wait()
	if b.err != nil {
		return nil // the failure was reported by read
	}
	if err != nil {
		return fmt.Errorf("git cat-file: %w", err)
	}
	return nil
}

// addedRows returns the 0-based rows of the blob newOID that "git diff"
// finds added against the blob oldOID: the new side of each hunk of a
// diff without context. A binary diff has no hunks, so no rows.
func (r *repo) addedRows(ctx context.Context, oldOID, newOID string) ([]int, error) {
	for _, oid := range []string{oldOID, newOID} {
		if !objectName.MatchString(oid) {
			return nil, fmt.Errorf("git diff: bad object name %q", oid)
		}
	}
	out, err := r.output(ctx, "diff", "-U0", "--no-color", "--no-ext-diff", "--no-textconv",
		"--diff-algorithm=myers", "--indent-heuristic", oldOID, newOID)
	if err != nil {
		return nil, err
	}
	return parseHunks(out)
}

var objectName = regexp.MustCompile(`^[0-9a-f]{40}([0-9a-f]{24})?$`)

// parseHunks returns the rows added by the hunks of a diff without
// context: "@@ -a[,b] +c[,d] @@" adds rows c-1 to c+d-2 (d is 1 when it is
// not written, and 0 adds none).
func parseHunks(diff []byte) ([]int, error) {
	var rows []int
	for line := range bytes.Lines(diff) {
		if !bytes.HasPrefix(line, []byte("@@ -")) {
			continue
		}
		_, rest, _ := strings.Cut(string(line), " +")
		spec, _, ok := strings.Cut(rest, " @@")
		if !ok {
			return nil, fmt.Errorf("git diff: bad hunk header %q", bytes.TrimSpace(line))
		}
		start, count := spec, "1"
		if s, c, ok := strings.Cut(spec, ","); ok {
			start, count = s, c
		}
		c, err1 := strconv.Atoi(start)
		d, err2 := strconv.Atoi(count)
		if err1 != nil || err2 != nil || c < 0 || d < 0 || d > 0 && c < 1 {
			return nil, fmt.Errorf("git diff: bad hunk header %q", bytes.TrimSpace(line))
		}
		for row := c - 1; row < c-1+d; row++ {
			rows = append(rows, row)
		}
	}
	return rows, nil
}

// withoutTrailers returns message without its trailers: its last
// paragraph, when that is not its first and each of its lines is a
// "Token: value" line or continues one, as git interpret-trailers reads
// them (Signed-off-by, Co-authored-by, Reviewed-by…). They say who
// worked on a change, not what it is, and a user's request has none: a
// co-author's name and address matched a tree's code of conduct and
// issue template as words.
func withoutTrailers(message string) string {
	body := strings.TrimRight(message, " \t\n")
	i := strings.LastIndex(body, "\n\n")
	if i < 0 {
		return message
	}
	lines := strings.Split(strings.TrimLeft(body[i:], "\n"), "\n")
	for j, line := range lines {
		if j > 0 && (strings.HasPrefix(line, " ") || strings.HasPrefix(line, "\t")) {
			continue // a trailer's value goes on
		}
		if !isTrailer(line) {
			return message
		}
	}
	return strings.TrimRight(body[:i], " \t\n") + "\n"
}

// isTrailer reports whether line is a "Token: value" trailer line: a
// token of letters, digits and hyphens, a colon, a space and a value.
func isTrailer(line string) bool {
	token, value, ok := strings.Cut(line, ": ")
	if !ok || token == "" || strings.TrimSpace(value) == "" {
		return false
	}
	for _, r := range token {
		if !(r == '-' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}
