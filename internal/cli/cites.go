package cli

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/operations/agenthooks"
	"github.com/git-context-tree/git-context-tree/internal/operations/evidence"
)

type citesCmd struct {
	Paths      []string `arg:"" optional:"" name:"path" help:"Code paths, each path, path:N or path:N-M (relative to the current directory or the repository root)."`
	Repository string   `name:"repository" placeholder:"<selector>" help:"The paths are of this declared git source's repository, not the project's."`
	Trees      []string `name:"tree" placeholder:"<selector-or-dir>" help:"Search only this tree (repeatable; default: as verify chooses)."`
	Hook       string   `name:"hook" placeholder:"<host>" enum:",claude-code" default:"" help:"Answer an agent host's file-read hook (claude-code): its JSON on stdin, context on stdout, never an error."`
}

func (cmd *citesCmd) Help() string {
	return `Lists the documents of the declared trees whose sources (the frontmatter
"sources" list) cite the given code paths, or with :N-M a line range that
overlaps the cited one, and whether each citation is still true:
  payments/webhook.md "Webhook handling": src/pay/webhook.go:12-40 fresh
"fresh" means no commit since the one the entry records changed the cited
lines; "changed" names the commits that did (as drift does), "unstamped"
entries record no commit, "unavailable" ones name a repository that is not
synced. A file renamed since it was cited is found under its new name.
Answered from an index of each tree's citations kept in git's directory
(built on first use, keyed by the tree's object id). Exit 0, also when
nothing cites the paths.

With --hook claude-code it is the PostToolUse hook that
git context-tree agent-hooks install claude-code installs: it reads the
host's JSON on stdin and prints the citing documents as additional context
for the agent, nothing when none cites the file, and always exits 0.`
}

func (cmd *citesCmd) Run(c *Context) error {
	if cmd.Hook != "" {
		return cmd.runHook(c)
	}
	rep, err := evidence.Cites(c, c.Env, evidence.CitesRequest{Paths: cmd.Paths, Repository: cmd.Repository, Trees: cmd.Trees})
	if err != nil {
		return err
	}
	return c.emit(rep, func() { c.printCites(rep) })
}

func (c *Context) printCites(rep *contracts.CitesReport) {
	for _, d := range rep.Documents {
		loc := c.display(filepath.Join(d.Tree.Root, filepath.FromSlash(d.Path)))
		for _, ct := range d.Citations {
			fmt.Fprintf(c.Stdout, "%s %q: %s\n", loc, d.Title, citationLine(ct))
		}
	}
	asked := make([]string, len(rep.Queries))
	for i, q := range rep.Queries {
		asked[i] = queryName(q)
	}
	what := strings.Join(asked, ", ")
	if len(rep.Documents) == 0 {
		fmt.Fprintf(c.Stderr, "no document of %d %s cites %s\n", len(rep.Trees), plural(len(rep.Trees), "tree"), what)
		return
	}
	verb := "cite"
	if len(rep.Documents) == 1 {
		verb = "cites"
	}
	fmt.Fprintf(c.Stderr, "%d %s %s %s\n", len(rep.Documents), plural(len(rep.Documents), "document"), verb, what)
}

func queryName(q contracts.CitesQuery) string {
	s := q.Path
	if q.Lines != "" {
		s += ":" + q.Lines
	}
	if q.Repository != "" {
		s = q.Repository + ":" + s
	}
	return quote(s)
}

// citationLine is one citation in words, as drift words its entries
// ("fresh since 1a2b3c4", "changed since … by 2 commits: …").
func citationLine(ct contracts.Citation) string {
	return driftLine(contracts.DriftSource{Index: ct.Index, Path: ct.Path, Lines: ct.Lines, Repository: ct.Repository, Status: ct.Freshness,
		Since: ct.Commit, Commits: ct.Commits, CurrentPath: ct.CurrentPath, CurrentLines: ct.CurrentLines, Message: ct.Message})
}

// runHook answers an agent host's hook: the context JSON on stdout, or
// nothing at all. It never fails: an error would fail the agent's tool
// call, and a broken setup must not stop the agent's work.
func (cmd *citesCmd) runHook(c *Context) error {
	out, err := agenthooks.Answer(c, c.Env, c.Stdin)
	if err == nil && len(out) > 0 {
		fmt.Fprintf(c.Stdout, "%s\n", out)
	}
	return nil
}
