package cli

import (
	"fmt"
	"os"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/operations"
)

type manCmd struct {
	Install bool   `name:"install" help:"Install the man page where man finds it, so that git context-tree --help opens it."`
	Dir     string `name:"man-dir" placeholder:"<dir>" help:"With --install: the man directory (the page goes to <dir>/man1). Default: <prefix>/share/man beside <prefix>/bin/git-context-tree, else ~/.local/share/man."`
}

func (cmd *manCmd) Help() string {
	return `git runs "man git-context-tree" for "git context-tree --help". Without
flags this prints the page (roff: git context-tree man | man -l -). --install
writes it to <prefix>/share/man/man1 beside the binary, which man searches
whenever <prefix>/bin is on PATH, and says so when man would not find it.`
}

func (cmd *manCmd) Run(c *Context) error {
	if !cmd.Install {
		if cmd.Dir != "" {
			return contracts.Errorf(contracts.CodeUsage, "--man-dir needs --install")
		}
		res := operations.ManPage()
		return c.emit(res, func() { fmt.Fprint(c.Stdout, res.Page) })
	}
	exe, _ := os.Executable()
	res, err := operations.ManInstall(c.Env.Dir, cmd.Dir, exe, c.Env.Vars.Get)
	if err != nil {
		return err
	}
	return c.emit(res, func() {
		fmt.Fprintf(c.Stdout, "%s %s\n", res.Action, quote(res.Path))
		if res.Hint != "" {
			fmt.Fprintf(c.Stderr, "warning: %s\n", res.Hint)
		}
	})
}
