package sources

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/git-context-tree/git-context-tree/contracts"
)

// Pruning bounds the disk a repository's snapshots take (gc, sync
// --prune). Snapshots are keyed by commit, so the newest snapshot of each
// branch is the one of its cached tip; every other one is old. An old
// snapshot is removed unless an open write session works from its commit
// (Pinned) or it was used within the grace period: reads and syncs stamp
// the snapshot they use (markUsed), and nothing reads a snapshot that is
// not a tip except a process that resolved the tip before a later sync
// moved it, which the grace period outlasts. Removal runs under the
// repository lock sync takes, so no snapshot is built, rebuilt or moved
// meanwhile, and a snapshot leaves its path in one rename before it is
// deleted, so nothing ever sees a half-deleted snapshot at the canonical
// path.

// PruneOptions says what pruning one repository keeps besides the
// snapshots of its branch tips.
type PruneOptions struct {
	Pinned map[string]bool // commits open write sessions work from
	Grace  time.Duration   // keep old snapshots used this recently
	Now    time.Time
	// MoreThan prunes only when more than this many old snapshots exist
	// (sync's automatic pruning); negative prunes whenever there is one.
	MoreThan int
}

// PruneReport is what pruning one repository did.
type PruneReport struct {
	Repository string
	Removed    []string // commits whose snapshots were removed
	Kept       int      // old snapshots kept: pinned or recently used
	Snapshots  int      // snapshots left
	BytesFreed int64    // removed snapshots and what git gc compacted
	Skipped    bool     // below MoreThan: nothing was done
}

// CachedRepositories lists the repositories (owner/repo) that have a cache
// on this machine.
func (m *Managed) CachedRepositories() ([]string, error) {
	root, err := m.Home.Dir("repos")
	if err != nil {
		return nil, err
	}
	owners, err := m.Home.ReadDir(root)
	if err != nil {
		return nil, err
	}
	var repos []string
	for _, o := range owners {
		if !o.IsDir() || strings.HasPrefix(o.Name(), ".") {
			continue
		}
		caches, _ := m.Home.ReadDir(filepath.Join(root, o.Name()))
		for _, c := range caches {
			name, ok := strings.CutSuffix(c.Name(), ".git")
			if ok && c.IsDir() && !strings.HasPrefix(name, ".") {
				repos = append(repos, o.Name()+"/"+name)
			}
		}
	}
	return repos, nil
}

// SnapshotCount counts a repository's snapshots without running git: a
// cheap first look before sync's automatic pruning asks for more.
func (m *Managed) SnapshotCount(repository string) int {
	owner, name := splitRepository(repository)
	entries, _ := m.Home.ReadDir(m.Home.Path("snapshots", owner, name))
	n := 0
	for _, e := range entries {
		if e.IsDir() && isCommitID(e.Name()) {
			n++
		}
	}
	return n
}

// Prune removes a repository's old snapshots (see above) and runs `git gc
// --auto` on its cache, under the repository lock. A repository without a
// cache has nothing to prune.
func (m *Managed) Prune(ctx context.Context, repository string, opts PruneOptions) (PruneReport, error) {
	repo := strings.ToLower(repository)
	rep := PruneReport{Repository: repo}
	unlock, err := m.LockRepository(repo)
	if err != nil {
		return rep, err
	}
	defer unlock()
	cache, err := m.openCache(ctx, repo)
	if err != nil || cache == "" {
		return rep, err
	}
	if err := m.removeLeftoverWorktrees(ctx, cache, repo); err != nil {
		return rep, err
	}
	tips, err := m.Git.RefTips(ctx, cache, "refs/remotes/origin/")
	if err != nil {
		return rep, gitError(err)
	}
	// The recorded tips are spared as well as the refs: a ref moved by
	// someone else must not cost the snapshot reads are served from.
	newest := map[string]bool{}
	for _, t := range tips {
		newest[t] = true
	}
	for _, rec := range m.loadFetched(repo) {
		newest[rec.Commit] = true
		for _, good := range rec.Verified {
			newest[good] = true // what readers of a rejected tip are served
		}
	}
	owner, name := splitRepository(repo)
	dir, err := m.Home.Dir("snapshots", owner, name)
	if err != nil {
		return rep, err
	}
	entries, err := m.Home.ReadDir(dir)
	if err != nil {
		return rep, err
	}
	var old []fs.DirEntry
	for _, e := range entries {
		if e.IsDir() && isCommitID(e.Name()) {
			if rep.Snapshots++; !newest[e.Name()] {
				old = append(old, e)
			}
		}
	}
	if opts.MoreThan >= 0 && len(old) <= opts.MoreThan {
		rep.Skipped = true
		return rep, nil
	}
	cacheBefore := DirSize(cache)
	for _, e := range old {
		commit := e.Name()
		if opts.Pinned[commit] || usedWithin(e, opts.Now, opts.Grace) {
			rep.Kept++
			continue
		}
		freed, err := removeSnapshot(dir, commit)
		rep.BytesFreed += freed
		if err != nil {
			return rep, err
		}
		rep.Removed = append(rep.Removed, commit)
		rep.Snapshots--
	}
	rep.BytesFreed += m.removeOrphanRecords(dir, newest, opts.Pinned)
	if len(rep.Removed) > 0 {
		if err := m.Git.WorktreePrune(ctx, cache); err != nil {
			return rep, gitError(err)
		}
	}
	if err := m.Git.GCAuto(ctx, cache); err != nil {
		return rep, gitError(err)
	}
	if after := DirSize(cache); after < cacheBefore {
		rep.BytesFreed += cacheBefore - after
	}
	return rep, nil
}

// markUsed stamps a snapshot as used now (its directory's modification
// time, which nothing else changes once the snapshot is built), so pruning
// spares it for the grace period. Failing to stamp only shortens that.
// A symlink in the snapshot's place (which snapshotState refuses) is never
// followed: only a real directory is stamped.
func markUsed(path string) {
	if fi, err := os.Lstat(path); err != nil || !fi.IsDir() {
		return
	}
	now := time.Now()
	_ = os.Chtimes(path, now, now)
}

func usedWithin(e fs.DirEntry, now time.Time, grace time.Duration) bool {
	fi, err := e.Info()
	return err == nil && now.Sub(fi.ModTime()) < grace
}

// removeSnapshot moves a snapshot out of its canonical path in one rename
// and deletes it with its records (verdicts, checked subtrees). It returns
// the bytes it freed.
func removeSnapshot(dir, commit string) (int64, error) {
	path := filepath.Join(dir, commit)
	trash, err := os.MkdirTemp(dir, ".trash-")
	if err != nil {
		return 0, contracts.Errorf(contracts.CodeIO, "cannot create a trash directory in %s: %v", dir, err)
	}
	aside := filepath.Join(trash, "snapshot")
	if err := os.Rename(path, aside); err != nil {
		os.Remove(trash)
		return 0, contracts.Errorf(contracts.CodeIO, "cannot move snapshot %s aside: %v", path, err)
	}
	freed := DirSize(trash)
	if err := os.RemoveAll(trash); err != nil {
		return freed, contracts.Errorf(contracts.CodeIO, "cannot delete snapshot %s: %v", aside, err)
	}
	for _, suffix := range snapshotRecords {
		freed += removeFile(path + suffix)
	}
	return freed, nil
}

// snapshotRecords are the files kept beside a snapshot, named after it.
var snapshotRecords = []string{".verdicts", ".subtrees", ".index", ".dirs"}

// removeOrphanRecords deletes records of commits that have no snapshot and
// are neither a tip nor pinned (their snapshot was removed by hand, or a
// removal was interrupted).
func (m *Managed) removeOrphanRecords(dir string, newest, pinned map[string]bool) int64 {
	entries, _ := m.Home.ReadDir(dir)
	var freed int64
	for _, e := range entries {
		for _, suffix := range snapshotRecords {
			commit, ok := strings.CutSuffix(e.Name(), suffix)
			if !ok || !e.Type().IsRegular() || !isCommitID(commit) || newest[commit] || pinned[commit] {
				continue
			}
			if _, err := os.Lstat(filepath.Join(dir, commit)); errors.Is(err, fs.ErrNotExist) {
				freed += removeFile(filepath.Join(dir, e.Name()))
			}
		}
	}
	return freed
}

func removeFile(path string) int64 {
	fi, err := os.Lstat(path)
	if err != nil || os.Remove(path) != nil {
		return 0
	}
	return fi.Size()
}

// DirSize is the bytes of the regular files below dir (symlinks not
// followed), as pruning reports them.
func DirSize(dir string) int64 {
	var n int64
	filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if fi, err := d.Info(); err == nil {
				n += fi.Size()
			}
		}
		return nil
	})
	return n
}

// isCommitID reports a full lowercase SHA-1 or SHA-256 object id, the
// names snapshots are kept under.
func isCommitID(s string) bool {
	if len(s) != 40 && len(s) != 64 {
		return false
	}
	return strings.Trim(s, "0123456789abcdef") == ""
}
