package main

import (
	"context"
	"flag"
	"fmt"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/repomap-dev/repomap/tags"
)

func languagesCommand() *command {
	return &command{
		name:  "languages",
		usage: "repomap languages [flags]",
		short: "print the languages repomap reads",
		long: `
Languages prints a table of the languages repomap reads: each language's
name, its tier, the file extensions and names that are in it, and
whether its tags have definitions and references. Tier 1 languages are
parsed with a tree-sitter grammar and a tags query; tier 2 languages are
read with a lexer, which finds fewer kinds of definitions.

Files in other languages are listed in the map by name only. Where one
extension is shared by several languages, a file's content decides, as
the notes under the table say.`,
		flags: func(fl *flag.FlagSet, c *config) {
			c.formatFlag(fl, formatText, formatMarkdown)
		},
		run: func(ctx context.Context, e *env, c *config, args []string) int {
			if msg := c.check(formatText, formatMarkdown); msg != "" {
				return e.usage(msg)
			}
			if len(args) > 0 {
				return e.usage("no arguments wanted")
			}
			if c.format == formatMarkdown {
				return write(e, languagesMarkdown(tags.Languages()))
			}
			var b strings.Builder
			tw := tabwriter.NewWriter(&b, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "LANGUAGE\tTIER\tEXTENSIONS\tDEFS\tREFS")
			for _, l := range tags.Languages() {
				fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\n", l.Name, l.Tier, strings.Join(fileKinds(l), " "), yesNo(l.Defs), yesNo(l.Refs))
			}
			tw.Flush()
			b.WriteString("\n* A file's content decides its language:\n")
			for _, s := range sharedExts {
				b.WriteString(wrap(s.ext+": "+s.rule, "  ", helpWidth))
			}
			return write(e, b.String())
		},
	}
}

// A sharedExt is an extension that several languages share, whose
// language the head of a file decides (tags.Detect).
type sharedExt struct {
	ext   string   // with the dot
	langs []string // the languages it may be
	rule  string   // what decides, for the notes under the table
}

// sharedExts are the extensions whose language a file's content
// decides; TestSharedExts checks the rules against tags.Detect.
var sharedExts = []sharedExt{
	{".h", []string{"c", "cpp", "objectivec"}, `Objective-C when a line of the file's first 64 KB starts with @interface, @implementation, @protocol, @end, @property, @class, @import or #import; else C++ when they hold a namespace, a template, a class with a body, public:, private: or protected:, a :: scope or extern "C"; else C.`},
	{".m", []string{"objectivec", "matlab"}, "Objective-C with the marks of Objective-C above; else MATLAB."},
}

// fileKinds returns the extensions and the file names of language l,
// with the extensions it shares with other languages marked "*".
func fileKinds(l tags.Language) []string {
	out := slices.Clone(l.Extensions)
	for _, s := range sharedExts {
		if !slices.Contains(s.langs, l.Name) {
			continue
		}
		if i := slices.Index(out, s.ext); i >= 0 {
			out[i] += "*"
		} else {
			out = append(out, s.ext+"*")
		}
	}
	return append(out, l.Files...)
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// languagesMarkdown returns the languages as a Markdown table, after a
// sentence that counts them.
func languagesMarkdown(langs []tags.Language) string {
	tier := [3]int{}
	for _, l := range langs {
		tier[l.Tier]++
	}
	var b strings.Builder
	fmt.Fprintf(&b, "repomap reads %d languages: %d with a tree-sitter grammar and a tags query (tier 1), %d with a lexer (tier 2).\n\n", len(langs), tier[1], tier[2])
	b.WriteString("| language | tier | files | definitions | references |\n| --- | --- | --- | --- | --- |\n")
	for _, l := range langs {
		var fs []string
		for _, f := range fileKinds(l) {
			fs = append(fs, "`"+f+"`")
		}
		fmt.Fprintf(&b, "| %s | %d | %s | %s | %s |\n", l.Name, l.Tier, strings.Join(fs, " "), yesNo(l.Defs), yesNo(l.Refs))
	}
	b.WriteString("\n\\* A file's content decides its language:\n\n")
	for _, s := range sharedExts {
		fmt.Fprintf(&b, "- `%s`: %s\n", s.ext, s.rule)
	}
	return b.String()
}
