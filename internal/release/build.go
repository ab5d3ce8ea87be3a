package main

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	pathpkg "path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"golang.org/x/mod/module"
)

// buildDir is the directory under -o where the binaries are built.
const buildDir = ".build"

// A stamp is what a release's binaries have stamped into them.
type stamp struct {
	version string // v1.2.3
	commit  string // the full hash, with "+dirty" when the tree had changes
	time    string // the commit's time, RFC 3339
}

// moduleRoot returns the directory of repomap's module.
func moduleRoot(ctx context.Context) (string, error) {
	gomod, err := output(ctx, "", "go", "env", "GOMOD")
	if err != nil {
		return "", err
	}
	if gomod == "" || gomod == os.DevNull {
		return "", fmt.Errorf("not in repomap's module")
	}
	return filepath.Dir(gomod), nil
}

// stampOf returns the stamp of the commit checked out in root: version,
// or the commit's tag, or a pseudo-version after the latest tag.
func stampOf(ctx context.Context, root, version string) (stamp, error) {
	var st stamp
	var err error
	if st.commit, err = output(ctx, root, "git", "rev-parse", "HEAD"); err != nil {
		return st, err
	}
	unix, err := output(ctx, root, "git", "log", "-1", "--format=%ct", "HEAD")
	if err != nil {
		return st, err
	}
	secs, err := strconv.ParseInt(unix, 10, 64)
	if err != nil {
		return st, fmt.Errorf("git log: commit time %q: %w", unix, err)
	}
	st.time = commitTime(secs)
	changes, err := output(ctx, root, "git", "status", "--porcelain", "--untracked-files=no")
	if err != nil {
		return st, err
	}
	if changes != "" {
		st.commit += "+dirty"
	}
	st.version = version
	if st.version == "" {
		st.version, _ = output(ctx, root, "git", "describe", "--tags", "--exact-match", "--match", "v[0-9]*", "HEAD")
	}
	if st.version == "" {
		older, _ := output(ctx, root, "git", "describe", "--tags", "--abbrev=0", "--match", "v[0-9]*", "HEAD")
		st.version = module.PseudoVersion("", older, time.Unix(secs, 0), st.commit[:12])
	}
	return st, nil
}

// A binary is a target's repomap, built.
type binary struct {
	target target
	path   string
	size   int64
	took   time.Duration
}

// ldflags returns the linker's flags for t: the stamp, stripped of DWARF
// and, where the linker can, of the symbol table; static on Linux.
func ldflags(t target, st stamp) string {
	flags := []string{"-s", "-w"}
	if t.goos == "darwin" {
		flags = []string{"-w"} // zig's linker takes no -Wl,-x, which -s passes
	}
	if t.goos == "linux" {
		flags = append(flags, "-extldflags=-static")
	}
	for _, kv := range [][2]string{{"buildVersion", st.version}, {"buildCommit", st.commit}, {"buildTime", st.time}} {
		flags = append(flags, "-X", "main."+kv[0]+"="+kv[1])
	}
	return strings.Join(flags, " ")
}

// buildArgs returns the go command's arguments that build t's binary
// into path.
func buildArgs(t target, st stamp, path string) []string {
	args := []string{"go", "build", "-trimpath", "-buildvcs=false"}
	if t.goos == "linux" {
		// A static glibc cannot look up hosts or users with NSS: Go's
		// own resolver and user lookup do.
		args = append(args, "-tags", "netgo,osusergo")
	}
	return append(args, "-ldflags", ldflags(t, st), "-o", path, "./cmd/repomap")
}

// unsignedChar are the targets whose C ABI makes char unsigned.
var unsignedChar = []target{{"linux", "arm64"}}

// buildEnv returns the environment that builds t with tc, added to this
// process's.
//
// Where char is unsigned, the C code is compiled with -fsigned-char:
// grammars' scanners are written for a signed char (tree-sitter-yaml's
// returns -1 as a char, and compares it with -1), and each platform's
// binary must parse as the others do.
func buildEnv(t target, tc toolchain) []string {
	env := []string{"GOOS=" + t.goos, "GOARCH=" + t.goarch, "CGO_ENABLED=1"}
	if tc.cc != "" {
		env = append(env, "CC="+tc.cc)
	}
	if slices.Contains(unsignedChar, t) {
		env = append(env, "CGO_CFLAGS="+cmp.Or(os.Getenv("CGO_CFLAGS"), "-O2 -g")+" -fsigned-char")
	}
	return env
}

// build builds t's binary under out.
func build(ctx context.Context, root, out string, t target, tc toolchain, st stamp, stderr io.Writer) (binary, error) {
	b := binary{target: t, path: filepath.Join(out, buildDir, t.goos+"_"+t.goarch, t.exe())}
	if tc.frameworks != "" {
		if err := writeFrameworks(ctx, root, t, tc.frameworks); err != nil {
			return b, err
		}
	}
	env := buildEnv(t, tc)
	path, err := filepath.Abs(b.path)
	if err != nil {
		return b, err
	}
	fmt.Fprintf(stderr, "release: %s: building (CC=%s)\n", t, cmp.Or(tc.cc, "default"))
	start := time.Now()
	if err := runIn(ctx, root, stderr, env, buildArgs(t, st, path)...); err != nil {
		return b, fmt.Errorf("%s: %w", t, err)
	}
	b.took = time.Since(start)
	fi, err := os.Stat(path)
	if err != nil {
		return b, err
	}
	b.path, b.size = path, fi.Size()
	return b, nil
}

// writeFrameworks writes into dir a stub of each macOS framework that the
// packages of repomap's build for t import functions from: a text-based
// stub (.tbd) naming the framework's install path and those functions,
// which a linker takes in place of the framework.
func writeFrameworks(ctx context.Context, root string, t target, dir string) error {
	cmd := exec.CommandContext(ctx, "go", "list", "-deps", "-f", "{{.Dir}}", "./cmd/repomap")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOOS="+t.goos, "GOARCH="+t.goarch, "CGO_ENABLED=1")
	out, err := cmd.Output()
	if err != nil {
		return fmt.Errorf("go list for %s: %w", t, err)
	}
	imports := map[string][]string{} // install path → symbols
	for d := range strings.Lines(string(out)) {
		if err := frameworkImports(strings.TrimSpace(d), imports); err != nil {
			return err
		}
	}
	for path, syms := range imports {
		name := pathpkg.Base(path) // …/Name.framework/Versions/A/Name
		fw := filepath.Join(dir, name+".framework")
		if err := os.MkdirAll(fw, 0o755); err != nil {
			return err
		}
		if err := writeIfChanged(filepath.Join(fw, name+".tbd"), tbd(path, syms)); err != nil {
			return err
		}
	}
	return nil
}

// frameworkImports adds to imports the functions that the Go files in
// dir import from macOS frameworks with //go:cgo_import_dynamic.
func frameworkImports(dir string, imports map[string][]string) error {
	if dir == "" {
		return nil
	}
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return err
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		if !bytes.Contains(data, []byte("//go:cgo_import_dynamic")) {
			continue
		}
		sc := bufio.NewScanner(bytes.NewReader(data))
		for sc.Scan() {
			// //go:cgo_import_dynamic local remote "library"
			fields := strings.Fields(sc.Text())
			if len(fields) != 4 || fields[0] != "//go:cgo_import_dynamic" {
				continue
			}
			lib := strings.Trim(fields[3], `"`)
			if !strings.HasPrefix(lib, "/System/Library/Frameworks/") {
				continue
			}
			if sym := "_" + fields[2]; !slices.Contains(imports[lib], sym) {
				imports[lib] = append(imports[lib], sym)
			}
		}
	}
	return nil
}

// tbd returns a text-based stub of the library at installPath that
// exports syms, for both macOS architectures.
func tbd(installPath string, syms []string) []byte {
	syms = slices.Sorted(slices.Values(syms))
	return fmt.Appendf(nil, `--- !tapi-tbd
tbd-version: 4
targets: [ x86_64-macos, arm64-macos ]
install-name: '%s'
exports:
  - targets: [ x86_64-macos, arm64-macos ]
    symbols: [ %s ]
...
`, installPath, strings.Join(syms, ", "))
}

// writeIfChanged writes data to path unless path holds it already.
func writeIfChanged(path string, data []byte) error {
	if old, err := os.ReadFile(path); err == nil && bytes.Equal(old, data) {
		return nil
	}
	return os.WriteFile(path, data, 0o644)
}
