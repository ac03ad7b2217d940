package cli

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/operations"
	"github.com/git-context-tree/git-context-tree/internal/operations/hooks"
)

type fixCmd struct {
	Tree  string `arg:"" optional:"" name:"selector-or-dir" help:"A declared source or a directory (default: every declared directory tree, else the tree at or above the current directory)."`
	Write bool   `name:"write" help:"Apply the repairs (each file atomically) instead of printing them as a diff."`
}

func (cmd *fixCmd) Help() string {
	return `Repairs what is mechanical in a tree, and prints the repairs as a unified
diff (on stdout, for git apply or patch -p1 from the current directory)
unless --write applies them:
  - a directory without NODE.md gets one, titled after the directory and
    listing its children with their titles (the root's with schemaVersion 1);
  - a document without frontmatter gets one, its title from the first
    level-1 heading, else from the file name; its body is kept byte for byte;
  - a root NODE.md without schemaVersion gets schemaVersion: 1, and a
    document without title gets one the same way;
  - a soft link written relative to the document is rewritten from the tree
    root when that names a document or indexed directory;
  - a misspelt description key (desc, descripton, Description) is renamed
    when it is the only candidate.
Every other byte is kept: unknown fields, key order, comments, quoting.
Symlinks, hard-linked files, infrastructure and files git ignores are never
touched. A second run changes nothing. What fix cannot repair is listed.

Exit 0 when nothing remains to repair by hand once the repairs are made
(a diff may still be printed: run with --write), 1 when findings remain,
3 when a file changed while fix was planning (nothing written).`
}

func (cmd *fixCmd) Run(c *Context) error {
	res, err := operations.Fix(c, c.Env, operations.FixRequest{Target: cmd.Tree, Write: cmd.Write})
	if err != nil {
		return err
	}
	if !cmd.Write && anyChange(res) {
		res.Next = append(res.Next, contracts.NextStep{Command: "git context-tree fix" + argWord(cmd.Tree) + " --write", Reason: "make these repairs"})
	}
	if !res.OK {
		// What fix cannot repair comes before committing: the hook would
		// reject the commit.
		res.Next = append(res.Next, contracts.NextStep{Command: "git context-tree verify" + argWord(cmd.Tree),
			Reason: "repair the findings above by hand, then check the tree"})
	}
	if cmd.Write {
		var roots []string
		for _, t := range res.Trees {
			if len(t.Changes) > 0 {
				roots = append(roots, t.Root)
			}
		}
		if len(roots) > 0 {
			res.Next = append(res.Next, hooks.GitSteps(c, c.Env, roots...)...)
		}
	}
	return c.report(res, func() { c.printFix(res) })
}

func anyChange(res *contracts.FixResult) bool {
	for _, t := range res.Trees {
		if len(t.Changes) > 0 {
			return true
		}
	}
	return false
}

// argWord is the command's argument as the user passes it again, or "".
func argWord(arg string) string {
	if arg == "" {
		return ""
	}
	if strings.Trim(arg, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./-+@%:,=") == "" {
		return " " + arg
	}
	return " '" + strings.ReplaceAll(arg, "'", `'\''`) + "'"
}

func (c *Context) printFix(res *contracts.FixResult) {
	for _, t := range res.Trees {
		repairs := 0
		for _, ch := range t.Changes {
			repairs += len(ch.Repairs)
			if res.Written {
				fmt.Fprintf(c.Stdout, "%sd %s\n", ch.Action, c.display(filepath.Join(t.Root, filepath.FromSlash(ch.Path))))
			} else {
				fmt.Fprint(c.Stdout, c.relabel(t.Root, ch))
			}
		}
		for _, p := range t.Skipped {
			fmt.Fprintf(c.Stderr, "skipped %s: git ignores it\n", c.display(filepath.Join(t.Root, filepath.FromSlash(p))))
		}
		for _, f := range t.Remaining {
			fmt.Fprintln(c.Stderr, c.findingLine(t.Root, f))
		}
		verb := "would make"
		if res.Written {
			verb = "made"
		}
		status := "nothing left to repair by hand"
		switch {
		case len(t.Remaining) > 0:
			status = fmt.Sprintf("%d %s fix cannot repair (above)", len(t.Remaining), plural(len(t.Remaining), "finding"))
		case t.LinkFindings > 0:
			// Broken links leave a tree valid, but they are still the
			// reader's to repair: never "nothing left".
			status = fmt.Sprintf("%d %s to repair by hand (verify --links lists them)", t.LinkFindings, plural(t.LinkFindings, "link"))
		case !res.Written && len(t.Changes) > 0:
			// Links are counted in the files as fix leaves them, which a
			// dry run has not written: claim only what verify finds.
			status = "nothing else verify finds"
		}
		if len(t.Changes) == 0 {
			if len(t.Remaining) == 0 && t.LinkFindings == 0 {
				status = "nothing to repair"
			}
			fmt.Fprintf(c.Stderr, "%s: %s\n", c.display(t.Root), status)
			continue
		}
		fmt.Fprintf(c.Stderr, "%s: fix %s %d %s in %d %s; %s\n", c.display(t.Root), verb,
			repairs, plural(repairs, "repair"), len(t.Changes), plural(len(t.Changes), "file"), status)
	}
	c.printNext(res.Next)
}

// relabel gives a change's diff the paths of its file as seen from the
// current directory, so git apply and patch -p1 work from there.
func (c *Context) relabel(root string, ch contracts.FixChange) string {
	shown := c.display(filepath.Join(root, filepath.FromSlash(ch.Path)))
	if filepath.IsAbs(shown) || strings.HasPrefix(shown, "..") || strings.ContainsAny(shown, "\t\n") {
		return ch.Diff
	}
	shown = filepath.ToSlash(shown)
	d := strings.Replace(ch.Diff, "+++ b/"+ch.Path+"\n", "+++ b/"+shown+"\n", 1)
	return strings.Replace(d, "--- a/"+ch.Path+"\n", "--- a/"+shown+"\n", 1)
}
