package main

import (
	"context"
	"flag"
	"runtime"
	"runtime/debug"
	"strings"

	"golang.org/x/mod/module"
)

func versionCommand() *command {
	return &command{
		name:  "version",
		usage: "repomap version",
		short: "print repomap's version",
		long: `
Version prints repomap's version, the commit it was built from and when,
the Go version that built it, and the platform it runs on:

	repomap v0.3.0 (commit 4f1c2e9a7b3d, 2026-07-01T12:00:00Z) go1.26.8 linux/amd64

A release build has them stamped in by its build. A binary that
"go install github.com/repomap-dev/repomap/cmd/repomap@VERSION" built
takes them from the module's build information: VERSION, and the commit
of a pseudo-version. A build in a git clone takes them from git: a tag's
version or a pseudo-version, "+dirty" when the clone had changes, and the
commit's hash and time. A build without them says "(devel)" and leaves
out what it does not know. "repomap --version" and "repomap -V" do the
same.`,
		flags: func(*flag.FlagSet, *config) {},
		run: func(ctx context.Context, e *env, c *config, args []string) int {
			if len(args) > 0 {
				return e.usage("no arguments wanted")
			}
			return write(e, versionLine())
		},
	}
}

// Stamped by a release build with the linker's -X flag:
//
//	go build -ldflags "-X main.buildVersion=v0.3.0 -X main.buildCommit=… -X main.buildTime=…"
var (
	buildVersion string // the release's tag, as v0.3.0
	buildCommit  string // the full hash of the commit built
	buildTime    string // the commit's time, RFC 3339
)

// A buildStamp is what repomap knows of the build that made it.
type buildStamp struct {
	version string // "(devel)" when unknown
	commit  string // "" when unknown; may end in "+dirty"
	time    string // "" when unknown
}

// stamp returns the build's stamp: the values set with -X, and where
// they are empty, those of the module's build information bi (nil when
// the binary has none).
func stamp(bi *debug.BuildInfo) buildStamp {
	var s buildStamp
	var settings = map[string]string{}
	if bi != nil {
		s.version = bi.Main.Version
		for _, kv := range bi.Settings {
			settings[kv.Key] = kv.Value
		}
	}
	if s.version == "" {
		s.version = "(devel)"
	}
	s.commit = settings["vcs.revision"]
	if s.commit != "" && settings["vcs.modified"] == "true" {
		s.commit += "+dirty"
	}
	s.time = settings["vcs.time"]
	if s.commit == "" {
		// go install module@version builds from the module's zip, with no
		// VCS: a pseudo-version (v0.0.0-20260701120000-4f1c2e9a7b3d) ends
		// in the commit's hash.
		s.commit, _ = module.PseudoVersionRev(s.version)
	}
	if buildVersion != "" {
		s.version = buildVersion
	}
	if buildCommit != "" {
		s.commit = buildCommit
	}
	if buildTime != "" {
		s.time = buildTime
	}
	return s
}

// line returns the version line: the version, then the commit and its
// time in parentheses when known, the Go version and the platform.
func (s buildStamp) line(goVersion, goos, goarch string) string {
	var b strings.Builder
	b.WriteString("repomap " + s.version)
	if s.commit != "" {
		commit := s.commit
		if hash, dirty, _ := strings.Cut(commit, "+"); len(hash) > 12 {
			commit = hash[:12]
			if dirty != "" {
				commit += "+" + dirty
			}
		}
		b.WriteString(" (commit " + commit)
		if s.time != "" {
			b.WriteString(", " + s.time)
		}
		b.WriteString(")")
	}
	b.WriteString(" " + goVersion + " " + goos + "/" + goarch + "\n")
	return b.String()
}

// buildInfo returns the binary's build information, or nil.
func buildInfo() *debug.BuildInfo {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return nil
	}
	return bi
}

// version returns repomap's version: the release's, the module's, or
// "(devel)".
func version() string { return stamp(buildInfo()).version }

func versionLine() string {
	return stamp(buildInfo()).line(runtime.Version(), runtime.GOOS, runtime.GOARCH)
}
