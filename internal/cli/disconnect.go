package cli

import "github.com/git-context-tree/git-context-tree/internal/operations"

type disconnectCmd struct {
	Selector string `arg:"" name:"selector" help:"Short or exact selector of a declared source (see list)."`
}

func (cmd *disconnectCmd) Help() string {
	return `Removes one declaration from .context-tree.json. Nothing else is touched:
the tree's files, caches, snapshots, write sessions and schedules stay.`
}

func (cmd *disconnectCmd) Run(c *Context) error {
	res, err := operations.Disconnect(c, c.Env, cmd.Selector)
	if err != nil {
		return err
	}
	return c.emit(res, func() { c.printChange(res, "disconnected", "") })
}
