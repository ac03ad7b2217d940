package cli

import (
	"fmt"
	"strings"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/operations"
)

type readCmd struct {
	Node string `arg:"" optional:"" name:"node" help:"Tree-relative path of a directory or Markdown document (default: the root); inside the tree, a path relative to the current directory works too."`
	Tree string `name:"tree" placeholder:"<dir>" help:"The tree to read (default: the tree at or above the current directory)."`
}

func (cmd *readCmd) Help() string {
	return `Prints one node's title, description, soft links and body, and a summary of
each immediate child (subdirectories and Markdown documents). A directory and
its NODE.md name the same node. Soft links are listed, never expanded. Reads
refuse symlinks, paths outside the tree, infrastructure and non-Markdown files.
From a directory inside the tree, a node beginning with ./ or ../ is
relative to that directory, and any other node is tree-relative when it
exists there, else relative to the current directory.`
}

func (cmd *readCmd) Run(c *Context) error {
	res, err := operations.Read(c, c.Env, cmd.Node, cmd.Tree)
	if err != nil {
		return err
	}
	return c.emit(res, func() {
		c.warnStale(res.Tree.Selector, res.Tree.Head, res.Tree.Staleness)
		c.printRead(res)
	})
}

// warnStale says on stderr that a git source is served from its last
// good commit because its newest one does not verify.
func (c *Context) warnStale(selector, head string, s contracts.Staleness) {
	if !s.Stale {
		return
	}
	fmt.Fprintf(c.Stderr, "warning: %s is served from %.12s, the last commit that verified: the newest fetched commit %.12s does not verify (%d finding(s); `git context-tree verify %s` lists them)\n",
		selector, head, s.RejectedCommit, s.Findings, selector)
}

func (c *Context) printRead(r *contracts.ReadResult) {
	n := r.Node
	w := c.Stdout
	fmt.Fprintf(w, "%s  (%s %s, %s)\n", quote(n.Title), n.Kind, quote(n.Path), n.Class)
	if r.Tree.Head != "" {
		state := "clean"
		if r.Tree.Dirty != nil && *r.Tree.Dirty {
			state = "with uncommitted changes"
		}
		fmt.Fprintf(w, "tree %s at %s, %s\n", c.display(r.Tree.Root), r.Tree.Head, state)
	}
	if n.Description != "" {
		fmt.Fprintf(w, "%s\n", n.Description)
	}
	for _, s := range n.SoftLinks {
		fmt.Fprintf(w, "see also: %s\n", quote(s))
	}
	for _, s := range n.Sources {
		fmt.Fprintf(w, "source: %s\n", sourceLine(s))
	}
	for _, f := range n.Findings {
		fmt.Fprintln(w, c.findingLine(r.Tree.Root, f))
	}
	body := strings.TrimLeft(n.Body, "\r\n")
	fmt.Fprintf(w, "\n%s", body)
	if body != "" && !strings.HasSuffix(body, "\n") {
		fmt.Fprintln(w)
	}
	if len(r.Children) == 0 {
		return
	}
	fmt.Fprintln(w, "\nchildren:")
	for _, ch := range r.Children {
		name := ch.Path
		if ch.Kind == contracts.KindDirectory {
			name += "/"
		}
		line := fmt.Sprintf("  %-28s %s", quote(name), quote(ch.Title))
		if ch.Description != "" {
			line += " - " + quote(ch.Description)
		}
		if ch.Class == contracts.ClassMember {
			line += " [member]"
		}
		for _, f := range ch.Findings {
			line += fmt.Sprintf(" [%s]", f.Code)
		}
		fmt.Fprintln(w, line)
	}
}

// sourceLine is an evidence entry as read prints it:
// "[repository:]path[:lines] at <commit>".
func sourceLine(s contracts.EvidenceSource) string {
	cited := quote(s.Path)
	if s.Lines != "" {
		cited += ":" + s.Lines
	}
	if s.Repository != "" {
		cited = quote(s.Repository) + ":" + cited
	}
	if s.Commit != "" {
		cited += " at " + short(s.Commit)
	}
	return cited
}
