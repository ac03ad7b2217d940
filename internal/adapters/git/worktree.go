package git

import (
	"bytes"
	"context"
	"fmt"
	"strings"
)

// WorktreeAddDetached checks commit out at path as a detached worktree of
// the repository gitDir.
func (g *Git) WorktreeAddDetached(ctx context.Context, gitDir, path, commit string) error {
	_, err := g.InRepo(ctx, gitDir, "worktree", "add", "--quiet", "--detach", "--", path, commit)
	return err
}

// WorktreeMove moves a worktree of gitDir, keeping git's records right.
func (g *Git) WorktreeMove(ctx context.Context, gitDir, from, to string) error {
	_, err := g.InRepo(ctx, gitDir, "worktree", "move", "--", from, to)
	return err
}

// WorktreePrune drops records of worktrees whose directories are gone.
func (g *Git) WorktreePrune(ctx context.Context, gitDir string) error {
	_, err := g.InRepo(ctx, gitDir, "worktree", "prune")
	return err
}

// WorktreeState is what a worktree's own git says about it.
type WorktreeState struct {
	Toplevel  string // absolute work tree root
	Head      string // commit, "" when unborn
	CommonDir string // absolute git common dir
	Clean     bool   // no tracked changes, untracked or ignored files
}

// InspectWorktree reads a worktree's HEAD, common dir and cleanliness,
// counting ignored files too (anything not from the commit is a change).
// With sparse directories, exactly the entries outside them must be
// skip-worktree; files on disk outside them are for the caller to find
// (git does not look at skip-worktree paths).
func (g *Git) InspectWorktree(ctx context.Context, dir string, sparse []string) (*WorktreeState, error) {
	out, err := g.Run(ctx, Isolated, dir, "rev-parse", "--path-format=absolute", "--show-toplevel", "--git-common-dir", "--verify", "-q", "HEAD^{commit}")
	if err != nil {
		return nil, err
	}
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(lines) < 2 {
		return nil, fmt.Errorf("git rev-parse in %s: unexpected output %q", dir, out)
	}
	st := &WorktreeState{Toplevel: lines[0], CommonDir: lines[1]}
	if len(lines) > 2 {
		st.Head = lines[2]
	}
	status, err := g.Run(ctx, Isolated, dir, "status", "--porcelain=v1", "-z", "--ignored=matching", "--untracked-files=all")
	if err != nil {
		return nil, err
	}
	st.Clean = len(status) == 0
	if st.Clean {
		// status trusts entries marked skip-worktree or assume-unchanged:
		// a clean snapshot has no such marks but on the entries its
		// sparse checkout leaves out.
		flags, err := g.Run(ctx, Isolated, dir, "ls-files", "-v", "-z")
		if err != nil {
			return nil, err
		}
		for _, rec := range bytes.Split(flags, []byte{0}) {
			if len(rec) > 2 && rec[0] != wantFlag(string(rec[2:]), sparse) {
				st.Clean = false
				break
			}
		}
	}
	return st, nil
}

// wantFlag is the ls-files -v tag an entry of a clean checkout has: H
// (cached) inside the sparse directories or in a full checkout, S
// (skip-worktree) outside them.
func wantFlag(path string, sparse []string) byte {
	if len(sparse) == 0 {
		return 'H'
	}
	for _, d := range sparse {
		if Under(path, d) {
			return 'H'
		}
	}
	return 'S'
}
