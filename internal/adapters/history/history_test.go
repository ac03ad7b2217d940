package history

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/adapters/state"
)

func TestBound(t *testing.T) {
	text := strings.Repeat("line of text\n", 100)
	got, cut := Bound(text, 200)
	if !cut || len(got) > 200 || !strings.HasSuffix(got, truncMark) {
		t.Errorf("Bound: cut=%v len=%d %q", cut, len(got), got)
	}
	if got, cut := Bound("short", 200); cut || got != "short" {
		t.Errorf("Bound(short) = %q, %v", got, cut)
	}
}

func TestSaveRedactsAndPrunes(t *testing.T) {
	s := Store{Home: &state.Home{Root: t.TempDir()}, ScheduleID: "0123456789abcdef"}
	ids := []string{
		"01a00000-0000-7000-8000-000000000001", "01a00000-0000-7000-8000-000000000002",
		"01a00000-0000-7000-8000-000000000003",
	}
	for _, id := range ids {
		rec := &contracts.RunRecord{ID: id, ScheduleID: s.ScheduleID, Outcome: contracts.OutcomeFailed, Reason: "push to https://u:hunter2@x/y failed"}
		if err := s.Save(rec); err != nil {
			t.Fatal(err)
		}
		if _, err := s.SaveOutput(id, []byte("GITHUB_TOKEN=ghp_abcdefghijklmnopqrstuvwxyz\n"), 1000); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Prune(2); err != nil {
		t.Fatal(err)
	}
	got, _ := s.IDs()
	if diff := cmp.Diff(ids[1:], got); diff != "" {
		t.Errorf("kept runs (-want +got):\n%s", diff)
	}
	dir := s.Home.Path("history", s.ScheduleID)
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if d.IsDir() {
			return nil
		}
		data, _ := os.ReadFile(p)
		if strings.Contains(string(data), "hunter2") || strings.Contains(string(data), "ghp_") {
			t.Errorf("%s holds a credential: %s", p, data)
		}
		return nil
	})
	if err := s.SetCheckpoint("abc", ids[2]); err != nil || s.Checkpoint() != "abc" {
		t.Errorf("checkpoint: %v %q", err, s.Checkpoint())
	}
}
