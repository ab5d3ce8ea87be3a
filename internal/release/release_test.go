package main

import (
	"archive/tar"
	"archive/zip"
	"compress/gzip"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// testStamp is the stamp of the fake releases the tests make.
var testStamp = stamp{version: "v1.2.3", commit: "4f1c2e9a7b3d5e6f708192a3b4c5d6e7f8091a2b", time: "2026-07-01T12:00:00Z"}

// fakeRelease writes, for each target, a fake binary: a shell script
// that prints "repomap v1.2.3 GOOS/GOARCH" and its arguments, and exits
// with status 3 when its first argument is "fail". It returns the
// binaries and their archives in out.
func fakeRelease(t *testing.T, out string, targets ...target) ([]binary, []archive) {
	t.Helper()
	root := t.TempDir()
	for _, f := range []string{"LICENSE", "README.md"} {
		if err := os.WriteFile(filepath.Join(root, f), []byte(f+" text\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var built []binary
	var archives []archive
	for _, tg := range targets {
		path := filepath.Join(t.TempDir(), tg.exe())
		script := fmt.Sprintf("#!/bin/sh\n[ \"${1-}\" = fail ] && exit 3\necho repomap %s %s \"$@\"\n", testStamp.version, tg)
		if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
		b := binary{target: tg, path: path, size: int64(len(script))}
		a, err := writeArchive(out, root, b, testStamp)
		if err != nil {
			t.Fatal(err)
		}
		built, archives = append(built, b), append(archives, a)
	}
	return built, archives
}

var unixTargets = []target{{"linux", "amd64"}, {"linux", "arm64"}, {"darwin", "amd64"}, {"darwin", "arm64"}}

func TestArchive(t *testing.T) {
	out1, out2 := t.TempDir(), t.TempDir()
	targets := []target{{"linux", "arm64"}, {"windows", "amd64"}}
	_, a1 := fakeRelease(t, out1, targets...)
	_, a2 := fakeRelease(t, out2, targets...)
	for i := range a1 {
		if a1[i].Name != a2[i].Name || a1[i].SHA256 != a2[i].SHA256 {
			t.Errorf("the same files made archives %s %s and %s %s", a1[i].Name, a1[i].SHA256, a2[i].Name, a2[i].SHA256)
		}
	}
	want := []string{"repomap 0755 2026-07-01T12:00:00Z", "LICENSE 0644 2026-07-01T12:00:00Z", "README.md 0644 2026-07-01T12:00:00Z"}
	if got := tarMembers(t, filepath.Join(out1, "repomap_1.2.3_linux_arm64.tar.gz")); !cmp.Equal(got, want) {
		t.Errorf("tar members (-want +got):\n%s", cmp.Diff(want, got))
	}
	want[0] = strings.Replace(want[0], "repomap", "repomap.exe", 1)
	if got := zipMembers(t, filepath.Join(out1, "repomap_1.2.3_windows_amd64.zip")); !cmp.Equal(got, want) {
		t.Errorf("zip members (-want +got):\n%s", cmp.Diff(want, got))
	}

	sums := filepath.Join(out1, "checksums.txt")
	if err := writeChecksums(sums, []archive{a1[1], a1[0]}); err != nil {
		t.Fatal(err)
	}
	if sha256sum, err := exec.LookPath("sha256sum"); err == nil {
		cmd := exec.Command(sha256sum, "--check", "--strict", "checksums.txt")
		cmd.Dir = out1
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("sha256sum --check checksums.txt: %v\n%s", err, out)
		}
	}
}

func tarMembers(t *testing.T, path string) []string {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(gz)
	var got []string
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return got
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, fmt.Sprintf("%s %04o %s", h.Name, h.Mode, h.ModTime.UTC().Format("2006-01-02T15:04:05Z")))
	}
}

func zipMembers(t *testing.T, path string) []string {
	zr, err := zip.OpenReader(path)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	var got []string
	for _, f := range zr.File {
		got = append(got, fmt.Sprintf("%s %04o %s", f.Name, f.Mode().Perm(), f.Modified.UTC().Format("2006-01-02T15:04:05Z")))
	}
	return got
}

// TestInstallScript runs install.sh, made for fake archives, with a fake
// uname that says which platform it runs on, downloading the archives
// from their directory.
func TestInstallScript(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("install.sh is for Linux and macOS")
	}
	for _, tool := range []string{"sh", "curl", "tar"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("no %s", tool)
		}
	}
	out := t.TempDir()
	_, archives := fakeRelease(t, out, append(unixTargets, target{"windows", "amd64"})...)
	rel := releaseInfo{Version: testStamp.version, Repo: "repomap-dev/repomap", Archives: archives}
	script := filepath.Join(out, "install.sh")
	if err := writeTemplate(script, installTemplate, rel, 0o755); err != nil {
		t.Fatal(err)
	}
	if shellcheck, err := exec.LookPath("shellcheck"); err == nil {
		if out, err := exec.Command(shellcheck, "--shell=sh", script).CombinedOutput(); err != nil {
			t.Errorf("shellcheck install.sh: %v\n%s", err, out)
		}
	}

	install := func(t *testing.T, uname, translated string) (string, string, error) {
		bin := t.TempDir()
		fake := map[string]string{
			"uname":  "#!/bin/sh\ncase $1 in -s) echo " + strings.Fields(uname)[0] + " ;; -m) echo " + strings.Fields(uname)[1] + " ;; esac\n",
			"sysctl": "#!/bin/sh\n[ -n '" + translated + "' ] || exit 1\necho " + translated + "\n",
		}
		for name, text := range fake {
			if err := os.WriteFile(filepath.Join(bin, name), []byte(text), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		dir := filepath.Join(t.TempDir(), "bin")
		cmd := exec.Command("sh", script)
		cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"),
			"REPOMAP_DOWNLOAD_URL=file://"+out, "REPOMAP_INSTALL_DIR="+dir)
		var stderr strings.Builder
		cmd.Stderr = &stderr
		err := cmd.Run()
		return dir, stderr.String(), err
	}
	for _, tc := range []struct {
		uname      string
		translated string // sysctl.proc_translated
		want       string // the platform installed, or part of the error
	}{
		{uname: "Linux x86_64", want: "linux/amd64"},
		{uname: "Linux aarch64", want: "linux/arm64"},
		{uname: "Darwin arm64", want: "darwin/arm64"},
		{uname: "Darwin x86_64", translated: "0", want: "darwin/amd64"},
		{uname: "Darwin x86_64", translated: "1", want: "darwin/arm64"}, // under Rosetta 2
		{uname: "FreeBSD amd64", want: "no build of repomap v1.2.3 for FreeBSD"},
		{uname: "Linux riscv64", want: "no build of repomap v1.2.3 for riscv64"},
	} {
		t.Run(tc.uname+tc.translated, func(t *testing.T) {
			dir, stderr, err := install(t, tc.uname, tc.translated)
			if !strings.Contains(tc.want, "/") {
				if err == nil || !strings.Contains(stderr, tc.want) {
					t.Errorf("install.sh on %s: %v, stderr:\n%s\nwant a failure saying %q", tc.uname, err, stderr, tc.want)
				}
				return
			}
			if err != nil {
				t.Fatalf("install.sh on %s: %v\n%s", tc.uname, err, stderr)
			}
			got, err := exec.Command(filepath.Join(dir, "repomap"), "version").Output()
			if want := "repomap v1.2.3 " + tc.want + " version\n"; err != nil || string(got) != want {
				t.Errorf("installed on %s, repomap version: %q, %v, want %q", tc.uname, got, err, want)
			}
			if want := "installed " + dir + "/repomap: repomap v1.2.3 " + tc.want; !strings.Contains(stderr, want) {
				t.Errorf("install.sh on %s said\n%s\nwant %q", tc.uname, stderr, want)
			}
		})
	}

	t.Run("tampered", func(t *testing.T) {
		name := filepath.Join(out, "repomap_1.2.3_linux_amd64.tar.gz")
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.WriteFile(name, data, 0o644) })
		if err := os.WriteFile(name, append(data[:len(data):len(data)], 0), 0o644); err != nil {
			t.Fatal(err)
		}
		dir, stderr, err := install(t, "Linux x86_64", "")
		if err == nil || !strings.Contains(stderr, "repomap_1.2.3_linux_amd64.tar.gz has SHA-256 ") || !strings.Contains(stderr, "not installed") {
			t.Errorf("install.sh of a changed archive: %v, stderr:\n%s\nwant a failure for its SHA-256", err, stderr)
		}
		if _, err := os.Stat(filepath.Join(dir, "repomap")); err == nil {
			t.Errorf("install.sh installed a changed archive")
		}
	})
}

// TestFormula compares the formula of a release with
// testdata/repomap.rb; -update rewrites it.
func TestFormula(t *testing.T) {
	_, archives := fakeRelease(t, t.TempDir(), append(unixTargets, target{"windows", "amd64"})...)
	rel := releaseInfo{Version: testStamp.version, Repo: "repomap-dev/repomap", Archives: archives}
	path := filepath.Join(t.TempDir(), "repomap.rb")
	if err := writeTemplate(path, formulaTemplate, rel, 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	const golden = "testdata/repomap.rb"
	if *update {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("formula (-want +got):\n%s", diff)
	}
	for _, a := range archives {
		if in := strings.Contains(string(got), a.SHA256); in == (a.Target.goos == "windows") {
			t.Errorf("formula has %s's sum: %v", a.Name, in)
		}
	}
}

func TestFrameworkImports(t *testing.T) {
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Skip(err)
	}
	dir := filepath.Join(strings.TrimSpace(string(goroot)), "src", "crypto", "x509", "internal", "macos")
	if _, err := os.Stat(dir); err != nil {
		t.Skip(err)
	}
	imports := map[string][]string{}
	if err := frameworkImports(dir, imports); err != nil {
		t.Fatal(err)
	}
	for lib, sym := range map[string]string{
		"/System/Library/Frameworks/CoreFoundation.framework/Versions/A/CoreFoundation": "_CFRelease",
		"/System/Library/Frameworks/Security.framework/Versions/A/Security":             "_SecCertificateCreateWithData",
	} {
		if !strings.Contains(strings.Join(imports[lib], " "), sym) {
			t.Errorf("frameworkImports(%s)[%s] = %v, want %s among them", dir, lib, imports[lib], sym)
		}
	}
	got := string(tbd("/System/Library/Frameworks/X.framework/Versions/A/X", []string{"_b", "_a"}))
	want := `--- !tapi-tbd
tbd-version: 4
targets: [ x86_64-macos, arm64-macos ]
install-name: '/System/Library/Frameworks/X.framework/Versions/A/X'
exports:
  - targets: [ x86_64-macos, arm64-macos ]
    symbols: [ _a, _b ]
...
`
	if got != want {
		t.Errorf("tbd (-want +got):\n%s", cmp.Diff(want, got))
	}
}

func TestParseTargets(t *testing.T) {
	got, err := parseTargets(defaultTargets)
	if err != nil || !cmp.Equal(got, supported, cmp.AllowUnexported(target{})) {
		t.Errorf("parseTargets(%q) = %v, %v, want %v", defaultTargets, got, err, supported)
	}
	for _, bad := range []string{"", "linux", "linux/386", "plan9/amd64", "linux/amd64,linux/amd64"} {
		if got, err := parseTargets(bad); err == nil {
			t.Errorf("parseTargets(%q) = %v, want an error", bad, got)
		}
	}
}

func TestStampOf(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	ctx := context.Background()
	dir := t.TempDir()
	git := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_DATE=2026-07-01T12:00:00Z", "GIT_COMMITTER_DATE=2026-07-01T12:00:00Z",
			"GIT_AUTHOR_NAME=a", "GIT_AUTHOR_EMAIL=a@example.com", "GIT_COMMITTER_NAME=a", "GIT_COMMITTER_EMAIL=a@example.com")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %s: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	git("init", "-q")
	if err := os.WriteFile(filepath.Join(dir, "f"), []byte("1"), 0o644); err != nil {
		t.Fatal(err)
	}
	git("add", "f")
	git("commit", "-qm", "one")
	hash := git("rev-parse", "HEAD")
	check := func(version string, want stamp) {
		t.Helper()
		got, err := stampOf(ctx, dir, version)
		if err != nil || got != want {
			t.Errorf("stampOf(%q) = %+v, %v, want %+v", version, got, err, want)
		}
	}
	check("", stamp{version: "v0.0.0-20260701120000-" + hash[:12], commit: hash, time: "2026-07-01T12:00:00Z"})
	git("tag", "v1.2.3")
	check("", stamp{version: "v1.2.3", commit: hash, time: "2026-07-01T12:00:00Z"})
	check("v1.3.0-rc.1", stamp{version: "v1.3.0-rc.1", commit: hash, time: "2026-07-01T12:00:00Z"})
	if err := os.WriteFile(filepath.Join(dir, "f"), []byte("2"), 0o644); err != nil {
		t.Fatal(err)
	}
	check("", stamp{version: "v1.2.3", commit: hash + "+dirty", time: "2026-07-01T12:00:00Z"})
	git("commit", "-qam", "two")
	hash2 := git("rev-parse", "HEAD")
	check("", stamp{version: "v1.2.4-0.20260701120000-" + hash2[:12], commit: hash2, time: "2026-07-01T12:00:00Z"})
}

// TestNpmPackages packs the npm packages of a fake release, installs
// the main one and the one for this platform from their tarballs, and
// runs repomap through the main one's bin script.
func TestNpmPackages(t *testing.T) {
	if testing.Short() {
		t.Skip("npm install takes seconds")
	}
	for _, tool := range []string{"npm", "node"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("no %s", tool)
		}
	}
	if runtime.GOOS == "windows" {
		t.Skip("the fake binaries are shell scripts")
	}
	targets := []target{host}
	if host != (target{"darwin", "arm64"}) {
		targets = append(targets, target{"darwin", "arm64"})
	}
	out := t.TempDir()
	built, archives := fakeRelease(t, out, targets...)
	rel := releaseInfo{Version: testStamp.version, Repo: "repomap-dev/repomap", Archives: archives}
	dir := filepath.Join(out, "npm")
	ctx := context.Background()
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "LICENSE"), []byte("LICENSE text\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var log strings.Builder
	if err := npmPackages(ctx, dir, root, "@repomap-test", rel, built, &log); err != nil {
		t.Fatalf("npmPackages: %v\n%s", err, log.String())
	}
	platform, arch := npmPlatform(host)
	mainTgz := filepath.Join(dir, "repomap-test-repomap-1.2.3.tgz")
	hostTgz := filepath.Join(dir, "repomap-test-repomap-"+platform+"-"+arch+"-1.2.3.tgz")
	prefix := t.TempDir()
	install := exec.Command("npm", "install", "--offline", "--no-audit", "--no-fund", "--prefix", prefix, hostTgz, mainTgz)
	if out, err := install.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", install, err, out)
	}
	bin := filepath.Join(prefix, "node_modules", ".bin", "repomap")
	got, err := exec.Command(bin, "version", "a b").Output()
	if want := "repomap v1.2.3 " + host.String() + " version a b\n"; err != nil || string(got) != want {
		t.Errorf("npm's repomap version: %q, %v, want %q", got, err, want)
	}
	err = exec.Command(bin, "fail").Run()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 3 {
		t.Errorf("npm's repomap fail: %v, want exit status 3", err)
	}
}

// TestBuildEnv checks that C is compiled with a signed char on Linux on
// arm64, whose C ABI makes it unsigned: tree-sitter-yaml's scanner
// returns -1 as a char and compares it with -1, and reads testdata/check
// differently with an unsigned char.
func TestBuildEnv(t *testing.T) {
	t.Setenv("CGO_CFLAGS", "")
	for _, tc := range []struct {
		target target
		want   string // CGO_CFLAGS, or "" for none set
	}{
		{target{"linux", "arm64"}, "CGO_CFLAGS=-O2 -g -fsigned-char"},
		{target{"linux", "amd64"}, ""},
		{target{"darwin", "arm64"}, ""}, // Apple's arm64 ABI has a signed char
		{target{"windows", "arm64"}, ""},
	} {
		var got string
		for _, kv := range buildEnv(tc.target, toolchain{cc: "cc"}) {
			if strings.HasPrefix(kv, "CGO_CFLAGS=") {
				got = kv
			}
		}
		if got != tc.want {
			t.Errorf("buildEnv(%s) sets %q, want %q", tc.target, got, tc.want)
		}
	}
	t.Setenv("CGO_CFLAGS", "-O1")
	if env := buildEnv(target{"linux", "arm64"}, toolchain{}); !slices.Contains(env, "CGO_CFLAGS=-O1 -fsigned-char") {
		t.Errorf("buildEnv(linux/arm64) with CGO_CFLAGS=-O1 = %q, want CGO_CFLAGS=-O1 -fsigned-char", env)
	}
}
