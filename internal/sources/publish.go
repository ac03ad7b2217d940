package sources

import (
	"context"
	"strings"
	"time"
)

// Publish pushes commit to branch of a git source's origin through push,
// which reports whether the push landed (false: rejected, not a
// fast-forward), and makes the commit the branch's recorded tip and
// current snapshot when it did, so reads see what was published without
// another sync. cache is the repository's cache, whose origin and
// configuration the caller has checked.
//
// All of it runs under the repository lock, the lock of every move of the
// cache's remote-tracking refs. Moving the ref and recording the move are
// two steps, so before pushing the record names the commit as being
// published: a process killed between them leaves the ref at that
// commit, which recordedTip then accepts, and the next finish pushes
// again (a no-op) and records it instead of finding the cache tampered
// with.
func (m *Managed) Publish(ctx context.Context, cache, repository, branch, subtree, commit string, push func() (landed bool, err error)) (bool, error) {
	repo := strings.ToLower(repository)
	unlock, err := m.LockRepository(repo)
	if err != nil {
		return false, err
	}
	defer unlock()
	// A killed publication can leave a ref lock or a half-made worktree
	// record, as a killed sync does: clear them first.
	if err := m.removeLeftoverWorktrees(ctx, cache, repo); err != nil {
		return false, err
	}
	removeStaleRefLocks(cache, branch)
	// The branch must be where the tool last brought it: a moved ref is
	// CACHE_TAMPERED.
	if _, _, err := m.recordedTip(ctx, cache, repo, branch); err != nil {
		return false, err
	}
	records := m.loadFetched(repo)
	previous := records[branch].Commit // names the branch's previous snapshot
	if previous != commit {
		rec := records[branch]
		rec.Publishing = commit
		records[branch] = rec
		if err := m.writeFetched(repo, records); err != nil {
			return false, err
		}
	}
	landed, err := push()
	if err != nil || !landed {
		m.endPublishing(ctx, cache, repo, branch, commit)
		return landed, err
	}
	return true, m.recordPublished(ctx, cache, repo, branch, subtree, commit, previous)
}

// endPublishing forgets a publication that did not land, unless the
// cache's ref says it did (a push that failed after the remote took it).
func (m *Managed) endPublishing(ctx context.Context, cache, repo, branch, commit string) {
	if ref, err := m.Git.ResolveCommit(ctx, cache, cacheRef(branch)); err != nil || ref == commit {
		return
	}
	records := m.loadFetched(repo)
	if rec, ok := records[branch]; ok && rec.Publishing == commit {
		rec.Publishing = ""
		records[branch] = rec
		_ = m.writeFetched(repo, records) // a stale mark accepts only a commit the tool was publishing
	}
}

// recordPublished moves the cache's tip of branch to a commit just pushed
// there and builds its snapshot (holding subtree, the session's, and what
// the branch's previous snapshot held). The caller holds the repository
// lock.
func (m *Managed) recordPublished(ctx context.Context, cache, repo, branch, subtree, commit, previous string) error {
	if err := m.Git.UpdateRef(ctx, cache, cacheRef(branch), commit); err != nil {
		return gitError(err)
	}
	if err := m.recordFetch(repo, branch, commit, time.Time{}); err != nil {
		return err
	}
	// The published commit's blobs are all in the cache: finish wrote the
	// new ones and the session's checkout needed the others.
	path, err := m.ensureSnapshot(ctx, cache, repo, commit, []string{subtree}, previous, false)
	if err != nil {
		return err
	}
	// finish verified exactly this subtree before committing it.
	m.recordVerdict(&Snapshot{Repository: repo, Commit: commit, Path: path}, subtree, verdict{OK: true})
	m.writeGood(repo, branch, subtree, commit)
	return nil
}
