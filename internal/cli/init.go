package cli

import (
	"fmt"

	"github.com/git-context-tree/git-context-tree/internal/operations"
)

type initCmd struct {
	Dir       string `arg:"" optional:"" name:"dir" help:"Directory for the new tree (default: the current directory); created if missing."`
	Title     string `name:"title" placeholder:"<title>" help:"Title of the root node (default: from the directory name)."`
	NoConnect bool   `name:"no-connect" help:"Only write the tree; do not declare it in .context-tree.json."`
}

func (cmd *initCmd) Help() string {
	return `Writes a root NODE.md (document schemaVersion 1) with a starter body that
verifies clean, then declares the directory in the project's
.context-tree.json (created at the project root if absent). Refuses with
exit 3, writing nothing, when the directory already has a NODE.md.`
}

func (cmd *initCmd) Run(c *Context) error {
	res, err := operations.Init(c, c.Env, operations.InitRequest{Dir: cmd.Dir, Title: cmd.Title, NoConnect: cmd.NoConnect})
	if err != nil {
		return err
	}
	return c.emit(res, func() {
		fmt.Fprintf(c.Stdout, "Initialized Context Tree %q in %s\n", res.Title, c.display(res.Document))
		if res.Connected {
			fmt.Fprintf(c.Stdout, "Declared it in the project configuration (see `git context-tree list`)\n")
		}
	})
}
