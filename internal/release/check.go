package main

import (
	"bytes"
	"context"
	"debug/elf"
	"debug/macho"
	"debug/pe"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"strings"
)

// checkBinaries checks that each binary is an executable of its
// platform and, where this machine can run it, that it prints the
// stamped version, and that its map of each of trees is byte for byte
// the map of the first binary that ran, made of as many files,
// definitions, references and links.
func checkBinaries(ctx context.Context, built []binary, st stamp, trees []string, stderr io.Writer) error {
	var first target
	firstMaps := map[string]treeMap{} // by tree
	for _, b := range built {
		kind, err := checkFormat(b)
		if err != nil {
			return fmt.Errorf("%s: %s: %w", b.target, b.path, err)
		}
		r, ok := runnerFor(b.target)
		if !ok {
			fmt.Fprintf(stderr, "release: %s: %s; this machine cannot run it\n", b.target, kind)
			continue
		}
		out, err := r.run(ctx, b.path, "version")
		if err != nil {
			return fmt.Errorf("%s: %s version: %w", b.target, r.how, err)
		}
		want := "repomap " + st.version + " (commit " + shortCommit(st.commit) + ", " + st.time + ") "
		if !strings.HasPrefix(string(out), want) {
			return fmt.Errorf("%s: repomap version printed %q, want %q…", b.target, out, want)
		}
		fmt.Fprintf(stderr, "release: %s: %s; %s: %s", b.target, kind, r.how, out)
		for _, tree := range trees {
			tree, err := filepath.Abs(tree)
			if err != nil {
				return err
			}
			m, err := mapOf(ctx, r, b.path, tree)
			if err != nil {
				return fmt.Errorf("%s: %s: map of %s: %w", b.target, r.how, tree, err)
			}
			want, ok := firstMaps[tree]
			if !ok {
				first, firstMaps[tree] = b.target, m
				fmt.Fprintf(stderr, "release: %s: mapped %s: %d bytes, %s\n", b.target, tree, len(m.text), m.counts)
				continue
			}
			if m.counts != want.counts {
				return fmt.Errorf("%s: the map of %s has %s; %s's has %s", b.target, tree, m.counts, first, want.counts)
			}
			if !bytes.Equal(m.text, want.text) {
				return fmt.Errorf("%s: the map of %s differs from %s's (%d bytes, %d):\n%s", b.target, tree, first, len(m.text), len(want.text), m.text)
			}
			fmt.Fprintf(stderr, "release: %s: mapped %s: the same %d bytes and counts as %s\n", b.target, tree, len(m.text), first)
		}
	}
	return nil
}

// A treeMap is a binary's map of a tree, and what went into it.
type treeMap struct {
	text   []byte
	counts counts
}

// counts are the counts of repomap.Stats that a map of the same tree
// must have on every platform.
type counts struct {
	Files    int   `json:"files"`
	Bytes    int64 `json:"bytes"`
	Parsed   int   `json:"parsed"`
	Skipped  int   `json:"skipped"`
	Defs     int   `json:"defs"`
	Refs     int   `json:"refs"`
	Nodes    int   `json:"nodes"`
	Links    int   `json:"links"`
	Tokens   int   `json:"tokens"`
	Rendered int   `json:"rendered"`
}

func (c counts) String() string {
	return fmt.Sprintf("%d files, %d parsed, %d definitions, %d references, %d links, %d tokens", c.Files, c.Parsed, c.Defs, c.Refs, c.Links, c.Tokens)
}

// mapOf returns the map of tree by the binary at path, and its counts.
func mapOf(ctx context.Context, r runner, path, tree string) (treeMap, error) {
	var m treeMap
	// No parse timeout: under an emulator, a large file may take longer
	// than the default 5s and be left out.
	args := []string{"--tokens", "2048", "--no-cache", "--parse-timeout", "1h", tree}
	text, err := r.run(ctx, path, args...)
	if err != nil {
		return m, err
	}
	stats, err := r.run(ctx, path, append([]string{"--stats-json"}, args...)...)
	if err != nil {
		return m, err
	}
	if err := json.Unmarshal(stats, &m.counts); err != nil {
		return m, fmt.Errorf("--stats-json: %w", err)
	}
	m.text = text
	return m, nil
}

// shortCommit returns the commit as "repomap version" prints it.
func shortCommit(commit string) string {
	hash, dirty, _ := strings.Cut(commit, "+")
	if len(hash) > 12 {
		hash = hash[:12]
	}
	if dirty != "" {
		hash += "+" + dirty
	}
	return hash
}

// A runner runs binaries of one target on this machine.
type runner struct {
	prefix []string // the emulator and its arguments, if any
	how    string   // "natively", "under qemu-aarch64-static"
}

// runnerFor returns how this machine runs t's binaries: natively or
// under qemu-user; false if it cannot.
func runnerFor(t target) (runner, bool) {
	if t == host {
		return runner{how: "natively"}, true
	}
	qemuArch := map[string]string{"amd64": "x86_64", "arm64": "aarch64"}[t.goarch]
	if t.goos == "linux" && host.goos == "linux" && qemuArch != "" {
		for _, q := range []string{"qemu-" + qemuArch + "-static", "qemu-" + qemuArch} {
			if hasCommand(q) {
				return runner{prefix: []string{q}, how: "under " + q}, true
			}
		}
	}
	// Debian 12's Wine (8.0) cannot run a Go program: it lacks
	// ProcessPrng in bcryptprimitives.dll, which Go's runtime loads at
	// start since Go 1.22.
	return runner{}, false
}

// run runs the binary at path with args and returns its standard output.
func (r runner) run(ctx context.Context, path string, args ...string) ([]byte, error) {
	argv := append(append(r.prefix[:len(r.prefix):len(r.prefix)], path), args...)
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("%w: %s", err, strings.TrimSpace(stderr.String()))
	}
	return out, nil
}

// checkFormat checks that b is an executable for its target and returns
// what it is.
func checkFormat(b binary) (string, error) {
	switch b.target.goos {
	case "linux":
		return checkELF(b)
	case "windows":
		return checkPE(b)
	case "darwin":
		return checkMachO(b)
	}
	return "", fmt.Errorf("no check for %s", b.target.goos)
}

func checkELF(b binary) (string, error) {
	f, err := elf.Open(b.path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	want := map[string]elf.Machine{"amd64": elf.EM_X86_64, "arm64": elf.EM_AARCH64}[b.target.goarch]
	if f.Type != elf.ET_EXEC || f.Machine != want {
		return "", fmt.Errorf("ELF %s %s, want an executable for %s", f.Type, f.Machine, want)
	}
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			return "", fmt.Errorf("dynamically linked (PT_INTERP), want a static executable")
		}
	}
	return "static ELF executable for " + f.Machine.String(), nil
}

func checkPE(b binary) (string, error) {
	f, err := pe.Open(b.path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	want := map[string]uint16{"amd64": pe.IMAGE_FILE_MACHINE_AMD64, "arm64": pe.IMAGE_FILE_MACHINE_ARM64}[b.target.goarch]
	if f.Machine != want || f.Characteristics&pe.IMAGE_FILE_EXECUTABLE_IMAGE == 0 {
		return "", fmt.Errorf("PE machine %#x, characteristics %#x, want an executable for machine %#x", f.Machine, f.Characteristics, want)
	}
	return fmt.Sprintf("PE executable for machine %#x", f.Machine), nil
}

// lcCodeSignature is the Mach-O load command of a code signature.
const lcCodeSignature macho.LoadCmd = 0x1d

func checkMachO(b binary) (string, error) {
	f, err := macho.Open(b.path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	want := map[string]macho.Cpu{"amd64": macho.CpuAmd64, "arm64": macho.CpuArm64}[b.target.goarch]
	if f.Type != macho.TypeExec || f.Cpu != want {
		return "", fmt.Errorf("Mach-O %s %s, want an executable for %s", f.Type, f.Cpu, want)
	}
	signed := false
	for _, l := range f.Loads {
		if raw := l.Raw(); len(raw) >= 4 && macho.LoadCmd(f.ByteOrder.Uint32(raw)) == lcCodeSignature {
			signed = true
		}
	}
	// macOS runs nothing unsigned on Apple silicon; an ad hoc signature,
	// which the linker writes, is enough.
	if want == macho.CpuArm64 && !signed {
		return "", fmt.Errorf("Mach-O for arm64 without a code signature")
	}
	libs, err := f.ImportedLibraries()
	if err != nil {
		return "", err
	}
	for _, l := range libs {
		if !strings.HasPrefix(l, "/usr/lib/") && !strings.HasPrefix(l, "/System/Library/") {
			return "", fmt.Errorf("Mach-O links %s, which macOS does not have", l)
		}
	}
	kind := "Mach-O executable for " + f.Cpu.String()
	if signed {
		kind += ", code-signed"
	}
	return kind, nil
}
