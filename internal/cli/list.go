package cli

import (
	"fmt"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/operations"
)

type listCmd struct{}

func (cmd *listCmd) Help() string {
	return `Lists every source the project declares: short selector, exact selector,
kind and identity (aligned under a header on a terminal, tab-separated
without one in a pipe). Either selector names the source in other commands; a
short selector shared by several sources is ambiguous.`
}

func (cmd *listCmd) Run(c *Context) error {
	res, err := operations.List(c, c.Env)
	if err != nil {
		return err
	}
	return c.emit(res, func() {
		if !res.Project.Exists {
			fmt.Fprintf(c.Stderr, "no %s in %s; declare a tree with `git context-tree connect <dir>`\n", contracts.ConfigFile, c.display(res.Project.Root))
		}
		t := c.newTable("SELECTOR", "KIND", "EXACT SELECTOR", "SOURCE")
		for _, conn := range res.Connections {
			s := conn.Source
			identity := s.Path
			if s.Kind == contracts.SourceGit {
				identity = fmt.Sprintf("%s ref=%s path=%s", s.Repository, s.Ref, s.Path)
			}
			t.add(quote(conn.Selector), string(s.Kind), quote(conn.Exact), quote(identity))
		}
		t.print()
	})
}
