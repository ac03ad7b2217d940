package git

import (
	"context"
)

// WorktreePrune drops records of worktrees whose directories are gone
// (snapshots made by earlier versions were worktrees of the cache).
func (g *Git) WorktreePrune(ctx context.Context, gitDir string) error {
	_, err := g.InRepo(ctx, gitDir, "worktree", "prune")
	return err
}
