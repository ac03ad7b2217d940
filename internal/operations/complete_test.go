package operations

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/git-context-tree/git-context-tree/internal/adapters/git"
	"github.com/git-context-tree/git-context-tree/internal/adapters/state"
)

// TestCompletionSelectors: a short selector, or the exact ones where
// several sources share it, and subtree selectors; nothing without a
// readable project.
func TestCompletionSelectors(t *testing.T) {
	project := t.TempDir()
	real, err := filepath.EvalSymlinks(project)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{"docs/handbook", "old/handbook", "guides"} {
		if err := os.MkdirAll(filepath.Join(project, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	config := `{"schemaVersion":3,"trees":[
  {"kind":"directory","path":"docs/handbook"},
  {"kind":"directory","path":"old/handbook"},
  {"kind":"directory","path":"guides"},
  {"kind":"git","repository":"acme/platform","path":"teams/core","ref":"main"}
]}
`
	if err := os.WriteFile(filepath.Join(project, ".context-tree.json"), []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	env := Env{Dir: filepath.Join(project, "guides"), Vars: os.Environ(), Git: git.New(os.Environ())}
	got := CompletionSelectors(context.Background(), env)
	want := []string{filepath.Join(real, "docs/handbook"), filepath.Join(real, "old/handbook"), "guides", "platform", "platform/teams/core"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("selectors (-want +got):\n%s", diff)
	}

	if err := os.WriteFile(filepath.Join(project, ".context-tree.json"), []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := CompletionSelectors(context.Background(), env); got != nil {
		t.Errorf("an invalid config: %q, want nothing", got)
	}
}

// TestCompletionIDs: the ids recorded in the state directory, read
// without creating anything; nothing where there is no state.
func TestCompletionIDs(t *testing.T) {
	root := filepath.Join(t.TempDir(), "state")
	home := &state.Home{Root: root}
	if got := CompletionSessionIDs(home); got != nil {
		t.Errorf("no state: sessions %q", got)
	}
	if got := CompletionCleanupRunIDs(home); got != nil {
		t.Errorf("no state: cleanup runs %q", got)
	}
	if _, err := os.Stat(root); !os.IsNotExist(err) {
		t.Fatalf("the state directory was created: %v", err)
	}
	files := []string{
		"sessions/0b6f0a52-4d6e-4bfa-9a0e-1f0c4f8f1d11.json",
		"sessions/0b6f0a52-4d6e-4bfa-9a0e-1f0c4f8f1d11.homeconfig",
		"sessions/not-a-session.json",
		"history/0123456789abcdef/aaaaaaaa-1111-4222-8333-444444444444.json",
		"history/0123456789abcdef/aaaaaaaa-1111-4222-8333-444444444444.log",
		"history/0123456789abcdef/checkpoint.json",
		"history/fedcba9876543210/11111111-2222-4333-8444-555555555555.json",
		"schedules/0123456789abcdef.toml",
		"evals/run-b/manifest.json",
		"evals/run-a/manifest.json",
	}
	for _, f := range files {
		p := filepath.Join(root, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("{}"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for name, tc := range map[string]struct{ got, want []string }{
		"sessions":  {CompletionSessionIDs(home), []string{"0b6f0a52-4d6e-4bfa-9a0e-1f0c4f8f1d11"}},
		"runs":      {CompletionCleanupRunIDs(home), []string{"11111111-2222-4333-8444-555555555555", "aaaaaaaa-1111-4222-8333-444444444444"}},
		"schedules": {CompletionScheduleIDs(home), []string{"0123456789abcdef"}},
		"evals":     {CompletionEvalRunIDs(home), []string{"run-a", "run-b"}},
	} {
		if diff := cmp.Diff(tc.want, tc.got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", name, diff)
		}
	}
	// A symlinked state directory is not read.
	if err := os.Rename(filepath.Join(root, "evals"), filepath.Join(root, "evals.real")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("evals.real", filepath.Join(root, "evals")); err != nil {
		t.Fatal(err)
	}
	if got := CompletionEvalRunIDs(home); got != nil {
		t.Errorf("a symlinked evals directory: %q", got)
	}
}
