package session

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/operations"
)

const damagedID = "5f0e8a52-3c1d-4e7b-9a2f-6b8c0d1e2f3a"

// damageRecord stores a record that is not JSON for a session whose
// folder exists, and returns the record's and the folder's paths.
func damageRecord(t *testing.T, env operations.Env) (record, worktree string) {
	t.Helper()
	dir, err := env.Home.Dir("sessions")
	if err != nil {
		t.Fatal(err)
	}
	record = filepath.Join(dir, damagedID+".json")
	if err := os.WriteFile(record, []byte("{"), 0o600); err != nil {
		t.Fatal(err)
	}
	if worktree, err = env.Home.Dir("worktrees", damagedID); err != nil {
		t.Fatal(err)
	}
	return record, worktree
}

// TestListGoesOnPastAnUnreadableRecord: one damaged record neither hides
// the other sessions nor passes unnoticed: it is listed as unreadable with
// its file and error, its folder is not taken for an unknown one, and the
// list asks for exit 1.
func TestListGoesOnPastAnUnreadableRecord(t *testing.T) {
	ctx := context.Background()
	env, s := directorySession(t, ctx, t.TempDir(), nil)
	record, worktree := damageRecord(t, env)

	res, err := List(ctx, env)
	if err != nil {
		t.Fatalf("List: %v", err)
	}
	if len(res.Sessions) != 1 || res.Sessions[0].ID != s.ID {
		t.Errorf("sessions = %v, want only %s", res.Sessions, s.ID)
	}
	want := []contracts.SessionUnreadable{{ID: damagedID, Record: record, Worktree: worktree,
		Error: contracts.Errorf(contracts.CodeStateInvalid, "session record %s is damaged", record)}}
	if diff := cmp.Diff(want, res.Unreadable); diff != "" {
		t.Errorf("unreadable (-want +got):\n%s", diff)
	}
	if len(res.Unknown) != 0 {
		t.Errorf("unknown = %v: the unreadable session's folder is not one no record names", res.Unknown)
	}
	if res.ExitCode() != contracts.ExitFailed {
		t.Errorf("exit code %d, want %d", res.ExitCode(), contracts.ExitFailed)
	}
}

// TestPruneKeepsAnUnreadableRecord: prune removes what it can judge and
// keeps, untouched, the session whose record it cannot read, even with
// --force (its folder is not an unknown one).
func TestPruneKeepsAnUnreadableRecord(t *testing.T) {
	ctx := context.Background()
	env, s := directorySession(t, ctx, t.TempDir(), nil)
	record, worktree := damageRecord(t, env)

	res, err := Prune(ctx, env, PruneRequest{Force: true})
	if err != nil {
		t.Fatalf("Prune: %v", err)
	}
	if len(res.Removed) != 1 || res.Removed[0].ID != s.ID {
		t.Errorf("removed = %v, want the empty session %s", res.Removed, s.ID)
	}
	if len(res.Unreadable) != 1 || res.Unreadable[0].Record != record || res.Unreadable[0].Error.Code != contracts.CodeStateInvalid {
		t.Errorf("unreadable = %+v, want %s as STATE_INVALID", res.Unreadable, record)
	}
	for _, p := range []string{record, worktree} {
		if _, err := os.Lstat(p); err != nil {
			t.Errorf("%s: %v, want it kept", p, err)
		}
	}
	if res.ExitCode() != contracts.ExitFailed {
		t.Errorf("exit code %d, want %d", res.ExitCode(), contracts.ExitFailed)
	}
}
