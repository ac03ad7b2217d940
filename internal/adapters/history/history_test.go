package history

import (
	"errors"
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
	if err := s.SetCheckpoint("abc", ids[2]); err != nil {
		t.Fatal(err)
	}
	if got, err := s.Checkpoint(); err != nil || got != "abc" {
		t.Errorf("Checkpoint() = %q, %v; want abc", got, err)
	}
}

// TestReadsRefuseSymlinks: a checkpoint or a history elsewhere, reached
// through a symlink in the state, decides nothing (S18).
func TestReadsRefuseSymlinks(t *testing.T) {
	const run = "01a00000-0000-7000-8000-000000000001"
	newStore := func(t *testing.T) (Store, Store) {
		base := t.TempDir()
		s := Store{Home: &state.Home{Root: filepath.Join(base, "state")}, ScheduleID: "0123456789abcdef"}
		other := Store{Home: &state.Home{Root: filepath.Join(base, "outside")}, ScheduleID: s.ScheduleID}
		for _, st := range []Store{s, other} {
			if err := st.Save(&contracts.RunRecord{ID: run, ScheduleID: st.ScheduleID, Outcome: contracts.OutcomeNoop}); err != nil {
				t.Fatal(err)
			}
			if _, err := st.SaveOutput(run, []byte("output\n"), 100); err != nil {
				t.Fatal(err)
			}
			if err := st.SetCheckpoint("digest", run); err != nil {
				t.Fatal(err)
			}
		}
		return s, other
	}
	link := func(t *testing.T, s, other Store, parts ...string) string {
		path := s.Home.Path(parts...)
		if err := os.RemoveAll(path); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(other.Home.Path(parts...), path); err != nil {
			t.Fatal(err)
		}
		return path
	}
	reads := map[string]func(Store) error{
		"Checkpoint": func(s Store) error { _, err := s.Checkpoint(); return err },
		"IDs":        func(s Store) error { _, err := s.IDs(); return err },
		"Load":       func(s Store) error { _, err := s.Load(run); return err },
		"Output":     func(s Store) error { _, err := s.Output(run); return err },
		"Runs": func(s Store) error {
			_, bad, err := s.Runs([]string{run})
			if err == nil && len(bad) == 1 {
				return bad[0].Error // the record is named, not read
			}
			return err
		},
		"Purge": func(s Store) error { return s.Purge() },
	}
	for _, linked := range [][]string{{"history"}, {"history", "0123456789abcdef"}} {
		for name, read := range reads {
			t.Run(strings.Join(linked, "/")+"/"+name, func(t *testing.T) {
				s, other := newStore(t)
				path := link(t, s, other, linked...)
				got := codeAndPath(read(s))
				if diff := cmp.Diff([2]any{contracts.CodeStateInvalid, path}, got); diff != "" {
					t.Errorf("%s (-want +got):\n%s", name, diff)
				}
				if _, err := other.Load(run); err != nil {
					t.Errorf("the history elsewhere was touched: %v", err)
				}
			})
		}
	}
	for file, read := range map[string]func(Store) error{
		"checkpoint.json": reads["Checkpoint"],
		run + ".json":     reads["Load"],
		run + ".log":      reads["Output"],
	} {
		t.Run(file, func(t *testing.T) {
			s, other := newStore(t)
			path := link(t, s, other, "history", s.ScheduleID, file)
			if diff := cmp.Diff([2]any{contracts.CodeStateInvalid, path}, codeAndPath(read(s))); diff != "" {
				t.Errorf("reading %s (-want +got):\n%s", file, diff)
			}
		})
	}
}

func codeAndPath(err error) [2]any {
	var ce *contracts.Error
	if !errors.As(err, &ce) {
		return [2]any{nil, err}
	}
	return [2]any{ce.Code, ce.Details["path"]}
}
