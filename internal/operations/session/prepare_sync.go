package session

import (
	"context"
	"errors"
	"time"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/operations"
	"github.com/git-context-tree/git-context-tree/internal/sources"
)

// PrepareOptions are prepare's optional behaviours.
type PrepareOptions struct {
	// Sync fetches a git source's branch first, exactly as `sync
	// <selector>` does for that source, so the session starts at
	// upstream's tip. A directory source has nothing to fetch: its
	// session starts at the checkout's HEAD either way.
	Sync bool
}

// StaleAfter is how long after its last fetch a git source's snapshot is
// reported stale by prepare: an afternoon of sessions after one sync is
// fine, a snapshot from yesterday likely misses upstream commits and makes
// a rejected publication likely (issue 13).
const StaleAfter = time.Hour

// syncBeforePrepare syncs a git source for prepare --sync. A fetched tree
// that does not verify still gets its session: sessions are how a tree in
// another repository is repaired (finish accepts only a tree that
// verifies), as prepare without --sync allows too.
func syncBeforePrepare(ctx context.Context, env operations.Env, c sources.Connection) error {
	if c.Source.Kind != contracts.SourceGit {
		return nil
	}
	_, err := operations.SyncSource(ctx, env, c)
	var ce *contracts.Error
	if errors.As(err, &ce) && (ce.Code == contracts.CodeTreeInvalid || ce.Code == contracts.CodeNotATree) {
		return nil
	}
	return err
}

// snapshotFreshness describes the snapshot a git session starts from. It
// is information only: a failure to read the commit date leaves it out.
func snapshotFreshness(ctx context.Context, env operations.Env, c sources.Connection, s *contracts.Session, now time.Time) *contracts.SessionSnapshot {
	info := &contracts.SessionSnapshot{Commit: s.Base, Stale: true}
	if t, err := env.Git.CommitTime(ctx, s.Repository.CommonDir, s.Base); err == nil {
		info.CommittedAt = t.Format(time.RFC3339)
	}
	if rec, ok := env.Managed().LastFetch(c.Source.Repository, c.Source.Ref); ok {
		info.SyncedAt = rec.At.UTC().Format(time.RFC3339)
		info.Stale = isStale(rec.At, now)
	}
	return info
}

// isStale says whether a fetch at syncedAt is too old at now. A fetch
// time in the future (a clock set back) is not called stale.
func isStale(syncedAt, now time.Time) bool {
	return now.Sub(syncedAt) > StaleAfter
}
