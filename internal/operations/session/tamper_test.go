package session

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/git-context-tree/git-context-tree/contracts"
)

// TestHomeConfigCheckedFromItsBytes: while the home repository's
// configuration file holds the bytes it held at prepare, the check runs no
// git; a change only to ignored sections is read through git once, passes,
// and is remembered; any other change is refused.
func TestHomeConfigCheckedFromItsBytes(t *testing.T) {
	ctx := context.Background()
	env, s := directorySession(t, ctx, t.TempDir(), nil)
	proj := filepath.Dir(s.Repository.CommonDir)
	commands := countingGit(t, &env)
	check := func(wantRuns int) error {
		t.Helper()
		commands()
		err := checkHomeConfig(ctx, env, s)
		if got := commands(); len(got) != wantRuns {
			t.Errorf("the check ran %d git processes, want %d: %q", len(got), wantRuns, got)
		}
		return err
	}
	if err := check(0); err != nil {
		t.Fatalf("unchanged configuration: %v", err)
	}
	runGit(t, proj, "config", "branch.main.remote", "origin")
	if err := check(1); err != nil {
		t.Fatalf("a branch.* change: %v", err)
	}
	if err := check(0); err != nil {
		t.Fatalf("the same configuration again: %v", err)
	}
	runGit(t, proj, "config", "core.autocrlf", "false")
	var ce *contracts.Error
	if err := check(1); !errors.As(err, &ce) || ce.Code != contracts.CodeSessionTampered {
		t.Fatalf("a core.* change: %v, want SESSION_TAMPERED", err)
	}
}
