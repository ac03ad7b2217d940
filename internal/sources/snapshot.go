package sources

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

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

	// What a sync saw, for its report.
	Previous     string    // the branch's cached commit before the sync ("" for none)
	ChangedFiles int       // files of the subtree that differ from Previous (-1 unknown)
	FetchedAt    time.Time // the branch's last successful fetch (zero unknown)
	FullClone    bool      // the cache was just cloned and the server refused the filter
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
// nothing changed, added or ignored, inside its sparse directories or
// outside them. dirs are the directories it holds (["."] for the whole
// commit). A symlink is never followed.
func (m *Managed) snapshotState(ctx context.Context, path, cache, commit string) (exists, intact bool, dirs []string) {
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return false, false, nil
	}
	if err != nil || fi.Mode()&fs.ModeSymlink != 0 || !fi.IsDir() {
		return true, false, nil
	}
	// Without its own .git file, git would look for a repository above.
	if gf, err := os.Lstat(filepath.Join(path, ".git")); err != nil || !gf.Mode().IsRegular() {
		return true, false, nil
	}
	dirs, sparse, err := m.Git.SparseDirs(ctx, path)
	if err != nil || (sparse && len(dirs) == 0) {
		return true, false, nil
	}
	st, err := m.Git.InspectWorktree(ctx, path, dirs)
	if err != nil {
		return true, false, nil
	}
	ok := tree.RealPath(st.Toplevel) == tree.RealPath(path) && st.Head == commit && tree.RealPath(st.CommonDir) == tree.RealPath(cache) && st.Clean
	if !sparse {
		return true, ok, []string{"."}
	}
	if ok {
		// git looks at no path outside the sparse directories: a file put
		// there (or one of the commit's, restored by hand) is found here.
		stray, err := StrayOutside(path, dirs)
		ok = err == nil && len(stray) == 0
	}
	return true, ok, dirs
}

// ensureSnapshot returns the snapshot of commit holding at least the
// directories want, building it when missing, widening it in place when
// it lacks one, and rebuilding it when it was tampered with: a new one is
// made in a staging path and swapped in, so the canonical path never holds
// a half-made checkout. A new snapshot also holds the directories of the
// snapshot of carry (the branch's previous commit), so that a subtree that
// another project declared stays readable after this project's sync.
// Offline, blobs not in the cache fail it with CACHE_MISSING.
func (m *Managed) ensureSnapshot(ctx context.Context, cache, repository, commit string, want []string, carry string, offline bool) (string, error) {
	path, err := m.snapshotPath(repository, commit)
	if err != nil {
		return "", err
	}
	exists, intact, have := m.snapshotState(ctx, path, cache, commit)
	if intact && covers(have, want) {
		return path, nil
	}
	if intact && !covers(want, []string{"."}) {
		dirs := normaliseDirs(append(slices.Clone(have), want...))
		if err := m.fetchBlobs(ctx, cache, repository, commit, dirs, offline); err != nil {
			return "", err
		}
		if err := m.Git.SetSparseDirs(ctx, path, dirs); err != nil {
			return "", gitError(err)
		}
		return path, nil
	}
	dirs := append(slices.Clone(want), m.carriedDirs(ctx, repository, commit, carry)...)
	if intact {
		dirs = append(dirs, have...)
	}
	dirs = normaliseDirs(dirs)
	if err := m.fetchBlobs(ctx, cache, repository, commit, dirs, offline); err != nil {
		return "", err
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
	sparse := dirs
	if covers(dirs, []string{"."}) {
		sparse = nil
	}
	if err := m.Git.WorktreeAddSparse(ctx, cache, staging, commit, sparse); err != nil {
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

// carriedDirs are the sparse directories of the snapshot of the commit
// the branch was at before (none when it is a whole checkout: a snapshot
// made before snapshots were sparse is not carried whole).
func (m *Managed) carriedDirs(ctx context.Context, repository, commit, carry string) []string {
	if carry == "" || carry == commit {
		return nil
	}
	path, err := m.snapshotPath(repository, carry)
	if err != nil {
		return nil
	}
	if gf, err := os.Lstat(filepath.Join(path, ".git")); err != nil || !gf.Mode().IsRegular() {
		return nil
	}
	dirs, sparse, err := m.Git.SparseDirs(ctx, path)
	if err != nil || !sparse {
		return nil
	}
	return dirs
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
