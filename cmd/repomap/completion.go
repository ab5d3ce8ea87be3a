package main

import (
	"context"
	"flag"
	"fmt"
	"strings"

	"github.com/repomap-dev/repomap/repomap"
)

func completionCommand() *command {
	return &command{
		name:  "completion",
		usage: "repomap completion bash|zsh|fish",
		short: "print a shell's completion script for repomap",
		long: `
Completion prints a script that completes repomap's commands, flags and
flag values in the shell named: bash, zsh or fish. The script is made from
the same tables as this help, so it knows every command and flag of this
build.

To load it in every new shell:

	bash  add 'source <(repomap completion bash)' to ~/.bashrc
	zsh   repomap completion zsh > "${fpath[1]}/_repomap"
	      (or add 'source <(repomap completion zsh)' to ~/.zshrc after
	      compinit)
	fish  repomap completion fish > ~/.config/fish/completions/repomap.fish`,
		flags: func(*flag.FlagSet, *config) {},
		run: func(ctx context.Context, e *env, c *config, args []string) int {
			if len(args) != 1 {
				return e.usage("name one shell: bash, zsh or fish")
			}
			script, ok := completionScripts[args[0]]
			if !ok {
				return e.usage(fmt.Sprintf("unknown shell %q (want bash, zsh or fish)", args[0]))
			}
			return write(e, script(completionSpecs()))
		},
	}
}

// completionScripts make the completion script of each shell.
var completionScripts = map[string]func([]cmdSpec) string{
	"bash": bashCompletion,
	"zsh":  zshCompletion,
	"fish": fishCompletion,
}

// What a command's arguments or a flag's value are, for completion.
const (
	argNone     = ""         // nothing to offer
	argAny      = "any"      // a flag's value, with nothing to offer
	argDirs     = "dirs"     // directories
	argFiles    = "files"    // files
	argCommands = "commands" // repomap's commands
)

// commandArgs says what the arguments of each command are; a new command
// needs a line here (TestCompletionCoversCommands).
var commandArgs = map[string]string{
	"":           argDirs,
	"defs":       argNone,
	"refs":       argNone,
	"related":    argFiles,
	"graph":      argDirs,
	"languages":  argNone,
	"mcp":        argDirs,
	"cache":      "path list prune clean",
	"eval":       argDirs,
	"bench":      argDirs,
	"version":    argNone,
	"help":       argCommands,
	"completion": "bash zsh fish",
}

// flagChoices are the values of the flags that take one of a few words.
var flagChoices = map[string][]string{
	"encoding": {repomap.O200kBase, repomap.Cl100kBase},
	"ranking":  {repomap.RankingDefault, repomap.RankingAider},
	"refresh":  {"auto", "always", "files", "manual"},
	"style":    {repomap.StyleCompact, repomap.StyleAider},
}

// A cmdSpec is what completion knows of a command.
type cmdSpec struct {
	name  string // "" for the map
	short string
	args  string // argDirs, argFiles, argCommands, argNone, or words
	flags []flagSpec
}

// A flagSpec is what completion knows of a flag.
type flagSpec struct {
	names []string // shortest first, without dashes
	usage string
	value string // "" for a flag without a value, else argDirs, argFiles, argAny or words
}

// completionSpecs returns what completion knows of every command, the
// map first, in the order of commands(): its arguments and the flags its
// help lists.
func completionSpecs() []cmdSpec {
	var specs []cmdSpec
	for _, cmd := range commands() {
		c := &config{}
		fl := flag.NewFlagSet(cmdName(cmd), flag.ContinueOnError)
		cmd.flags(fl, c)
		spec := cmdSpec{name: cmd.name, short: cmd.short, args: commandArgs[cmd.name]}
		if spec.args == argCommands {
			var names []string
			for _, c := range commands()[1:] {
				names = append(names, c.name)
			}
			spec.args = strings.Join(names, " ")
		}
		for _, names := range flagNames(fl) {
			long := names[len(names)-1]
			if isDevFlag(cmd, long) {
				continue
			}
			f := fl.Lookup(long)
			value, usage := flag.UnquoteUsage(f)
			fs := flagSpec{names: names, usage: firstClause(usage)}
			if b, ok := f.Value.(interface{ IsBoolFlag() bool }); !ok || !b.IsBoolFlag() {
				fs.value = flagValue(long, value, c)
			}
			spec.flags = append(spec.flags, fs)
		}
		specs = append(specs, spec)
	}
	return specs
}

// flagValue says what the value of the flag name is, whose value the help
// calls value; c holds what the command's flags registered.
func flagValue(name, value string, c *config) string {
	switch {
	case name == "format" && len(c.formats) > 0:
		return strings.Join(c.formats, " ")
	case flagChoices[name] != nil && value == "string":
		return strings.Join(flagChoices[name], " ")
	case value == "dir" || value == "directory":
		return argDirs
	case value == "file":
		return argFiles
	}
	return argAny
}

// firstClause returns the start of a flag's help, up to its first
// comma, colon, semicolon or parenthesis: a short description for the
// shells that show one.
func firstClause(usage string) string {
	if i := strings.IndexAny(usage, ",;:("); i > 0 {
		usage = usage[:i]
	}
	return strings.TrimSpace(usage)
}

// dashedAll returns every name of f as it is written.
func (f flagSpec) dashedAll() []string {
	out := make([]string, len(f.names))
	for i, n := range f.names {
		out[i] = dashed(n)
	}
	return out
}

// A dialect is how bash or zsh says the parts of a completion script
// that differ; the script's logic is the same in both.
type dialect struct {
	head    string // the script up to the case of the command word
	cmdWord string // the command word
	reply   func(kind string) string
	offer   func(words string) string // offers the words
	mapArgs func(cmds string) string  // the map's arguments: directories, and the commands first
	tail    string
}

var bashDialect = dialect{
	head: `# bash completion for repomap: source <(repomap completion bash)
_repomap() {
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} cmd= flag
    if [[ $prev == = && $COMP_CWORD -ge 2 ]]; then
        prev=${COMP_WORDS[COMP_CWORD-2]}
    fi
    if [[ $COMP_CWORD -ge 2 ]]; then
        case ${COMP_WORDS[1]} in
`,
	cmdWord: "${COMP_WORDS[1]}",
	reply:   bashReply,
	offer:   bashOffer,
	mapArgs: func(cmds string) string {
		return fmt.Sprintf(`COMPREPLY=($(compgen -d -- "$cur")); [[ $COMP_CWORD -eq 1 ]] && COMPREPLY+=($(compgen -W '%s' -- "$cur"))`, cmds)
	},
	tail: "complete -o filenames -F _repomap repomap\n",
}

var zshDialect = dialect{
	head: `#compdef repomap
# zsh completion for repomap: repomap completion zsh > "${fpath[1]}/_repomap"
_repomap() {
    local cur=${words[CURRENT]} prev=${words[CURRENT-1]} cmd= flag
    if (( CURRENT > 2 )); then
        case ${words[2]} in
`,
	cmdWord: "${words[2]}",
	reply:   zshReply,
	offer:   func(words string) string { return "compadd -- " + words },
	mapArgs: func(cmds string) string { return "(( CURRENT == 2 )) && compadd -- " + cmds + "; _files -/" },
	tail: `if [[ $zsh_eval_context[-1] == loadautofunc ]]; then
    _repomap "$@"
else
    compdef _repomap repomap
fi
`,
}

func bashCompletion(specs []cmdSpec) string { return shCompletion(bashDialect, specs) }
func zshCompletion(specs []cmdSpec) string  { return shCompletion(zshDialect, specs) }

// shCompletion returns the completion script of the shell d speaks: it
// finds the command, then offers the values of the flag before the word,
// or the command's flags, or its arguments.
func shCompletion(d dialect, specs []cmdSpec) string {
	var b strings.Builder
	b.WriteString(d.head)
	var names []string
	for _, s := range specs[1:] {
		names = append(names, s.name)
	}
	fmt.Fprintf(&b, "        %s) cmd=%s ;;\n", strings.Join(names, "|"), d.cmdWord)
	b.WriteString(`        esac
    fi
    flag=${prev#-}
    flag=${flag#-}
    if [[ $prev == -* ]]; then
        case "$cmd:$flag" in
`)
	for _, s := range specs {
		for _, f := range s.flags {
			if f.value == "" {
				continue
			}
			var keys []string
			for _, n := range f.names {
				keys = append(keys, s.name+":"+n)
			}
			fmt.Fprintf(&b, "        %s) %s; return ;;\n", strings.Join(keys, "|"), d.reply(f.value))
		}
	}
	b.WriteString(`        esac
    fi
    if [[ $cur == -* ]]; then
        case $cmd in
`)
	for _, s := range specs {
		var all []string
		for _, f := range s.flags {
			all = append(all, f.dashedAll()...)
		}
		fmt.Fprintf(&b, "        %s) %s ;;\n", caseName(s.name), d.offer(strings.Join(all, " ")))
	}
	b.WriteString(`        esac
        return
    fi
    case $cmd in
`)
	for _, s := range specs {
		reply := d.reply(s.args)
		if s.name == "" {
			reply = d.mapArgs(strings.Join(names, " "))
		}
		fmt.Fprintf(&b, "        %s) %s ;;\n", caseName(s.name), reply)
	}
	b.WriteString("    esac\n}\n")
	b.WriteString(d.tail)
	return b.String()
}

// caseName returns the case pattern of command name: an empty string,
// quoted, for the map.
func caseName(name string) string {
	if name == "" {
		return "''"
	}
	return name
}

// bashReply returns the bash statement that offers what kind names.
func bashReply(kind string) string {
	switch kind {
	case argNone, argAny:
		return "COMPREPLY=()"
	case argDirs:
		return `COMPREPLY=($(compgen -d -- "$cur"))`
	case argFiles:
		return `COMPREPLY=($(compgen -f -- "$cur"))`
	}
	return bashOffer(kind)
}

// bashOffer returns the bash statement that offers the words.
func bashOffer(words string) string {
	return fmt.Sprintf(`COMPREPLY=($(compgen -W '%s' -- "$cur"))`, words)
}

// zshReply returns the zsh statement that offers what kind names.
func zshReply(kind string) string {
	switch kind {
	case argNone, argAny:
		return ":"
	case argDirs:
		return "_files -/"
	case argFiles:
		return "_files"
	}
	return "compadd -- " + kind
}

// fishCompletion returns the fish completion script.
func fishCompletion(specs []cmdSpec) string {
	var b strings.Builder
	b.WriteString("# fish completion for repomap: repomap completion fish > ~/.config/fish/completions/repomap.fish\n")
	b.WriteString("complete -c repomap -f\n")
	var names []string
	for _, s := range specs[1:] {
		names = append(names, s.name)
	}
	noCommand := "not __fish_seen_subcommand_from " + strings.Join(names, " ")
	for _, s := range specs[1:] {
		fmt.Fprintf(&b, "complete -c repomap -n '__fish_use_subcommand' -a %s -d %s\n", s.name, fishQuote(s.short))
	}
	b.WriteString("complete -c repomap -n '__fish_use_subcommand' -a '(__fish_complete_directories)'\n")
	for _, s := range specs {
		cond := noCommand
		if s.name != "" {
			cond = "__fish_seen_subcommand_from " + s.name
			switch s.args {
			case argNone:
			case argDirs:
				fmt.Fprintf(&b, "complete -c repomap -n '%s' -a '(__fish_complete_directories)'\n", cond)
			case argFiles:
				fmt.Fprintf(&b, "complete -c repomap -n '%s' -F\n", cond)
			default:
				fmt.Fprintf(&b, "complete -c repomap -n '%s' -a %s\n", cond, fishQuote(s.args))
			}
		}
		for _, f := range s.flags {
			fmt.Fprintf(&b, "complete -c repomap -n '%s'", cond)
			for _, n := range f.names {
				if len(n) == 1 {
					fmt.Fprintf(&b, " -s %s", n)
				} else {
					fmt.Fprintf(&b, " -l %s", n)
				}
			}
			switch f.value {
			case "":
			case argAny:
				b.WriteString(" -x")
			case argDirs:
				b.WriteString(" -x -a '(__fish_complete_directories)'")
			case argFiles:
				b.WriteString(" -r -F")
			default:
				fmt.Fprintf(&b, " -x -a %s", fishQuote(f.value))
			}
			fmt.Fprintf(&b, " -d %s\n", fishQuote(f.usage))
		}
	}
	return b.String()
}

// fishQuote returns s in single quotes for fish.
func fishQuote(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
}
