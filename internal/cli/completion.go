package cli

import (
	_ "embed"
	"fmt"
	"io"
	"strings"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/adapters/git"
	"github.com/git-context-tree/git-context-tree/internal/adapters/state"
	"github.com/git-context-tree/git-context-tree/internal/operations"
)

// The completion scripts: thin shell functions that ask the binary
// (__complete) for candidates.
var (
	//go:embed completion.bash
	bashCompletion string
	//go:embed completion.zsh
	zshCompletion string
	//go:embed completion.fish
	fishCompletion string
)

// CompletionScript is the completion script for a shell (bash, zsh,
// fish), and false for another.
func CompletionScript(shell string) (string, bool) {
	switch shell {
	case "bash":
		return bashCompletion, true
	case "zsh":
		return zshCompletion, true
	case "fish":
		return fishCompletion, true
	}
	return "", false
}

type completionCmd struct {
	Shell string `arg:"" name:"shell" enum:"bash,zsh,fish" help:"The shell: bash, zsh or fish."`
}

func (*completionCmd) selfContained() {}

func (cmd *completionCmd) Help() string {
	return `Prints the shell's completion script. It completes commands, subcommands and
flags, the selectors of the project's declared trees, write-session ids,
cleanup run and schedule ids, eval run ids and schema names, asking the
binary for them on each <TAB>.

  bash   source <(git context-tree completion bash)
         (or save it as ~/.local/share/bash-completion/completions/git-context-tree;
         git context-tree <TAB> works through git's own completion)
  zsh    source <(git context-tree completion zsh)
         (or save it as _git-context-tree in a directory of $fpath)
  fish   git context-tree completion fish | source
         (or save it as ~/.config/fish/completions/git-context-tree.fish)`
}

func (cmd *completionCmd) Run(c *Context) error {
	script, ok := CompletionScript(cmd.Shell)
	if !ok {
		return contracts.Errorf(contracts.CodeUsage, "no completion for the shell %q (bash, zsh, fish)", cmd.Shell)
	}
	res := contracts.CompletionResult{SchemaVersion: contracts.CLIVersion, Shell: cmd.Shell, Script: script}
	return c.emit(res, func() { io.WriteString(c.Stdout, script) })
}

// completeCmd is what the scripts run on each <TAB>: the candidates for
// the last word, one a line. It never fails: what it cannot read it
// does not offer.
type completeCmd struct {
	Describe bool     `name:"describe" help:"Follow each command and flag with a tab and its help (zsh, fish)."`
	Words    []string `arg:"" optional:"" passthrough:"" name:"words" help:"The words after the program's name; the last is the word being completed."`
}

func (*completeCmd) selfContained() {}

func (cmd *completeCmd) Run(c *Context) error {
	var all commands
	parser, err := newParser(&all, io.Discard, io.Discard, func(int) {})
	if err != nil {
		return nil
	}
	words := cmd.Words
	if len(words) > 0 && words[0] == "--" {
		words = words[1:]
	}
	for _, cand := range completeArgs(parser.Model.Node, words, c.Env.Dir, completionSourcesFor(c)) {
		if cmd.Describe && cand.Help != "" {
			fmt.Fprintf(c.Stdout, "%s\t%s\n", cand.Word, strings.Join(strings.Fields(cand.Help), " "))
		} else {
			fmt.Fprintln(c.Stdout, cand.Word)
		}
	}
	return nil
}

// completionSourcesFor reads the candidates from the project (selectors)
// and this machine's state (ids), as the command would.
func completionSourcesFor(c *Context) completionSources {
	src := completionSources{Schemas: contracts.SchemaNames}
	src.Selectors = func(dir string) []string {
		return operations.CompletionSelectors(c, operations.Env{Dir: dir, Vars: c.Env.Vars, Git: git.New(c.Env.Vars)})
	}
	home, err := state.Locate(c.Env.Vars, c.Env.Dir)
	if err != nil {
		return src
	}
	src.Sessions = func() []string { return operations.CompletionSessionIDs(home) }
	src.CleanupRuns = func() []string { return operations.CompletionCleanupRunIDs(home) }
	src.Schedules = func() []string { return operations.CompletionScheduleIDs(home) }
	src.EvalRuns = func() []string { return operations.CompletionEvalRunIDs(home) }
	return src
}
