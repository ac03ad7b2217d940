package cli

import (
	"fmt"
	"io"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/operations"
)

type gcCmd struct{}

func (cmd *gcCmd) Help() string {
	return `Reclaims disk in ~/.context-tree: in every cached repository, removes the
snapshots other than the newest of each branch, keeping those an open write
session works from and those used in the last 10 minutes
(CONTEXT_TREE_PRUNE_GRACE), then runs git gc --auto on the cache. Prints
what it removed and freed. It takes each repository's lock, as sync does.
sync --prune does the same for the repositories it synced; with
CONTEXT_TREE_AUTO_PRUNE=<n>, sync prunes a repository by itself once it has
more than n old snapshots (off by default: snapshot paths sync returned stay
valid until you prune).`
}

func (cmd *gcCmd) Run(c *Context) error {
	res, err := operations.GC(c, c.Env)
	if err != nil {
		return err
	}
	return c.report(res, func() {
		if len(res.Repositories) == 0 {
			fmt.Fprintln(c.Stderr, "no cached repositories; nothing to prune")
			return
		}
		c.printPrune(c.Stdout, &res.GCReport)
	})
}

// printPrune prints a pruning pass: one line per repository, then the
// total.
func (c *Context) printPrune(w io.Writer, r *contracts.GCReport) {
	if r == nil {
		return
	}
	for _, repo := range r.Repositories {
		if repo.Error != nil {
			fmt.Fprintf(w, "%s\terror %s: %s\n", repo.Repository, repo.Error.Code, repo.Error.Message)
			continue
		}
		line := fmt.Sprintf("%s\tremoved %d, %d left", repo.Repository, len(repo.Removed), repo.Snapshots)
		if repo.Kept > 0 {
			line += fmt.Sprintf(" (%d old kept: in use or used recently)", repo.Kept)
		}
		fmt.Fprintf(w, "%s\tfreed %s\n", line, operations.HumanBytes(repo.BytesFreed))
	}
	fmt.Fprintf(w, "pruned %d %s, freed %s\n", r.SnapshotsRemoved, plural(r.SnapshotsRemoved, "snapshot"), operations.HumanBytes(r.BytesFreed))
}
