package cli

import (
	"fmt"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/operations"
	"github.com/git-context-tree/git-context-tree/internal/operations/hooks"
)

type initCmd struct {
	Dir          string `arg:"" optional:"" name:"dir" help:"Directory for the tree (default: the current directory); created if missing, adopted if it has content."`
	Title        string `name:"title" placeholder:"<title>" help:"Title of the root node (default: the directory name as written)."`
	NoConnect    bool   `name:"no-connect" help:"Only write the tree; do not declare it in .context-tree.json."`
	AllowInvalid bool   `name:"allow-invalid" help:"Exit 0 even if the tree does not verify (its findings are still reported)."`
}

func (cmd *initCmd) Help() string {
	return `Makes a directory a declared Context Tree. An empty or new directory gets a
root NODE.md (document schemaVersion 1) with a starter body; a folder that
already holds Markdown gets a root NODE.md listing its content; a directory
that has a NODE.md is adopted as it is. The tree is then declared in the
project's .context-tree.json (created at the project root if absent) and
verified. Findings (a folder of plain Markdown has many) are reported with
exit 1 (0 with --allow-invalid), and the commands to run next are printed:
git context-tree fix repairs what is mechanical, then git add, hooks
install, commit. Refuses with exit 3, writing nothing, when the directory
has a NODE.md and --title or --no-connect is given, and, without a
directory, at the root of a git repository holding code
(INIT_REPOSITORY_ROOT: it would adopt the whole repository; the message
names the folder of Markdown to init instead, and init . adopts the root
anyway).`
}

func (cmd *initCmd) Run(c *Context) error {
	res, err := operations.Init(c, c.Env, operations.InitRequest{Dir: cmd.Dir, Title: cmd.Title, NoConnect: cmd.NoConnect})
	if err != nil {
		return err
	}
	if res.Connected {
		res.Next = append(res.Next, hooks.GitSteps(c, c.Env, res.Root)...)
	}
	err = c.emit(res, func() {
		if res.Created {
			fmt.Fprintf(c.Stdout, "Initialized Context Tree %q in %s\n", res.Title, c.display(res.Document))
		} else {
			fmt.Fprintf(c.Stdout, "Adopted the tree in %s (its NODE.md is kept as it is)\n", c.display(res.Root))
		}
		if res.Connected {
			fmt.Fprintf(c.Stdout, "Declared it in the project configuration (see `git context-tree list`)\n")
		}
		for _, f := range res.Findings {
			fmt.Fprintln(c.Stdout, c.findingLine(res.Root, f))
		}
		if !res.OK {
			fmt.Fprintf(c.Stderr, "%s does not verify yet: %d %s\n", c.display(res.Root), len(res.Findings), plural(len(res.Findings), "finding"))
		}
		c.printNext(res.Next)
	})
	if err == nil && !res.OK && !cmd.AllowInvalid {
		return exitStatus(contracts.ExitFailed)
	}
	return err
}

// printNext ends a command's text output with the commands to run next,
// one a line with why, on stderr.
func (c *Context) printNext(steps []contracts.NextStep) {
	if len(steps) == 0 {
		return
	}
	width := 0
	for _, s := range steps {
		width = max(width, len(s.Command))
	}
	fmt.Fprintln(c.Stderr, "Next:")
	for _, s := range steps {
		fmt.Fprintf(c.Stderr, "  %-*s  # %s\n", width, s.Command, s.Reason)
	}
}
