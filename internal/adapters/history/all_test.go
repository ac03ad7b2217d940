package history

import (
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/adapters/state"
)

// TestAllGoesOnPastAnUnreadableRecord: a damaged run record, or a symlink
// in one's place, is named among the unreadable with its file and error;
// the other runs are read all the same.
func TestRunsGoesOnPastAnUnreadableRecord(t *testing.T) {
	s := Store{Home: &state.Home{Root: t.TempDir()}, ScheduleID: "0123456789abcdef"}
	ids := []string{"01a00000-0000-7000-8000-000000000001", "01a00000-0000-7000-8000-000000000002", "01a00000-0000-7000-8000-000000000003"}
	for _, id := range ids {
		if err := s.Save(&contracts.RunRecord{ID: id, ScheduleID: s.ScheduleID, Outcome: contracts.OutcomeNoop}); err != nil {
			t.Fatal(err)
		}
	}
	damaged := s.Home.Path("history", s.ScheduleID, ids[0]+".json")
	if err := os.WriteFile(damaged, []byte("{"), 0o600); err != nil {
		t.Fatal(err)
	}
	linked := s.Home.Path("history", s.ScheduleID, ids[2]+".json")
	if err := os.Remove(linked); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(s.Home.Path("history", s.ScheduleID, ids[1]+".json"), linked); err != nil {
		t.Fatal(err)
	}

	listed, err := s.IDs()
	if err != nil {
		t.Fatal(err)
	}
	runs, unreadable, err := s.Runs(listed)
	if err != nil {
		t.Fatalf("Runs: %v", err)
	}
	if len(runs) != 1 || runs[0].ID != ids[1] {
		t.Errorf("runs = %+v, want only %s", runs, ids[1])
	}
	type entry struct {
		ID, Record string
		Code       contracts.ErrorCode
	}
	var got []entry
	for _, u := range unreadable {
		got = append(got, entry{u.ID, u.Record, u.Error.Code})
	}
	want := []entry{{ids[0], damaged, contracts.CodeStateInvalid}, {ids[2], linked, contracts.CodeStateInvalid}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("unreadable (-want +got):\n%s", diff)
	}
}
