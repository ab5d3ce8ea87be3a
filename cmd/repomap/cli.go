package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"
)

// A command is repomap or one of its subcommands.
type command struct {
	name  string // "" for the map itself
	usage string // the synopsis, one line per form
	short string // what it does, for the list of commands
	long  string // the manual: what it does, its arguments and output
	// flags registers the command's flags on fl, bound to c.
	flags func(fl *flag.FlagSet, c *config)
	run   func(ctx context.Context, e *env, c *config, args []string) int
}

// env is where a command reads and writes.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	cmd            *command // the command running
	// cause returns why the command's context ended, or nil.
	cause func() error
	// progress shows how far a long scan is, or is nil.
	progress *progress
}

// Exit statuses.
const (
	exitOK      = 0
	exitFailure = 1
	exitUsage   = 2
)

// commands returns every command, the map first.
func commands() []*command {
	return []*command{mapCommand(), defsCommand(), refsCommand(), relatedCommand(), graphCommand(), languagesCommand(), mcpCommand(), cacheCommand(), evalCommand(), benchCommand(), versionCommand(), completionCommand(), helpCommand()}
}

// lookupCommand returns the command named name ("" for the map), or nil.
func lookupCommand(name string) *command {
	for _, c := range commands() {
		if c.name == name {
			return c
		}
	}
	return nil
}

// run is the command: it parses args, writes its output to stdout and
// diagnostics to stderr, and returns the exit status.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	cmd := lookupCommand("")
	if len(args) > 0 && args[0] != "" {
		if c := lookupCommand(args[0]); c != nil {
			cmd, args = c, args[1:]
		}
	}
	e := &env{
		stdin: os.Stdin, stdout: stdout, stderr: stderr, cmd: cmd,
		cause:    func() error { return context.Cause(ctx) },
		progress: progressTo(stderr),
	}
	c := &config{}
	fl := flag.NewFlagSet(cmdName(cmd), flag.ContinueOnError)
	fl.SetOutput(io.Discard) // errors are reported below
	fl.BoolVar(&c.help, "h", false, "print this help")
	fl.BoolVar(&c.help, "help", false, "print this help")
	cmd.flags(fl, c)
	rest, err := parse(fl, args)
	if err != nil {
		return e.usage(flagError(fl, err))
	}
	c.set = make(map[string]bool)
	fl.Visit(func(f *flag.Flag) { c.set[f.Name] = true })
	if c.help {
		printHelp(e.stdout, cmd)
		return exitOK
	}
	return cmd.run(ctx, e, c, rest)
}

func cmdName(cmd *command) string {
	if cmd.name == "" {
		return "repomap"
	}
	return "repomap " + cmd.name
}

// parse parses args with fl, letting flags come after the arguments too
// ("repomap defs Render -format json"), up to a "--", and returns the
// arguments.
func parse(fl *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fl.Parse(args); err != nil {
			return nil, err
		}
		rest := fl.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		if used := len(args) - len(rest); used > 0 && args[used-1] == "--" {
			return append(pos, rest...), nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// flagError returns the message of err, an error of fl.Parse, in our
// words rather than package flag's: the flag named as the help names it,
// what its value should be, and for an unknown flag the flag meant if the
// name is a near miss.
func flagError(fl *flag.FlagSet, err error) string {
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "flag provided but not defined: -"); ok {
		var names []string
		fl.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
		msg := "unknown flag " + dashed(name)
		if near := nearest(name, names); near != "" {
			msg += fmt.Sprintf(" (did you mean %s?)", dashed(near))
		}
		return msg
	}
	if name, ok := strings.CutPrefix(msg, "flag needs an argument: -"); ok {
		return fmt.Sprintf("%s needs a value: %s", dashed(name), flagSynopsis(fl.Lookup(name)))
	}
	// "invalid value %q for flag -%s: %v", "invalid boolean value %q for -%s: %v"
	if rest, ok := strings.CutPrefix(msg, "invalid "); ok {
		_, rest, _ = strings.Cut(rest, "value ")
		value, rest, _ := strings.Cut(rest, " for ")
		rest = strings.TrimPrefix(rest, "flag ")
		name, cause, _ := strings.Cut(strings.TrimPrefix(rest, "-"), ": ")
		if f := fl.Lookup(name); f != nil {
			return fmt.Sprintf("%s takes %s, not %s%s", dashed(name), valueKind(f), value, causeText(cause))
		}
	}
	return msg
}

// dashed returns the flag named name as the help writes it: "-o" for a
// one-letter name, "--tokens" for a longer one.
func dashed(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

// flagSynopsis returns how f is written with its value: "--tokens
// tokens", "-o file".
func flagSynopsis(f *flag.Flag) string {
	if f == nil {
		return ""
	}
	s := dashed(f.Name)
	if value, _ := flag.UnquoteUsage(f); value != "" {
		s += " " + value
	}
	return s
}

// valueKind says what values f takes: "a whole number", "true or
// false", or its synopsis.
func valueKind(f *flag.Flag) string {
	if g, ok := f.Value.(flag.Getter); ok {
		switch g.Get().(type) {
		case int, int64, uint, uint64:
			return "a whole number"
		case bool:
			return "true or false"
		case float64:
			return "a number"
		case time.Duration:
			return "a duration such as 5s"
		}
	}
	return "a value as in " + flagSynopsis(f)
}

// causeText returns why package flag refused a value, when it says more
// than that the value did not parse.
func causeText(cause string) string {
	if strings.HasSuffix(cause, "value out of range") {
		return " (out of range)"
	}
	return ""
}

// nearest returns the word of words nearest to w, if it is near enough
// to be a typing mistake: at most two edits away and fewer than half of
// w's letters, or w is a prefix of it. It returns "" otherwise.
func nearest(w string, words []string) string {
	best, bestD := "", 3
	for _, c := range words {
		d := editDistance(w, c)
		if len(w) >= 3 && strings.HasPrefix(c, w) {
			d = min(d, 1)
		}
		if d < bestD && 2*d < len(w)+1 {
			best, bestD = c, d
		}
	}
	return best
}

// editDistance returns the Levenshtein distance of a and b, in bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// usage reports a usage error of the command running and returns
// exitUsage.
func (e *env) usage(msg string) int {
	fmt.Fprintf(e.stderr, "repomap: %s\n", msg)
	fmt.Fprintf(e.stderr, "usage: %s\n", strings.ReplaceAll(e.cmd.usage, "\n", "\n       "))
	if e.cmd.name == "help" {
		fmt.Fprintln(e.stderr, "Run 'repomap help' for the list of commands.")
	} else {
		fmt.Fprintf(e.stderr, "Run '%s -h' for help.\n", cmdName(e.cmd))
	}
	return exitUsage
}

// interrupt is the cause of a context that a signal ended.
type interrupt struct {
	sig  os.Signal
	code int // the exit status: 128 + the signal's number
}

func (i interrupt) Error() string { return "interrupted by " + i.sig.String() }

// fail reports a failure and returns exitFailure; a failure because a
// signal ended the command reports "interrupted" and returns the
// signal's status.
func fail(e *env, err error) int {
	e.progress.clear()
	var sig interrupt
	if errors.Is(err, context.Canceled) && e.cause != nil && errors.As(e.cause(), &sig) {
		fmt.Fprintln(e.stderr, "repomap: interrupted")
		return sig.code
	}
	msg := err.Error()
	if !strings.HasPrefix(msg, "repomap: ") {
		msg = "repomap: " + msg
	}
	fmt.Fprintln(e.stderr, msg)
	return exitFailure
}

// write writes s to standard output.
func write(e *env, s string) int {
	if _, err := io.WriteString(e.stdout, s); err != nil {
		return fail(e, err)
	}
	return exitOK
}
