package session

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-context-tree/git-context-tree/internal/adapters/git"
	"github.com/git-context-tree/git-context-tree/internal/operations"
	"github.com/git-context-tree/git-context-tree/internal/testutil/fakegithub"
)

// countingGit points env at a git that records every command line it runs
// (each ended by a record separator, as a message may hold newlines) and
// then runs the real git; it returns the record. env gets a new Git: a Git
// looks its executable up once, at its first command.
func countingGit(t *testing.T, env *operations.Env) func() []string {
	t.Helper()
	real, err := exec.LookPath("git")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	log := filepath.Join(dir, "commands")
	script := "#!/bin/sh\nprintf '%s\\036' \"$*\" >> '" + log + "'\nexec '" + real + "' \"$@\"\n"
	if err := os.WriteFile(filepath.Join(dir, "git"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	env.Git = &git.Git{Path: filepath.Join(dir, "git"), Env: env.Git.Env}
	return func() []string {
		data, err := os.ReadFile(log)
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		os.Remove(log)
		if len(data) == 0 {
			return nil
		}
		return strings.Split(strings.TrimSuffix(string(data), "\036"), "\036")
	}
}

// TestFinishProcesses counts the git processes of `write finish`: a
// directory source's commit (issue 16's budget was 10; the session bounds'
// git config read, one process for both keys, and the sizes of the staged
// blobs, one cat-file --batch-check, make it 12 until the bounds are taken
// at prepare) and --publish of a git source's session (its push,
// snapshot and close included). Every check
// still runs; the counts come from asking the open cat-file for trees and
// from the base index made at prepare.
func TestFinishProcesses(t *testing.T) {
	gh := fakegithub.New(t)
	ctx := context.Background()
	t.Run("directory", func(t *testing.T) {
		env, session := directorySession(t, ctx, t.TempDir(), map[string]string{"README.md": "The project.\n"})
		writeKillFile(t, filepath.Join(session.ContentRoot, "area", "NODE.md"), killEdit(1, 1))
		commands := countingGit(t, &env)
		commands()
		done, err := Finish(ctx, env, FinishRequest{ID: session.ID})
		if err != nil || done.Commit == "" {
			t.Fatalf("finish: %v, %+v", err, done)
		}
		if got := commands(); len(got) > 12 {
			t.Errorf("finish ran %d git processes, want at most 12:\n%s", len(got), strings.Join(got, "\n"))
		} else {
			t.Logf("%d git processes", len(got))
		}
	})
	t.Run("publish", func(t *testing.T) {
		gh.Publish("acme/handbook", "main", map[string]string{"README.md": "The repository.\n", "docs/NODE.md": killRoot, "docs/area/NODE.md": killArea})
		env, session := gitSourceSession(t, ctx)
		writeKillFile(t, filepath.Join(session.ContentRoot, "area", "NODE.md"), killEdit(1, 1))
		commands := countingGit(t, &env)
		commands()
		done, err := Finish(ctx, env, FinishRequest{ID: session.ID, Publish: true})
		if err != nil || !done.Closed {
			t.Fatalf("finish --publish: %v, %+v", err, done)
		}
		// 28 before issue 16's pass, 21 after; the snapshot of the published
		// commit (sync's own code) takes 9 of these (its index refreshed once the
		// files are read-only), the bounds' config read and staged sizes 2.
		if got := commands(); len(got) > 23 {
			t.Errorf("finish --publish ran %d git processes, want at most 23:\n%s", len(got), strings.Join(got, "\n"))
		} else {
			t.Logf("%d git processes", len(got))
		}
	})
}
