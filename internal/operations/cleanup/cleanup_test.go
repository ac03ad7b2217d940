package cleanup

import (
	"testing"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/adapters/git"
)

func TestCleanupEditable(t *testing.T) {
	s := &contracts.Session{Subtree: "docs"}
	for _, c := range []struct {
		path, mode string
		want       bool
	}{
		{"docs/a.md", "100644", true},
		{"docs/members/ann/n.md", "100644", true},
		{"docs/run.md", "100755", true},
		{"docs/gone.md", "000000", true},
		{"docs/data.txt", "100644", false},
		{"docs/AGENTS.md", "100644", false},
		{"docs/.hidden/x.md", "100644", false},
		{"docs/scripts/x.md", "100644", false},
		{"docs/link.md", "120000", false},
		{"docs/sub.md", "160000", false},
		{"README.md", "100644", false},
	} {
		if got := cleanupEditable(s, git.TreeChange{Path: c.path, NewMode: c.mode}); got != c.want {
			t.Errorf("cleanupEditable(%q, %s) = %v, want %v", c.path, c.mode, got, c.want)
		}
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
