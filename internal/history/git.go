package history

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/repomap-dev/repomap/internal/gitcmd"
)

// Repo is the git repository a directory lies in.
type Repo struct {
	dir    string // the directory
	prefix string // its path from the top of the work tree, slash-separated; "" at the top
	gitDir string // the repository's git directory (a worktree's own)
	common string // the git directory it shares with its other worktrees
}

// Open returns the repository the directory dir lies in: the nearest
// directory at or above it that holds a .git directory, or a .git file
// naming one (a worktree, a submodule). It reads a few small files and
// runs nothing. The errors of a directory that is in no repository, or
// in a shallow clone, are ErrNoRepository and ErrShallow, wrapped.
func Open(dir string) (*Repo, error) {
	abs, err := filepath.Abs(dir)
	if err == nil {
		abs, err = filepath.EvalSymlinks(abs)
	}
	if err != nil {
		return nil, fmt.Errorf("history: open %s: %w", dir, err)
	}
	r := &Repo{dir: dir}
	top := abs
	for {
		dotGit := filepath.Join(top, ".git")
		info, err := os.Stat(dotGit)
		if err == nil && info.IsDir() {
			r.gitDir = dotGit
			break
		}
		if err == nil && info.Mode().IsRegular() {
			// "gitdir: <path>", relative to the file's directory.
			data, err := readSmall(dotGit)
			target, ok := strings.CutPrefix(strings.TrimSpace(string(data)), "gitdir: ")
			if err != nil || !ok || target == "" {
				return nil, fmt.Errorf("history: %s: not a .git file", dotGit)
			}
			if !filepath.IsAbs(target) {
				target = filepath.Join(top, target)
			}
			r.gitDir = target
			break
		}
		up := filepath.Dir(top)
		if up == top {
			return nil, fmt.Errorf("history: %s: %w", dir, ErrNoRepository)
		}
		top = up
	}
	r.common = r.gitDir
	if data, err := readSmall(filepath.Join(r.gitDir, "commondir")); err == nil {
		c := strings.TrimSpace(string(data))
		if !filepath.IsAbs(c) {
			c = filepath.Join(r.gitDir, c)
		}
		r.common = c
	}
	if info, err := os.Stat(filepath.Join(r.common, "shallow")); err == nil && info.Size() > 0 {
		return nil, fmt.Errorf("history: %s: %w", dir, ErrShallow)
	}
	if rel, _ := filepath.Rel(top, abs); rel != "." {
		r.prefix = filepath.ToSlash(rel)
	}
	return r, nil
}

// readSmall reads a file of the repository that holds a line or a few.
func readSmall(name string) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, 1<<16))
}

// Prefix returns the path of the directory from the top of its work
// tree, slash-separated: "" at the top.
func (r *Repo) Prefix() string { return r.prefix }

// Head returns the commit HEAD names, in hex, as the repository's files
// say now: HEAD, the loose ref it names, or packed-refs. The error of a
// HEAD that names no commit yet is ErrNoCommit, wrapped.
func (r *Repo) Head() (string, error) {
	ref := "HEAD"
	for range 5 { // a symbolic ref may name another
		data, err := readSmall(filepath.Join(r.gitDir, filepath.FromSlash(ref)))
		if errors.Is(err, fs.ErrNotExist) && r.common != r.gitDir {
			data, err = readSmall(filepath.Join(r.common, filepath.FromSlash(ref)))
		}
		if errors.Is(err, fs.ErrNotExist) {
			hash, ok, perr := packedRef(filepath.Join(r.common, "packed-refs"), ref)
			switch {
			case perr != nil:
				return "", fmt.Errorf("history: %s: %w", r.dir, perr)
			case !ok:
				return "", fmt.Errorf("history: %s: %w", r.dir, ErrNoCommit)
			}
			return hash, nil
		}
		if err != nil {
			return "", fmt.Errorf("history: %s: %w", r.dir, err)
		}
		line := strings.TrimSpace(string(data))
		if next, ok := strings.CutPrefix(line, "ref: "); ok {
			if !validRef(next) {
				return "", fmt.Errorf("history: %s: bad ref %q", r.dir, next)
			}
			ref = next
			continue
		}
		if !isHash(line) {
			return "", fmt.Errorf("history: %s: bad ref %s: %q", r.dir, ref, line)
		}
		return line, nil
	}
	return "", fmt.Errorf("history: %s: HEAD: too many symbolic refs", r.dir)
}

// packedRef returns the hash packed-refs gives the ref, and whether it
// gives one.
func packedRef(name, ref string) (string, bool, error) {
	data, err := os.ReadFile(name)
	if errors.Is(err, fs.ErrNotExist) {
		return "", false, nil
	}
	if err != nil {
		return "", false, err
	}
	for line := range strings.Lines(string(data)) {
		hash, name, ok := strings.Cut(strings.TrimSpace(line), " ")
		if ok && name == ref && isHash(hash) {
			return hash, true, nil
		}
	}
	return "", false, nil
}

// validRef reports whether a symbolic ref's target is a ref name that
// stays in the repository: refs/... without "..", or HEAD.
func validRef(ref string) bool {
	return ref == "HEAD" || strings.HasPrefix(ref, "refs/") && !strings.Contains(ref, "..") && !strings.ContainsAny(ref, "\\\x00")
}

// isHash reports whether s is a full object name: 40 hex digits (SHA-1)
// or 64 (SHA-256).
func isHash(s string) bool {
	if len(s) != 40 && len(s) != 64 {
		return false
	}
	for _, c := range s {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

// commitTime returns the hash and the committer time of the commit rev
// names in the repository at dir.
func commitTime(ctx context.Context, dir, rev string) (string, int64, error) {
	if strings.HasPrefix(rev, "-") {
		return "", 0, fmt.Errorf("bad revision %q", rev)
	}
	out, err := gitcmd.Output(ctx, dir, "show", "-s", "--no-show-signature", "--format=%H %ct", rev+"^{commit}", "--")
	if err != nil {
		return "", 0, err
	}
	hash, ts, ok := strings.Cut(strings.TrimSpace(string(out)), " ")
	t, err := strconv.ParseInt(ts, 10, 64)
	if !ok || err != nil || len(hash) < 40 {
		return "", 0, fmt.Errorf("git show: bad output %q", out)
	}
	return hash, t, nil
}

// gitLog returns the non-merge commits reachable from the commit rev in
// the repository at dir, and not from any of not, newest first in git
// log's order, at most limit of them, with the files each changed and
// its renames (git's rename detection).
func gitLog(ctx context.Context, dir, rev string, not []string, limit int) ([]rawCommit, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	args := []string{"-c", "log.showSignature=false", "-c", "core.quotePath=false",
		"log", "--no-merges", "-M", "--name-status", "-z", "--no-color", "--format=%x1e%H %ct%x1f%B",
		"-n", strconv.Itoa(limit), rev}
	for _, n := range not {
		args = append(args, "^"+n)
	}
	cmd := gitcmd.Command(ctx, dir, append(args, "--")...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	pipe, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("git log: %w", err)
	}
	out, scanErr := parseLog(bufio.NewReaderSize(pipe, 64<<10))
	if scanErr != nil {
		cancel()
		_, _ = io.Copy(io.Discard, pipe)
	}
	werr := cmd.Wait()
	switch {
	case scanErr != nil:
		return nil, scanErr
	case werr != nil:
		return nil, fmt.Errorf("git log: %w: %s", werr, strings.TrimSpace(stderr.String()))
	}
	return out, nil
}

// parseLog reads the output of git log --name-status -z
// --format=%x1e%H %ct%x1f%B: for each commit, "\x1e<hash>
// <time>\x1f<message>\0\n" (a message holds no NUL), then
// for each file "<status>\0<path>\0", with two paths for a rename or a
// copy ("R086\0old\0new\0").
func parseLog(br *bufio.Reader) ([]rawCommit, error) {
	var out []rawCommit
	for {
		tok, err := br.ReadBytes(0)
		if errors.Is(err, io.EOF) {
			if len(bytes.TrimSpace(tok)) != 0 {
				return nil, errors.New("git log: truncated output")
			}
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		tok = bytes.TrimLeft(tok[:len(tok)-1], "\n")
		switch {
		case len(tok) == 0:
		case tok[0] == 0x1e:
			head, msg, _ := bytes.Cut(tok[1:], []byte{0x1f})
			hash, ts, ok := strings.Cut(string(head), " ")
			t, err := strconv.ParseInt(ts, 10, 64)
			if !ok || err != nil || hash == "" {
				return nil, fmt.Errorf("git log: bad record %q", head)
			}
			out = append(out, rawCommit{hash: hash, time: t, msg: message(msg)})
		default:
			if len(out) == 0 {
				return nil, fmt.Errorf("git log: unexpected output %q", tok)
			}
			c := &out[len(out)-1]
			status := tok[0]
			n := 1
			if status == 'R' || status == 'C' {
				n = 2
			}
			var paths [2]string
			for i := range n {
				p, err := br.ReadBytes(0)
				if err != nil || len(p) < 2 {
					return nil, fmt.Errorf("git log: bad change %q", tok)
				}
				paths[i] = string(p[:len(p)-1])
			}
			switch status {
			case 'R':
				c.renames = append(c.renames, [2]string{paths[0], paths[1]})
				c.files = append(c.files, paths[1])
			case 'C':
				c.files = append(c.files, paths[1])
			default:
				c.files = append(c.files, paths[0])
			}
		}
	}
}

// maxMessage is the most bytes of a commit's message a history keeps:
// its subject and the start of its body say what it is about.
const maxMessage = 1024

// message returns the part of a commit's message a history keeps: at
// most maxMessage bytes, cut at a line's end where there is one, without
// the space around it.
func message(msg []byte) string {
	msg = bytes.TrimSpace(msg)
	if len(msg) > maxMessage {
		cut := msg[:maxMessage]
		if i := bytes.LastIndexByte(cut, '\n'); i > 0 {
			cut = cut[:i]
		}
		msg = bytes.TrimSpace(cut)
	}
	return string(msg)
}

// Read reads the history of the repository at dir (its work tree, a
// directory in it, or a git directory) up to the commit rev ("HEAD"
// too), as o says, with the git binary. Nothing is written to the
// repository.
func Read(ctx context.Context, dir, rev string, o Options) (*History, error) {
	if _, err := exec.LookPath("git"); err != nil {
		return nil, fmt.Errorf("history: %w", ErrNoGit)
	}
	o = o.WithDefaults()
	head, t, err := commitTime(ctx, dir, rev)
	if err != nil {
		return nil, fmt.Errorf("history: %s: %w", dir, err)
	}
	raw, err := gitLog(ctx, dir, head, nil, o.Depth)
	if err != nil {
		return nil, fmt.Errorf("history: %s: %w", dir, err)
	}
	return build(head, t, raw, o), nil
}

// Extend returns the history of the repository at dir up to the commit
// rev, as h was read: h itself when rev is h.Head; h with the commits
// that lead from h.Head to rev when rev descends from it and those
// commits are all at least as new as h.Time (so that a read from rev
// lists them first, as git log orders commits by time), the oldest of
// h's dropped past the depth; else the history read anew.
func (h *History) Extend(ctx context.Context, dir, rev string) (*History, error) {
	head, t, err := commitTime(ctx, dir, rev)
	if err != nil {
		return nil, fmt.Errorf("history: %s: %w", dir, err)
	}
	if head == h.Head {
		return h, nil
	}
	o := h.opts
	if _, err := gitcmd.Output(ctx, dir, "merge-base", "--is-ancestor", h.Head, head); err == nil {
		raw, err := gitLog(ctx, dir, head, []string{h.Head}, o.Depth)
		if err != nil {
			return nil, fmt.Errorf("history: %s: %w", dir, err)
		}
		newer := true
		for _, c := range raw {
			newer = newer && c.time >= h.Time
		}
		if newer {
			return h.extend(head, t, raw), nil
		}
	} else if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	return Read(ctx, dir, head, o)
}
