package record

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/adapters/state"
)

// TestUnreadableNamesTheRecord: a record Load refuses becomes an entry
// naming its id, file and error, with the session's folder when there is
// one; a record removed meanwhile is no entry and no error; an error that
// is not the record's own is handed back.
func TestUnreadableNamesTheRecord(t *testing.T) {
	st := Store{Home: &state.Home{Root: filepath.Join(t.TempDir(), "state")}}
	dir, err := st.Home.Dir("sessions")
	if err != nil {
		t.Fatal(err)
	}
	record := filepath.Join(dir, testID+".json")
	if err := os.WriteFile(record, []byte("{"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, loadErr := st.Load(testID)
	bad, err := st.Unreadable(testID, loadErr)
	if err != nil {
		t.Fatalf("Unreadable(damaged) error: %v", err)
	}
	want := &contracts.SessionUnreadable{ID: testID, Record: record, Error: contracts.Errorf(contracts.CodeStateInvalid, "session record %s is damaged", record)}
	if diff := cmp.Diff(want, bad); diff != "" {
		t.Errorf("Unreadable(damaged) (-want +got):\n%s", diff)
	}

	worktree, err := st.Home.Dir("worktrees", testID)
	if err != nil {
		t.Fatal(err)
	}
	if bad, _ := st.Unreadable(testID, loadErr); bad == nil || bad.Worktree != worktree {
		t.Errorf("Unreadable with the session's folder = %+v, want worktree %s", bad, worktree)
	}

	os.Remove(record)
	_, goneErr := st.Load(testID)
	if bad, err := st.Unreadable(testID, goneErr); bad != nil || err != nil {
		t.Errorf("Unreadable(removed meanwhile) = %+v, %v; want nothing", bad, err)
	}

	other := errors.New("not a record's")
	if bad, err := st.Unreadable(testID, other); bad != nil || err != other {
		t.Errorf("Unreadable(other error) = %+v, %v; want the error back", bad, err)
	}
}
