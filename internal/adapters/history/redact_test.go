package history

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/adapters/state"
	"github.com/git-context-tree/git-context-tree/internal/redact/redacttest"
)

// Every corpus secret given to a run record or an agent log stays out of
// the history files.
func TestHistoryCorpusNoLeak(t *testing.T) {
	cs := redacttest.Corpus()
	s := Store{Home: &state.Home{Root: t.TempDir()}, ScheduleID: "0123456789abcdef"}
	var all []string
	for _, c := range cs {
		all = append(all, c.Text)
	}
	text := strings.Join(all, "\n")
	id := "01a00000-0000-7000-8000-000000000001"
	rec := &contracts.RunRecord{ID: id, ScheduleID: s.ScheduleID, Outcome: contracts.OutcomeFailed, Reason: text,
		Error: &contracts.Error{Code: contracts.CodeInternal, Message: text, Details: map[string]any{"stderr": text, "args": []string{"--token", "hunter2hunter2"}}},
		Paths: all}
	if err := s.Save(rec); err != nil {
		t.Fatal(err)
	}
	if _, err := s.SaveOutput(id, []byte(text), 1<<20); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{id + ".json", id + ".log"} {
		data, err := os.ReadFile(filepath.Join(s.Home.Path("history", s.ScheduleID), name))
		if err != nil {
			t.Fatal(err)
		}
		if leaks := redacttest.Leaks(string(data), cs); len(leaks) > 0 {
			t.Errorf("%s leaks %d secrets: %q", name, len(leaks), leaks)
		}
	}
	got, err := s.Load(id)
	if err != nil || got.ID != id {
		t.Errorf("the redacted record does not load back: %v", err)
	}
}
