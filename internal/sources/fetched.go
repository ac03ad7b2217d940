package sources

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/git-context-tree/git-context-tree/contracts"
)

// When each branch of a repository was last fetched is remembered in
// fetched/<owner>/<name>.json (a directory of its own: repos/ holds only
// caches), a JSON object from branch to {at, commit}: when the successful
// fetch began (so the age reported is never younger than upstream's view)
// and the tip it brought. write prepare reports from it how old its
// snapshot's view of upstream is (issue 13); git keeps no such time
// itself, since the cache writes no FETCH_HEAD and no reflog. The file is
// replaced atomically under the repository lock. Failing to write or read
// it fails the sync: the record is also the tool's word on where each
// branch of the cache is (see recordedTip).

// FetchRecord is the last successful fetch of one branch.
type FetchRecord struct {
	At     time.Time `json:"at"`
	Commit string    `json:"commit"`
	// Verified maps each subtree to the newest commit of the branch
	// whose tree of it verified (the last good one).
	Verified map[string]string `json:"verified,omitempty"`
	// Publishing is a commit being pushed to the branch (see Publish):
	// once the push lands the ref moves to it before the record does, so
	// a process killed in between leaves the ref there and this the only
	// word that the tool put it there.
	Publishing string `json:"publishing,omitempty"`
}

func (m *Managed) fetchedFile(repository string) (dir, name string, err error) {
	owner, repo := splitRepository(repository)
	dir, err = m.Home.Dir("fetched", owner)
	return dir, repo + ".json", err
}

func (m *Managed) loadFetched(repository string) map[string]FetchRecord {
	records := map[string]FetchRecord{}
	dir, name, err := m.fetchedFile(repository)
	if err != nil {
		return records
	}
	if data, err := m.Home.ReadFile(filepath.Join(dir, name)); err == nil {
		_ = json.Unmarshal(data, &records) // damaged: every age unknown until the next fetch
	}
	return records
}

// recordFetch remembers a successful fetch of branch (or, with a zero
// at, a publication that moved it: the fetch time is kept), which ends
// any publication in progress. The caller holds the repository lock, so
// read-modify-write loses no other branch's record.
func (m *Managed) recordFetch(repository, branch, commit string, at time.Time) error {
	records := m.loadFetched(repository)
	rec := records[branch]
	if !at.IsZero() {
		rec.At = at.UTC()
	}
	rec.Commit, rec.Publishing = commit, ""
	records[branch] = rec
	return m.writeFetched(repository, records)
}

// writeFetched replaces a repository's fetch records whole.
func (m *Managed) writeFetched(repository string, records map[string]FetchRecord) error {
	data, err := json.MarshalIndent(records, "", "  ")
	if err == nil {
		var dir, name string
		if dir, name, err = m.fetchedFile(repository); err == nil {
			err = m.Home.WriteFile(dir, name, append(data, '\n'))
		}
	}
	if err != nil {
		return contracts.Errorf(contracts.CodeIO, "cannot record the fetched tips of %s: %v", repository, err)
	}
	return nil
}

// lastGood is the newest commit of a branch whose subtree verified on
// this machine, "" when none is known.
func (m *Managed) lastGood(repository, branch, subtree string) string {
	return m.loadFetched(repository)[branch].Verified[subtree]
}

// recordGood makes snap's commit its branch's last good commit for
// subtree, under the repository lock (read-modify-write of the record).
// It is best effort: without it, readers of a later rejected commit are
// refused instead of served this one.
func (m *Managed) recordGood(snap *Snapshot, subtree string) {
	if snap.Branch == "" || m.lastGood(snap.Repository, snap.Branch, subtree) == snap.Commit {
		return
	}
	unlock, err := m.LockRepository(snap.Repository)
	if err != nil {
		return
	}
	defer unlock()
	m.writeGood(snap.Repository, snap.Branch, subtree, snap.Commit)
}

// writeGood records a last good commit; the caller holds the repository
// lock. Only the branch's recorded tip can become it.
func (m *Managed) writeGood(repository, branch, subtree, commit string) {
	records := m.loadFetched(repository)
	rec, ok := records[branch]
	if !ok || rec.Commit != commit {
		return
	}
	if rec.Verified == nil {
		rec.Verified = map[string]string{}
	}
	rec.Verified[subtree] = commit
	records[branch] = rec
	_ = m.writeFetched(repository, records)
}

// recordedTip is the commit the tool last brought branch to in the cache
// (by a fetch or a publication), after checking that the cache's ref
// still says so. The ref alone is never trusted: git run by an agent can
// move it (through a snapshot made by an earlier version, or a session
// whose .git names the cache as its common directory), while this record
// lives outside every cache, snapshot and session. A disagreement is
// CACHE_TAMPERED; recorded is false when the tool has no record of the
// branch (never fetched, or fetched only by an earlier version), which
// callers report as not synced.
func (m *Managed) recordedTip(ctx context.Context, cache, repository, branch string) (tip string, recorded bool, err error) {
	rec, ok := m.loadFetched(repository)[branch]
	ref, err := m.Git.ResolveCommit(ctx, cache, cacheRef(branch))
	if err != nil {
		return "", false, gitError(err)
	}
	if !ok || rec.Commit == "" {
		return "", false, nil
	}
	if ref == rec.Publishing && ref != "" {
		return ref, true, nil // a publication landed and was killed before recording it
	}
	if ref != rec.Commit {
		return "", false, contracts.Errorf(contracts.CodeCacheTampered,
			"the cache %s has branch %s at %s, not at %.12s where git-context-tree last fetched or published it: something else moved it (git run in a snapshot or session?), or an earlier version published to it without recording that; nothing was read from it. Run `git context-tree sync` online to fetch the branch again",
			cache, branch, orNothing(ref), rec.Commit).
			WithDetails(map[string]any{"cache": cache, "branch": branch, "recorded": rec.Commit, "found": ref})
	}
	return rec.Commit, true, nil
}

func orNothing(commit string) string {
	if commit == "" {
		return "nothing"
	}
	return fmt.Sprintf("%.12s", commit)
}

// Tip is the recorded tip of a repository's branch in its cache (see
// recordedTip), "" when none is recorded.
func (m *Managed) Tip(ctx context.Context, repository, branch string) (string, error) {
	repo := strings.ToLower(repository)
	cache, err := m.openCache(ctx, repo)
	if err != nil || cache == "" {
		return "", err
	}
	return m.TipIn(ctx, cache, repo, branch)
}

// TipIn is Tip for a cache whose origin and configuration the caller
// has checked.
func (m *Managed) TipIn(ctx context.Context, cache, repository, branch string) (string, error) {
	tip, _, err := m.recordedTip(ctx, cache, strings.ToLower(repository), branch)
	return tip, err
}

// LastFetch returns the last successful fetch of a repository's branch on
// this machine, ok false when none is known.
func (m *Managed) LastFetch(repository, branch string) (rec FetchRecord, ok bool) {
	rec, ok = m.loadFetched(strings.ToLower(repository))[branch]
	return rec, ok && !rec.At.IsZero()
}
