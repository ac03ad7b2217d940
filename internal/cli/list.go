package cli

import (
	"fmt"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/operations"
)

type listCmd struct{}

func (cmd *listCmd) Help() string {
	return `Lists every source the project declares, one a line: short selector, kind,
exact selector, identity and subtree selector (a git source's repository
name and subtree, such as handbook/teams/platform; "-" for a directory or a
repository's root), aligned under a header on a terminal, tab-separated
without one in a pipe. Any of the selectors names the source in other
commands; a short or subtree selector shared by several sources is
ambiguous, and the exact selector always works.`
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
		t := c.newTable("SELECTOR", "KIND", "EXACT SELECTOR", "SOURCE", "SUBTREE SELECTOR")
		for _, conn := range res.Connections {
			s := conn.Source
			identity := s.Path
			if s.Kind == contracts.SourceGit {
				identity = fmt.Sprintf("%s ref=%s path=%s", s.Repository, s.Ref, s.Path)
			}
			subtree := "-"
			if conn.SubtreeSelector != "" {
				subtree = quote(conn.SubtreeSelector)
			}
			t.add(quote(conn.Selector), string(s.Kind), quote(conn.Exact), quote(identity), subtree)
		}
		t.print()
	})
}
