package cli

import (
	"fmt"
	"time"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/operations"
)

type syncCmd struct {
	Selectors []string `arg:"" optional:"" name:"selector" help:"Declared sources to sync (default: all)."`
	Offline   bool     `name:"offline" help:"Use cached branches only; never touch the network."`
	Prune     bool     `name:"prune" help:"Then remove the synced repositories' old snapshots, as gc does."`
}

func (cmd *syncCmd) Help() string {
	return `Fetches exactly the declared branch of each git source into the machine's
repository cache (~/.context-tree/repos, one per repository) and checks the
fetched commit out as a detached snapshot (~/.context-tree/snapshots/<owner>/
<repo>/<commit>), which verify, read and resolve then use. Caches are
partial clones and snapshots plain files (no .git) of the declared
subtrees: only their blobs are downloaded and checked out (a server without partial clone
support sends everything once, and sync says so). Directory sources are
resolved and reported too. Each source's line says what changed: updated
<old> → <new> (N files in <subtree>), unchanged, rebuilt (a damaged snapshot
replaced), or failed CODE: message;
--json adds previousCommit, changed and changedFiles. On a terminal, git's
fetch progress is shown on stderr. --offline uses the cached branch, says
how old it is, and fails a source that was never fetched (CACHE_MISSING).
One source's failure does not stop the others; exit 1 when any failed.
Host git supplies authentication. --prune then removes old snapshots of the
synced repositories (see gc).`
}

func (cmd *syncCmd) Run(c *Context) error {
	env := c.Env
	if !c.JSON && isTerminal(c.Stderr) {
		p := newProgress(c.progressWriter())
		defer p.done()
		env.Progress = p.forRepository
	}
	sync := operations.Sync
	if cmd.Prune {
		sync = operations.SyncPruned
	}
	res, err := sync(c, env, cmd.Selectors, cmd.Offline)
	if err != nil {
		return err
	}
	return c.report(res, func() { c.printSync(res, cmd.Offline, time.Now()); c.printPrune(c.Stderr, res.Prune) })
}

// printSync prints one line per source: selector, what happened, tree
// root; aligned under a header on a terminal, tab-separated without one
// otherwise (a failed source's findings follow it, one per row). Notes (a
// server without partial clones) and the offline summary go to stderr.
func (c *Context) printSync(res *contracts.SyncResult, offline bool, now time.Time) {
	t := c.newTable("TREE", "SYNC", "TREE ROOT")
	for _, e := range res.Connections {
		if !e.OK {
			t.add(quote(e.Connection.Exact), fmt.Sprintf("failed %s: %s", e.Error.Code, e.Error.Message))
			if findings, ok := e.Error.Details["findings"].([]contracts.Finding); ok {
				root, _ := e.Error.Details["root"].(string)
				for _, f := range findings {
					t.add("", c.findingLine(root, f))
				}
			}
			continue
		}
		t.add(quote(e.Connection.Exact), syncStatus(e, now), quote(e.TreeRoot))
	}
	t.print()
	for _, e := range res.Connections {
		for _, n := range e.Notes {
			fmt.Fprintf(c.Stderr, "note: %s\n", n)
		}
	}
	if offline {
		fmt.Fprintln(c.Stderr, "Offline: used cached data only; nothing was fetched.")
	}
}

// syncStatus says what sync did to one source.
func syncStatus(e contracts.SyncEntry, now time.Time) string {
	r := e.Repository
	switch {
	case r == nil:
		return "directory (not in git)"
	case r.Repository == "":
		s := "directory at " + short(r.Commit)
		if r.Commit == "" {
			s = "directory (no commit yet)"
		}
		if e.Dirty != nil && *e.Dirty {
			s += ", dirty"
		}
		return s
	}
	var s string
	switch {
	case e.Offline:
		s = "cached " + short(r.Commit) + ", " + fetchedAgo(e.FetchedAt, now)
	case e.PreviousCommit == nil:
		s = "new " + short(r.Commit)
	case !e.Changed && e.Rebuilt:
		s = "rebuilt " + short(r.Commit)
	case !e.Changed:
		s = "unchanged " + short(r.Commit)
	default:
		s = "updated " + short(*e.PreviousCommit) + " → " + short(r.Commit)
		if e.ChangedFiles != nil {
			s += fmt.Sprintf(" (%d %s in %s)", *e.ChangedFiles, plural(*e.ChangedFiles, "file"), r.Subtree)
		}
	}
	return s
}

// fetchedAgo is how old cached data is.
func fetchedAgo(at *string, now time.Time) string {
	if at == nil {
		return "never fetched by this version"
	}
	t, err := time.Parse(time.RFC3339, *at)
	if err != nil {
		return "fetched at an unknown time"
	}
	return "fetched " + ago(now.Sub(t)) + " ago"
}

// short is a commit as people quote it.
func short(commit string) string {
	if len(commit) > 7 {
		return commit[:7]
	}
	return commit
}
