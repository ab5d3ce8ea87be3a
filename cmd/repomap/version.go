package main

import (
	"context"
	"flag"
	"runtime/debug"
)

func versionCommand() *command {
	return &command{
		name:  "version",
		usage: "repomap version",
		short: "print repomap's version",
		long: `
Version prints repomap's version: the version of the module it was built
from, or "(devel)" for a build from a working tree. "repomap --version"
does the same.`,
		flags: func(*flag.FlagSet, *config) {},
		run: func(ctx context.Context, e *env, c *config, args []string) int {
			if len(args) > 0 {
				return e.usage("no arguments wanted")
			}
			return write(e, versionLine())
		},
	}
}

// version returns the version of the main module, or "(devel)".
func version() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		return bi.Main.Version
	}
	return "(devel)"
}

func versionLine() string { return "repomap " + version() + "\n" }
