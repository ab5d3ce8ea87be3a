package main

import (
	"cmp"
	"context"
	"flag"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
)

func helpCommand() *command {
	return &command{
		name:  "help",
		usage: "repomap help [COMMAND]",
		short: "print the manual of repomap or of a command",
		long: `
Help prints the manual of repomap, or of COMMAND. "repomap -h" and
"repomap COMMAND -h" do the same.`,
		flags: func(*flag.FlagSet, *config) {},
		run: func(ctx context.Context, e *env, c *config, args []string) int {
			switch {
			case len(args) == 0:
				printHelp(e.stdout, lookupCommand(""))
			case len(args) > 1:
				return e.usage("one COMMAND at most")
			case lookupCommand(args[0]) == nil:
				return e.usage(fmt.Sprintf("unknown command %q%s", args[0], commandHint(args[0])))
			default:
				printHelp(e.stdout, lookupCommand(args[0]))
			}
			return exitOK
		},
	}
}

// commandHint returns " (did you mean repomap C?)" when name is a near
// miss of command C, or "".
func commandHint(name string) string {
	var names []string
	for _, c := range commands()[1:] {
		names = append(names, c.name)
	}
	if near := nearest(name, names); near != "" {
		return fmt.Sprintf(" (did you mean repomap %s?)", near)
	}
	return ""
}

// printHelp writes the manual of cmd.
func printHelp(w io.Writer, cmd *command) {
	io.WriteString(w, helpText(cmd))
}

// helpText returns the manual of cmd: its synopsis, what it does, for
// repomap itself the commands, then its flags, and for repomap itself the
// exit statuses.
func helpText(cmd *command) string {
	var b strings.Builder
	b.WriteString(usageText(cmd))
	fmt.Fprintf(&b, "\n%s\n", strings.TrimSpace(cmd.long))
	if cmd.name == "" {
		b.WriteString("\n" + commandsText())
	}
	if f := flagsText(cmd); f != "" {
		b.WriteString("\n" + f)
	}
	if cmd.name == "bench" {
		b.WriteString("\n" + devFlagsText())
	}
	if cmd.name == "" {
		b.WriteString("\n" + exitText)
	}
	return b.String()
}

// usageText returns the synopsis of cmd.
func usageText(cmd *command) string {
	var b strings.Builder
	b.WriteString("Usage:\n\n")
	for line := range strings.Lines(cmd.usage) {
		fmt.Fprintf(&b, "\t%s\n", strings.TrimRight(line, "\n"))
	}
	return b.String()
}

// helpWidth is the width the flags' help is wrapped to.
const helpWidth = 80

// devFlags are the flags that measure repomap rather than use it, by
// command: the main help leaves them out, and "repomap help bench" lists
// them.
var devFlags = map[string][]string{
	"":      {"cpuprofile", "stats-json"},
	"bench": {"fault-run", "floor-run", "floor-threads"},
}

// isDevFlag reports whether the flag name of cmd is a developer flag.
func isDevFlag(cmd *command, name string) bool {
	return slices.Contains(devFlags[cmd.name], name)
}

// commandFlags returns the flags of cmd, registered on a new flag set.
func commandFlags(cmd *command) *flag.FlagSet {
	fl := flag.NewFlagSet(cmdName(cmd), flag.ContinueOnError)
	cmd.flags(fl, &config{})
	return fl
}

// flagsText returns the flags of cmd with what they do, or "".
func flagsText(cmd *command) string {
	text := flagList(commandFlags(cmd), func(name string) bool { return !isDevFlag(cmd, name) })
	if text == "" {
		return ""
	}
	return "Flags (a long one with one dash or two):\n\n" + text
}

// devFlagsText returns the developer flags of every command.
func devFlagsText() string {
	var b strings.Builder
	b.WriteString("Flags for measuring repomap, left out of the other help texts:\n\n")
	for _, name := range slices.Sorted(maps.Keys(devFlags)) {
		cmd := lookupCommand(name)
		fmt.Fprintf(&b, "  %s\n", cmdName(cmd))
		b.WriteString(flagList(commandFlags(cmd), func(name string) bool { return isDevFlag(cmd, name) }))
	}
	return b.String()
}

// flagList returns the flags of fl that keep selects, each with what it
// does: a flag and its other names ("-V, --version"), one-letter names
// with one dash and others with two, and the name of its value; then
// what it does, wrapped at word boundaries to helpWidth columns. Flags
// that share a value are other names of one flag.
func flagList(fl *flag.FlagSet, keep func(name string) bool) string {
	var b strings.Builder
	for _, names := range flagNames(fl) {
		if !keep(names[len(names)-1]) {
			continue
		}
		f := fl.Lookup(names[len(names)-1])
		value, usage := flag.UnquoteUsage(f)
		dashes := make([]string, len(names))
		for i, n := range names {
			dashes[i] = dashed(n)
		}
		b.WriteString("  " + strings.Join(dashes, ", "))
		if value != "" {
			b.WriteString(" " + value)
		}
		b.WriteByte('\n')
		if f.DefValue != "" && f.DefValue != "0" && f.DefValue != "false" && f.DefValue != "[]" {
			def := f.DefValue
			if g, ok := f.Value.(flag.Getter); ok {
				if _, isString := g.Get().(string); isString {
					def = strconv.Quote(def)
				}
			}
			usage += " (default " + def + ")"
		}
		b.WriteString(wrap(usage, "        ", helpWidth))
	}
	return b.String()
}

// flagNames returns the names of fl's flags, grouped by the flag they
// name: the flags that share a value, shortest name first; groups in the
// order of their longest names.
func flagNames(fl *flag.FlagSet) [][]string {
	var groups [][]string
	byValue := map[flag.Value]int{}
	fl.VisitAll(func(f *flag.Flag) {
		if i, ok := byValue[f.Value]; ok {
			groups[i] = append(groups[i], f.Name)
			return
		}
		byValue[f.Value] = len(groups)
		groups = append(groups, []string{f.Name})
	})
	for _, g := range groups {
		slices.SortStableFunc(g, func(a, b string) int { return cmp.Compare(len(a), len(b)) })
	}
	slices.SortFunc(groups, func(a, b []string) int { return strings.Compare(a[len(a)-1], b[len(b)-1]) })
	return groups
}

// alias registers short as another name of the flag long of fl.
func alias(fl *flag.FlagSet, short, long string) {
	fl.Var(fl.Lookup(long).Value, short, "another name of --"+long)
}

// wrap returns text in lines of at most width columns, each after
// indent, broken at spaces; a word longer than a line has a line of its
// own.
func wrap(text, indent string, width int) string {
	var b strings.Builder
	line := 0
	for _, w := range strings.Fields(text) {
		n := len([]rune(w))
		switch {
		case line == 0:
			b.WriteString(indent + w)
			line = len(indent) + n
		case line+1+n > width:
			b.WriteString("\n" + indent + w)
			line = len(indent) + n
		default:
			b.WriteString(" " + w)
			line += 1 + n
		}
	}
	if line > 0 {
		b.WriteByte('\n')
	}
	return b.String()
}

// commandsText returns the list of commands.
func commandsText() string {
	var b strings.Builder
	b.WriteString("Commands:\n\n")
	for _, c := range commands()[1:] {
		fmt.Fprintf(&b, "\t%-10s %s\n", c.name, c.short)
	}
	b.WriteString("\nRun 'repomap help COMMAND' for the manual of a command.\n")
	return b.String()
}

const exitText = `Exit status:

	0    success
	1    failure: a root that cannot be read, a focus file that is not in
	     the tree, an output that cannot be written…
	2    usage error: unknown flag or command, a bad value, missing or
	     extra arguments
	130  interrupted (SIGINT, Ctrl-C); 143 for SIGTERM
`
