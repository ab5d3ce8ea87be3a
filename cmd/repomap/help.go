package main

import (
	"context"
	"flag"
	"fmt"
	"io"
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

// helpText returns the manual of cmd: its synopsis, what it does, its
// flags, and for repomap itself the commands and the exit statuses.
func helpText(cmd *command) string {
	var b strings.Builder
	b.WriteString(usageText(cmd))
	fmt.Fprintf(&b, "\n%s\n", strings.TrimSpace(cmd.long))
	if cmd.raw != nil {
		fmt.Fprintf(&b, "\nRun '%s -h' for its flags.\n", cmdName(cmd))
		return b.String()
	}
	if f := flagsText(cmd); f != "" {
		b.WriteString("\n" + f)
	}
	if cmd.name == "" {
		b.WriteString("\n" + commandsText())
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

// flagsText returns the flags of cmd with what they do, or "": each flag
// with two dashes and the name of its value, then what it does, wrapped
// at word boundaries to helpWidth columns. A flag with no usage is an
// alias that another flag's usage names, and is left out.
func flagsText(cmd *command) string {
	fl := flag.NewFlagSet(cmdName(cmd), flag.ContinueOnError)
	cmd.flags(fl, &config{})
	var b strings.Builder
	fl.VisitAll(func(f *flag.Flag) {
		if f.Usage == "" {
			return
		}
		value, usage := flag.UnquoteUsage(f)
		fmt.Fprintf(&b, "  --%s", f.Name)
		if value != "" {
			b.WriteString(" " + value)
		}
		b.WriteByte('\n')
		if f.DefValue != "" && f.DefValue != "0" && f.DefValue != "false" && f.DefValue != "[]" {
			usage += fmt.Sprintf(" (default %q)", f.DefValue)
		}
		b.WriteString(wrap(usage, "        ", helpWidth))
	})
	if b.Len() == 0 {
		return ""
	}
	return "Flags (with one dash or two):\n\n" + b.String()
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
