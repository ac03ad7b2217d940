package cli

import (
	"fmt"

	"github.com/git-context-tree/git-context-tree/internal/operations"
)

type initCmd struct {
	Dir       string `arg:"" optional:"" name:"dir" help:"Directory for the new tree (default: the current directory); created if missing."`
	Title     string `name:"title" placeholder:"<title>" help:"Title of the root node (default: from the directory name)."`
	NoConnect bool   `name:"no-connect" help:"Only write the tree; do not declare it in the project configuration."`
}

func (cmd *initCmd) Help() string {
	return `Writes a root NODE.md (document schemaVersion 1) with a starter body that
verifies clean. Refuses with exit 3, writing nothing, when the directory
already has a NODE.md.`
}

func (cmd *initCmd) Run(c *Context) error {
	res, err := operations.Init(c, c.Env, cmd.Dir, cmd.Title)
	if err != nil {
		return err
	}
	return c.emit(res, func() {
		fmt.Fprintf(c.Stdout, "Initialized Context Tree %q in %s\n", res.Title, c.display(res.Document))
	})
}
