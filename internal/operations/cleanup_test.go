package operations

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/git-context-tree/git-context-tree/contracts"
)

func TestCleanupEditable(t *testing.T) {
	wt := t.TempDir()
	os.MkdirAll(filepath.Join(wt, "docs", "members", "ann"), 0o755)
	for _, f := range []string{"docs/a.md", "docs/members/ann/n.md", "docs/data.txt", "docs/AGENTS.md", "README.md"} {
		os.WriteFile(filepath.Join(wt, f), []byte("x"), 0o644)
	}
	os.Symlink("a.md", filepath.Join(wt, "docs", "link.md"))
	s := &contracts.Session{Worktree: wt, Subtree: "docs"}
	for p, want := range map[string]bool{
		"docs/a.md": true, "docs/members/ann/n.md": true, "docs/gone.md": true,
		"docs/data.txt": false, "docs/AGENTS.md": false, "docs/.hidden/x.md": false, "docs/scripts/x.md": false,
		"docs/link.md": false, "README.md": false, "docs/sub/": false,
	} {
		if got := cleanupEditable(s, p, '?'); got != want {
			t.Errorf("cleanupEditable(%q) = %v, want %v", p, got, want)
		}
	}
	if cleanupEditable(s, "docs/a.md", '!') {
		t.Error("an ignored file is editable")
	}
}

func TestScheduleIDPinsIdentityAndBranch(t *testing.T) {
	a := ScheduleID("git:acme/h\x00docs\x00main", "main")
	if a != ScheduleID("git:acme/h\x00docs\x00main", "main") || !validScheduleID(a) {
		t.Fatalf("unstable or invalid id %q", a)
	}
	if a == ScheduleID("git:acme/h\x00docs\x00main", "dev") || a == ScheduleID("directory:/x", "main") {
		t.Error("different sources or branches share an id")
	}
}
