package cli

import (
	"fmt"
	"time"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/operations"
)

// printFreshness tells, on stderr, what a new session starts from: for a
// git source the snapshot's commit date and last sync, with a warning when
// that sync is stale or unknown (issue 13: an old snapshot is what makes a
// publication rejected); for a directory source asked to --sync, that
// nothing was fetched.
func (c *Context) printFreshness(res *contracts.SessionResult, synced bool, now time.Time) {
	s, snap := res.Session, res.Snapshot
	if snap == nil {
		if synced {
			fmt.Fprintf(c.Stderr, "note: --sync fetches only git sources; %s is a directory source and the session starts at its checkout's HEAD %.12s\n",
				c.display(s.Connection.Exact), s.Base)
		}
		return
	}
	src := fmt.Sprintf("%s branch %s", s.Connection.Source.Repository, s.Connection.Source.Ref)
	line := fmt.Sprintf("Snapshot %.12s of %s", snap.Commit, src)
	if t, err := time.Parse(time.RFC3339, snap.CommittedAt); err == nil {
		line += ", committed " + when(t)
	}
	at, err := time.Parse(time.RFC3339, snap.SyncedAt)
	if err == nil {
		line += fmt.Sprintf("; synced %s (%s ago)", when(at), ago(now.Sub(at)))
	}
	fmt.Fprintln(c.Stderr, line+".")
	if !snap.Stale {
		return
	}
	why := "has no recorded sync on this machine"
	if err == nil {
		why = "was last synced " + ago(now.Sub(at)) + " ago"
	}
	fmt.Fprintf(c.Stderr, "warning: %s %s, so the session may start behind upstream and its publication be rejected. To start from the newest commit: git context-tree write abort %s && git context-tree write prepare --sync %s\n",
		src, why, s.ID, quote(s.Connection.Exact))
}

// when is a time as people read it, in UTC.
func when(t time.Time) string { return t.UTC().Format("2006-01-02 15:04 UTC") }

// ago is a duration rounded for people (operations.HumanAge).
func ago(d time.Duration) string { return operations.HumanAge(d) }
