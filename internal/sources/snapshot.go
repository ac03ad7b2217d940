package sources

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/tree"
)

// Snapshot is a detached checkout of one commit of a repository, with the
// content root of one connection inside it.
type Snapshot struct {
	Repository string // lowercased owner/repo
	Branch     string
	Commit     string
	Cache      string // the bare cache
	Path       string // snapshots/<owner>/<repo>/<commit>
	TreeRoot   string // Path joined with the connection's subtree
}

// snapshotPath is where the snapshot of a commit lives (its parent created).
// The path of a commit never changes, so it is stable across later syncs.
func (m *Managed) snapshotPath(repository, commit string) (string, error) {
	owner, name := splitRepository(repository)
	dir, err := m.Home.Dir("snapshots", owner, name)
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, commit), nil
}

// snapshotState says whether the directory at path is an intact snapshot
// of commit from cache: a worktree of that cache, HEAD at the commit, and
// nothing changed, added or ignored. A symlink is never followed.
func (m *Managed) snapshotState(ctx context.Context, path, cache, commit string) (exists, intact bool) {
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return false, false
	}
	if err != nil || fi.Mode()&fs.ModeSymlink != 0 || !fi.IsDir() {
		return true, false
	}
	// Without its own .git file, git would look for a repository above.
	if gf, err := os.Lstat(filepath.Join(path, ".git")); err != nil || !gf.Mode().IsRegular() {
		return true, false
	}
	st, err := m.Git.InspectWorktree(ctx, path)
	if err != nil {
		return true, false
	}
	return true, tree.RealPath(st.Toplevel) == tree.RealPath(path) && st.Head == commit && tree.RealPath(st.CommonDir) == tree.RealPath(cache) && st.Clean
}

// ensureSnapshot returns the snapshot of commit, building it when missing
// and rebuilding it when it was tampered with: the new one is made in a
// staging path and swapped in, so the canonical path never holds a
// half-made checkout.
func (m *Managed) ensureSnapshot(ctx context.Context, cache, repository, commit string) (string, error) {
	path, err := m.snapshotPath(repository, commit)
	if err != nil {
		return "", err
	}
	exists, intact := m.snapshotState(ctx, path, cache, commit)
	if intact {
		return path, nil
	}
	dir := filepath.Dir(path)
	staging, err := os.MkdirTemp(dir, ".staging-"+commit+"-")
	if err != nil {
		return "", contracts.Errorf(contracts.CodeIO, "cannot create a staging directory in %s: %v", dir, err)
	}
	// A snapshot deleted by hand leaves git's record of it, which would
	// refuse the new worktree's move into its place.
	if err := m.Git.WorktreePrune(ctx, cache); err != nil {
		os.RemoveAll(staging)
		return "", gitError(err)
	}
	if err := m.Git.WorktreeAddDetached(ctx, cache, staging, commit); err != nil {
		os.RemoveAll(staging)
		m.Git.WorktreePrune(ctx, cache)
		return "", gitError(err)
	}
	if exists {
		if err := m.discard(ctx, cache, path, dir); err != nil {
			return "", err
		}
	}
	if err := m.Git.WorktreeMove(ctx, cache, staging, path); err != nil {
		return "", contracts.Errorf(contracts.CodeSnapshotCorrupt, "cannot move the rebuilt snapshot into %s: %v", path, err)
	}
	return path, nil
}

// discard moves a damaged snapshot (or a symlink standing in for one) out
// of the canonical path and deletes it. A symlink is removed itself; its
// target is never touched.
func (m *Managed) discard(ctx context.Context, cache, path, dir string) error {
	trash, err := os.MkdirTemp(dir, ".trash-")
	if err != nil {
		return contracts.Errorf(contracts.CodeIO, "cannot create %s: %v", dir, err)
	}
	aside := filepath.Join(trash, "snapshot")
	if err := os.Rename(path, aside); err != nil {
		return contracts.Errorf(contracts.CodeSnapshotCorrupt, "snapshot %s is damaged and cannot be moved aside: %v", path, err)
	}
	if err := os.RemoveAll(trash); err != nil {
		return contracts.Errorf(contracts.CodeIO, "cannot delete damaged snapshot %s: %v", aside, err)
	}
	return gitError(m.Git.WorktreePrune(ctx, cache))
}

// removeBrokenWorktreeRecords deletes the records (worktrees/<id> in the
// cache, gitrepository-layout(5)) of worktrees whose creation was killed:
// a record without its gitdir file, or one for a staging or trash
// directory. git itself cannot list a repository with such a record, and
// `worktree prune` skips it while `worktree add` has it locked. Callers
// hold the repository lock, which every worktree creation in a cache takes.
func removeBrokenWorktreeRecords(cache string) int {
	n := 0
	admin := filepath.Join(cache, "worktrees")
	entries, _ := os.ReadDir(admin)
	for _, e := range entries {
		rec := filepath.Join(admin, e.Name())
		gitdir, err := os.ReadFile(filepath.Join(rec, "gitdir"))
		base := filepath.Base(filepath.Dir(strings.TrimSpace(string(gitdir))))
		if err != nil || len(strings.TrimSpace(string(gitdir))) == 0 ||
			strings.HasPrefix(base, ".staging-") || strings.HasPrefix(base, ".trash-") {
			os.RemoveAll(rec)
			n++
		}
	}
	return n
}

// removeLeftoverWorktrees deletes the staging and trash directories an
// interrupted run left among a repository's snapshots, and git's records of
// them. The caller holds the repository lock.
func (m *Managed) removeLeftoverWorktrees(ctx context.Context, cache, repository string) error {
	owner, name := splitRepository(repository)
	dir, err := m.Home.Dir("snapshots", owner, name)
	if err != nil {
		return err
	}
	removed := removeBrokenWorktreeRecords(cache)
	removed += removeLeftovers(dir, ".staging-")
	removed += removeLeftovers(dir, ".trash-")
	if removed == 0 {
		return nil // nothing left over: spare the git call
	}
	return gitError(m.Git.WorktreePrune(ctx, cache))
}
