package cli

import (
	"fmt"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/operations"
)

type resolveCmd struct {
	Selector string `arg:"" optional:"" name:"selector" help:"A declared source (default: all)."`
}

func (cmd *resolveCmd) Help() string {
	return `Resolves declared sources without touching the network: the real content
root and, when it lies in a git checkout, the repository root, the
repository-relative subtree, the branch (or detached), HEAD and whether the
subtree has uncommitted changes. Exit 1 when a source could not be resolved.`
}

func (cmd *resolveCmd) Run(c *Context) error {
	res, err := operations.Resolve(c, c.Env, cmd.Selector)
	if err != nil {
		return err
	}
	return c.report(res, func() { c.printResolve(res) })
}

func (c *Context) printResolve(res *contracts.ResolveResult) {
	for _, r := range res.Resolutions {
		c.warnStale(r.Connection.Exact, r.Head, r.Staleness)
	}
	if isTerminal(c.Stdout) {
		c.printResolveTable(res)
		return
	}
	for _, r := range res.Resolutions {
		if !r.OK {
			fmt.Fprintf(c.Stdout, "%s\terror %s: %s\n", quote(r.Connection.Exact), r.Error.Code, r.Error.Message)
			continue
		}
		line := fmt.Sprintf("%s\t%s", quote(r.Connection.Exact), quote(r.ContentRoot))
		if r.RepositoryRoot != "" {
			branch, head, state := resolvedState(r)
			line += fmt.Sprintf("\trepo=%s subtree=%s branch=%s head=%s %s", quote(r.RepositoryRoot), quote(r.Subtree), quote(branch), head, state)
		}
		fmt.Fprintln(c.Stdout, line)
	}
}

// printResolveTable is resolve on a terminal: one column per fact.
func (c *Context) printResolveTable(res *contracts.ResolveResult) {
	t := c.newTable("TREE", "CONTENT ROOT", "REPOSITORY", "SUBTREE", "BRANCH", "HEAD", "STATE")
	for _, r := range res.Resolutions {
		switch {
		case !r.OK:
			t.add(quote(r.Connection.Exact), fmt.Sprintf("error %s: %s", r.Error.Code, r.Error.Message), "", "", "", "", "")
		case r.RepositoryRoot == "":
			t.add(quote(r.Connection.Exact), quote(r.ContentRoot), "-", "-", "-", "-", "-")
		default:
			branch, head, state := resolvedState(r)
			t.add(quote(r.Connection.Exact), quote(r.ContentRoot), quote(r.RepositoryRoot), quote(r.Subtree), quote(branch), head, state)
		}
	}
	t.print()
}

// resolvedState is a resolution's branch, HEAD and cleanliness as text. A
// snapshot, detached, shows the branch it was taken from.
func resolvedState(r contracts.Resolution) (branch, head, state string) {
	branch = r.Branch
	if r.Detached && branch == "" {
		branch = "(detached)"
	}
	state = "clean"
	if *r.Dirty {
		state = "dirty"
	}
	head = r.Head
	if head == "" {
		head = "(no commits)"
	}
	return branch, head, state
}
