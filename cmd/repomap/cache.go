package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/repomap-dev/repomap/cache"
)

func cacheCommand() *command {
	var all bool
	return &command{
		name:  "cache",
		usage: "repomap cache path\nrepomap cache list\nrepomap cache prune\nrepomap cache clean [flags] ROOT...\nrepomap cache clean --all",
		short: "show or clean the tag caches",
		long: `
Cache shows and cleans the tag caches: one database per root ever mapped,
in the cache directory (--cache-dir, by default the user's cache directory
followed by /repomap). Nothing of repomap's is kept anywhere else, and
removing a cache only makes the next map of its root parse every file.

	path   print the cache directory
	list   list the databases: when each was last used, its size, and its
	       root, least recently used first, then their number and size
	prune  remove the databases not used for 90 days, then the least
	       recently used ones while all of them are larger than 1 GiB
	clean  remove the cache of each ROOT, or with --all every cache

A database that another repomap process is using is left in place.`,
		flags: func(fl *flag.FlagSet, c *config) {
			fl.StringVar(&c.cacheDir, "cache-dir", "", "the cache directory, `dir` (default: the user's cache directory, …/repomap)")
			fl.BoolVar(&all, "all", false, "with clean: remove every cache")
		},
		run: func(ctx context.Context, e *env, c *config, args []string) int {
			if len(args) == 0 {
				return e.usage("a subcommand is wanted: path, list, prune or clean")
			}
			sub, args := args[0], args[1:]
			if all && sub != "clean" {
				return e.usage("--all goes with clean only")
			}
			dir := c.cacheDir
			if dir == "" {
				d, err := cache.DefaultDir()
				if err != nil {
					return fail(e, err)
				}
				dir = d
			}
			switch sub {
			case "path", "list", "prune":
				if len(args) > 0 {
					return e.usage("no arguments wanted after " + sub)
				}
			case "clean":
				if all == (len(args) > 0) {
					return e.usage("clean wants ROOT... or --all")
				}
			default:
				return e.usage(fmt.Sprintf("unknown subcommand %q (want path, list, prune or clean)", sub))
			}
			switch {
			case sub == "path":
				return write(e, dir+"\n")
			case sub == "list":
				dbs, err := cache.List(dir)
				if err != nil {
					return fail(e, err)
				}
				return write(e, listText(dir, dbs))
			case sub == "prune":
				removed, err := cache.Prune(dir, nil)
				return removedText(e, removed, err)
			case all:
				removed, err := cache.RemoveAll(dir)
				return removedText(e, removed, err)
			}
			code := exitOK
			for _, root := range args {
				abs, err := filepath.Abs(root)
				if err != nil {
					return fail(e, err)
				}
				switch ok, err := cache.Remove(dir, abs); {
				case errors.Is(err, cache.ErrLocked):
					code = fail(e, fmt.Errorf("the cache of %s is in use by another process", abs))
				case err != nil:
					code = fail(e, err)
				case !ok:
					code = fail(e, fmt.Errorf("no cache of %s in %s", abs, dir))
				default:
					fmt.Fprintf(e.stdout, "removed the cache of %s\n", abs)
				}
			}
			return code
		},
	}
}

// listText returns the table of the databases in dir.
func listText(dir string, dbs []cache.DB) string {
	var b strings.Builder
	tw := tabwriter.NewWriter(&b, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "LAST USE\tSIZE\tROOT")
	var total int64
	for _, db := range dbs {
		total += db.Size
		root := db.Root
		switch {
		case db.Corrupt:
			root = "(damaged, moved aside) " + filepath.Base(db.Path)
		case root == "":
			root = "(in use or unreadable) " + filepath.Base(db.Path)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\n", db.LastUse.Local().Format(time.DateTime), byteSize(db.Size), root)
	}
	tw.Flush()
	fmt.Fprintf(&b, "%s, %s, in %s\n", plural(len(dbs), "database"), byteSize(total), dir)
	return b.String()
}

// removedText writes what a prune or a clean removed, and reports err.
func removedText(e *env, removed []cache.DB, err error) int {
	var size int64
	for _, db := range removed {
		size += db.Size
	}
	fmt.Fprintf(e.stdout, "removed %s, %s\n", plural(len(removed), "database"), byteSize(size))
	if err != nil {
		return fail(e, err)
	}
	return exitOK
}

// byteSize returns n bytes in the largest unit that keeps a number of at
// least 1: "512 B", "37.2 MB".
func byteSize(n int64) string {
	const unit = 1000
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	f, i := float64(n), -1
	for f >= unit && i < 3 {
		f /= unit
		i++
	}
	return fmt.Sprintf("%.1f %cB", f, "kMGT"[i])
}
