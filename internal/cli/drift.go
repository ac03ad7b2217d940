package cli

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/annotations"
	"github.com/git-context-tree/git-context-tree/internal/operations/evidence"
)

type driftCmd struct {
	Trees []string `arg:"" optional:"" name:"selector-or-dir" help:"Declared sources or tree directories (default: as verify chooses)."`
	Since string   `name:"since" placeholder:"REV" help:"Compare every entry from this revision instead of the commit the entry records."`
	reviewFormat
}

func (cmd *driftCmd) Help() string {
	return `Lists the documents whose cited sources (the frontmatter "sources" list)
changed between the commit each entry records (or --since) and the head of
its repository: the file, or with lines the cited line range carried
through every commit's hunks, renames followed. Each drifted entry is shown
with where its code is now and the commits that changed it, one line each:
  doc.md: src/api.go:12-40 changed since 1a2b3c4 (now src/api.go:14-44) by 1 commit: 9f8e7d6
Entries without a commit ("unstamped"), with an unknown one, or naming a
repository that is not synced are listed too. After re-reading the code,
git context-tree evidence stamp <doc> records the new commit and digest.
With --format github each drifted entry is a GitHub Actions annotation on
the cited code's current lines (a warning; entries that cannot be compared
are notices on the document), with --format sarif a SARIF 2.1.0 log: run it
on a pull request with --since <base> (contrib/github-actions/
context-tree-drift.yml). Exit 0 when nothing drifted, 1 when something did
(changed, deleted, an unknown commit, an unavailable repository); unstamped
entries are listed and counted apart and do not fail the check.`
}

func (cmd *driftCmd) Run(c *Context) error {
	annotated, err := cmd.annotated(c)
	if err != nil {
		return err
	}
	rep, err := evidence.Drift(c, c.Env, cmd.Trees, cmd.Since)
	if err != nil {
		return err
	}
	if annotated {
		return cmd.writeAnnotations(c, rep, func(top string) []annotations.Annotation { return annotations.FromDrift(rep, top) })
	}
	return c.report(rep, func() { c.printDrift(rep) })
}

func (c *Context) printDrift(rep *contracts.DriftReport) {
	for _, t := range rep.Trees {
		for _, f := range t.Findings {
			fmt.Fprintln(c.Stdout, c.findingLine(t.Root, f))
		}
		drifted := map[bool]int{} // documents with a drifted (false) or unstamped (true) entry
		for _, d := range t.Documents {
			loc := c.display(filepath.Join(t.Root, filepath.FromSlash(d.Path)))
			seen := map[bool]bool{}
			for _, s := range d.Sources {
				fmt.Fprintf(c.Stdout, "%s: %s\n", loc, driftLine(s))
				seen[s.Status == contracts.DriftUnstamped] = true
			}
			for k := range seen {
				drifted[k]++
			}
		}
		status := "nothing drifted"
		if n := t.Count(false); n > 0 {
			status = fmt.Sprintf("%d drifted in %d %s", n, drifted[false], plural(drifted[false], "document"))
		}
		if n := t.Count(true); n > 0 {
			status += fmt.Sprintf(", %d unstamped in %d %s (git context-tree evidence stamp <doc>)", n, drifted[true], plural(drifted[true], "document"))
		}
		fmt.Fprintf(c.Stderr, "%s: %d %s cited: %s\n", c.display(t.Root), t.Sources, plural(t.Sources, "source"), status)
	}
}

// driftLine is one drifted entry in words.
func driftLine(s contracts.DriftSource) string {
	cited := s.Cited()
	var b strings.Builder
	b.WriteString(cited + " " + s.Status)
	if s.Since != "" {
		b.WriteString(" since " + short(s.Since))
	}
	if s.CurrentPath != "" && (s.CurrentPath != s.Path || s.CurrentLines != s.Lines) {
		now := s.CurrentPath
		if s.CurrentLines != "" {
			now += ":" + s.CurrentLines
		}
		b.WriteString(" (now " + now + ")")
	}
	if len(s.Commits) > 0 {
		ids := make([]string, len(s.Commits))
		for i, id := range s.Commits {
			ids[i] = short(id)
		}
		fmt.Fprintf(&b, " by %d %s: %s", len(ids), plural(len(ids), "commit"), strings.Join(ids, " "))
	}
	if s.Message != "" {
		b.WriteString("; " + s.Message)
	}
	return b.String()
}
