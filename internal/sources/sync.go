package sources

import (
	"context"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/git-context-tree/git-context-tree/contracts"
)

// SyncOptions shape one source's sync.
type SyncOptions struct {
	// Offline uses the cached ref and never touches the network.
	Offline bool
	// Fetched says an earlier source of the same branch fetched it in this
	// run: no second fetch, and Since is the commit before that fetch.
	Fetched bool
	Since   string
	// NewSubtree says the snapshot of the branch's recorded tip did not
	// hold this subtree before the run began (HeldAtTip): it is new to the
	// machine even when a sibling's sync in this run has checked it out.
	NewSubtree bool
	// Dirs are further subtrees of the repository declared next to this
	// one, for the snapshot to hold too (one checkout for them all).
	Dirs []string
}

// Sync brings one git source up to date (S8); see SyncWith.
func (m *Managed) Sync(ctx context.Context, c Connection, offline bool) (*Snapshot, error) {
	return m.SyncWith(ctx, c, SyncOptions{Offline: offline})
}

// SyncWith brings one git source up to date (S8): fetch exactly its branch
// into the repository's cache (cloning the cache first if needed), then
// return the snapshot of the fetched commit, building it if needed.
// Offline, it uses the cached ref and never touches the network.
func (m *Managed) SyncWith(ctx context.Context, c Connection, opt SyncOptions) (*Snapshot, error) {
	repo, branch := strings.ToLower(c.Source.Repository), c.Source.Ref
	unlock, err := m.LockRepository(repo)
	if err != nil {
		return nil, err
	}
	defer unlock()
	cache, partial, err := m.openCacheKind(ctx, repo)
	if err != nil {
		return nil, err
	}
	offline := opt.Offline || opt.Fetched
	var fetchedAt time.Time // zero: nothing fetched
	since, full := opt.Since, false
	switch {
	case opt.Offline && cache == "":
		return nil, cacheMissing(c)
	case cache == "":
		fetchedAt = time.Now()
		if cache, full, err = m.createCache(ctx, repo, branch); err != nil {
			return nil, err
		}
	default:
		// A killed run can leave half-made worktrees whose records break
		// git's connectivity checks: clear them before anything else.
		if err := m.removeLeftoverWorktrees(ctx, cache, repo); err != nil {
			return nil, err
		}
		if !offline {
			// The commit before the fetch is the recorded one: a ref moved
			// by anyone else is replaced by the fetch (a forced refspec).
			if rec, ok := m.loadFetched(repo)[branch]; ok {
				since = rec.Commit
			}
			fetchedAt = time.Now()
			if err := m.fetch(ctx, cache, repo, branch, partial); err != nil {
				return nil, err
			}
		}
	}
	var commit string
	if fetchedAt.IsZero() {
		// Nothing fetched by this run: the branch is where the tool last
		// brought it, or the cache is not trusted.
		tip, recorded, err := m.recordedTip(ctx, cache, repo, branch)
		if err != nil {
			return nil, err
		}
		if !recorded {
			return nil, cacheMissing(c)
		}
		commit = tip
	} else {
		if commit, err = m.Git.ResolveCommit(ctx, cache, cacheRef(branch)); err != nil {
			return nil, gitError(err)
		}
		if commit == "" {
			return nil, cacheMissing(c)
		}
		if err := m.recordFetch(repo, branch, commit, fetchedAt); err != nil {
			return nil, err
		}
	}
	if offline && !opt.Fetched {
		since = commit // nothing fetched: the ref did not move
	}
	if since != "" && (opt.NewSubtree || !m.held(repo, since, c.Source.Path)) {
		since = "" // a subtree new to this machine is new, not unchanged
	}
	if err := m.checkSubtreeOnce(ctx, cache, repo, commit, c.Source.Path); err != nil {
		return nil, err
	}
	want := append([]string{c.Source.Path}, opt.Dirs...)
	snap, rebuilt, err := m.ensureSnapshotRebuilt(ctx, cache, repo, commit, want, since, opt.Offline)
	if err != nil {
		return nil, err
	}
	markUsed(snap) // pruning spares it for a while once it is old
	s := &Snapshot{Repository: repo, Branch: branch, Commit: commit, Cache: cache, Path: snap, TreeRoot: joinSubtree(snap, c.Source.Path),
		Previous: since, ChangedFiles: -1, FullClone: full, Rebuilt: rebuilt.done, Discarded: rebuilt.discarded}
	if since != "" && since != commit {
		if n, err := m.Git.CountChanged(ctx, cache, since, commit, c.Source.Path); err == nil {
			s.ChangedFiles = n
		}
	}
	if rec, ok := m.LastFetch(repo, branch); ok {
		s.FetchedAt = rec.At
	}
	return s, nil
}

// CheckSnapshot refuses a snapshot that is no longer intact (modified,
// added to, replaced: snapshotState) with SNAPSHOT_CORRUPT, as Current
// does: for a reader that keeps serving one after it was opened.
func (m *Managed) CheckSnapshot(ctx context.Context, c Connection, s *Snapshot) error {
	exists, intact, _ := m.snapshotState(ctx, s.Path, s.Cache, s.Commit)
	if !exists {
		return notSynced(c, "no snapshot of "+s.Commit)
	}
	if !intact {
		return snapshotCorrupt(c, s)
	}
	return nil
}

// snapshotCorrupt is the refusal of a snapshot that is no longer intact.
func snapshotCorrupt(c Connection, s *Snapshot) error {
	return contracts.Errorf(contracts.CodeSnapshotCorrupt,
		"the snapshot %s of %s was modified or replaced (or made by an earlier version); `git context-tree sync` rebuilds it", s.Path, describeSource(c)).
		WithDetails(map[string]any{"snapshot": s.Path, "selector": c.Exact})
}

// Current returns the snapshot a git source reads from now: the cached tip
// of its branch, which must have an intact snapshot. It never touches the
// network and builds nothing; without a snapshot it fails with NOT_SYNCED.
func (m *Managed) Current(ctx context.Context, c Connection) (*Snapshot, error) {
	s, err := m.Recorded(ctx, c)
	if err != nil {
		return nil, err
	}
	switch exists, intact, dirs := m.snapshotState(ctx, s.Path, s.Cache, s.Commit); {
	case !exists:
		return nil, notSynced(c, "no snapshot of "+s.Commit)
	case intact && !covers(dirs, []string{c.Source.Path}):
		return nil, notSynced(c, "the snapshot of "+s.Commit+" does not hold "+c.Source.Path+" yet")
	case !intact:
		return nil, snapshotCorrupt(c, s)
	}
	return s, nil
}

// Recorded is the snapshot a source's recorded fetch names, from the
// cache alone: its commit and where its snapshot lives, whatever that
// directory holds now (for readers of the commit's objects, which an edit
// of the snapshot cannot change).
func (m *Managed) Recorded(ctx context.Context, c Connection) (*Snapshot, error) {
	repo, branch := strings.ToLower(c.Source.Repository), c.Source.Ref
	cache, err := m.openCache(ctx, repo)
	if err != nil {
		return nil, err
	}
	if cache == "" {
		return nil, notSynced(c, "no cache of the repository")
	}
	commit, recorded, err := m.recordedTip(ctx, cache, repo, branch)
	if err != nil {
		return nil, err
	}
	if !recorded {
		return nil, notSynced(c, "branch "+branch+" was never fetched by this version")
	}
	snap, err := m.snapshotPath(repo, commit)
	if err != nil {
		return nil, err
	}
	// Stamped as soon as the tip is known: pruning spares a snapshot used
	// within its grace period, even once a later sync moved the tip past it.
	markUsed(snap)
	if err := m.checkSubtreeOnce(ctx, cache, repo, commit, c.Source.Path); err != nil {
		return nil, err
	}
	return &Snapshot{Repository: repo, Branch: branch, Commit: commit, Cache: cache, Path: snap, TreeRoot: joinSubtree(snap, c.Source.Path)}, nil
}

func joinSubtree(snapshot, subtree string) string {
	if subtree == "." {
		return snapshot
	}
	return filepath.Join(snapshot, filepath.FromSlash(subtree))
}

func cacheMissing(c Connection) error {
	return contracts.Errorf(contracts.CodeCacheMissing,
		"%s is not cached on this machine; run `git context-tree sync` without --offline first", describeSource(c)).
		WithDetails(map[string]any{"selector": c.Exact})
}

func notSynced(c Connection, why string) error {
	return contracts.Errorf(contracts.CodeNotSynced, "%s has no local snapshot (%s); run `git context-tree sync`", describeSource(c), why).
		WithDetails(map[string]any{"selector": c.Exact})
}

// checkSubtree rejects a subtree that is missing in the commit, is or lies
// below a symlink or a gitlink (owned by another repository), or contains a
// gitlink (S8). One recursive ls-tree of the subtree lists the entries on
// the way to it (-t) and everything inside.
func (m *Managed) checkSubtree(ctx context.Context, cache, commit, subtree string) error {
	var paths []string
	if subtree != "." {
		paths = []string{subtree}
	}
	entries, err := m.Git.LsTree(ctx, cache, commit, true, paths...)
	if err != nil {
		return gitError(err)
	}
	modes := map[string]string{}
	for _, e := range entries {
		modes[e.Path] = e.Mode
		if e.Mode == "160000" && strings.HasPrefix(e.Path+"/", strings.TrimPrefix(subtree+"/", "./")) {
			return contracts.Errorf(contracts.CodeNestedRepo, "the tree contains the submodule %s, owned by another repository", e.Path).
				WithDetails(map[string]any{"path": e.Path})
		}
	}
	if subtree == "." {
		return nil
	}
	var prefixes []string
	for p := subtree; p != "."; p = path.Dir(p) {
		prefixes = append([]string{p}, prefixes...)
	}
	if _, found := modes[subtree]; !found {
		// ls-tree lists nothing below a gitlink or symlink: look at each
		// directory on the way, so they are named rather than "missing".
		if err := m.lsPrefixes(ctx, cache, commit, prefixes, modes); err != nil {
			return err
		}
	}
	for _, p := range prefixes {
		switch modes[p] {
		case "040000":
		case "":
			return contracts.Errorf(contracts.CodeSubtreeMissing, "commit %.12s has no directory %s", commit, subtree).WithDetails(map[string]any{"path": subtree})
		case "160000":
			return contracts.Errorf(contracts.CodeNestedRepo, "%s is a submodule: the subtree is owned by another repository", p).WithDetails(map[string]any{"path": p})
		case "120000":
			return contracts.Errorf(contracts.CodeRootSymlink, "%s is a symlink in commit %.12s; a tree root must be a real directory", p, commit).WithDetails(map[string]any{"path": p})
		default:
			return contracts.Errorf(contracts.CodeNotATree, "%s is a file in commit %.12s, not a directory", p, commit).WithDetails(map[string]any{"path": p})
		}
	}
	return nil
}

// lsPrefixes records the mode of each path on the way to a subtree, one
// non-recursive ls-tree each, stopping at the first that is not a tree.
func (m *Managed) lsPrefixes(ctx context.Context, cache, commit string, prefixes []string, modes map[string]string) error {
	for _, p := range prefixes {
		entries, err := m.Git.LsTree(ctx, cache, commit, false, p)
		if err != nil {
			return gitError(err)
		}
		for _, e := range entries {
			if e.Path == p {
				modes[p] = e.Mode
			}
		}
		if modes[p] != "040000" {
			return nil
		}
	}
	return nil
}

// held reports whether the snapshot of commit holds subtree, from its
// record alone (no git): whether a subtree was synced here before.
// HeldAtTip reports whether the snapshot of the recorded tip of c's branch
// holds c's subtree: false for a subtree never synced on this machine.
func (m *Managed) HeldAtTip(c Connection) bool {
	repo := strings.ToLower(c.Source.Repository)
	rec, ok := m.loadFetched(repo)[c.Source.Ref]
	return ok && rec.Commit != "" && m.held(repo, rec.Commit, c.Source.Path)
}

func (m *Managed) held(repository, commit, subtree string) bool {
	path, err := m.snapshotPath(repository, commit)
	if err != nil {
		return false
	}
	dirs, ok := m.readSnapshotDirs(path)
	return ok && covers(dirs, []string{subtree})
}
