package cleanup

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/adapters/state"
	"github.com/git-context-tree/git-context-tree/internal/operations"
	"github.com/git-context-tree/git-context-tree/internal/operations/session/record"
	"github.com/git-context-tree/git-context-tree/internal/sources"
)

// TestRecordsStoreNoSelectors: session and schedule records keep the
// source and its identity, never selectors (S6); reading one generates
// them, and an older record that still carries them loads with generated
// ones instead. A record whose identity is not its source's is damaged.
func TestRecordsStoreNoSelectors(t *testing.T) {
	env := operations.Env{Home: &state.Home{Root: filepath.Join(t.TempDir(), "state")}}
	for _, c := range []sources.Connection{
		sources.NewConnection("/p", contracts.Source{Kind: contracts.SourceDirectory, Path: "docs/ctx"}),
		sources.NewConnection("/p", contracts.Source{Kind: contracts.SourceGit, Repository: "Acme/Handbook", Path: "teams/a b", Ref: "feature/x"}),
	} {
		t.Run(c.Short, func(t *testing.T) {
			s := &contracts.Session{ID: "0b5e7c1e-5a3c-4b7e-9f59-3d0c5a1f7e21", Connection: c.Ref(), Identity: c.Identity,
				Repository: contracts.SessionRepository{Kind: c.Source.Kind, Root: "/r", CommonDir: "/r/.git"},
				Branch:     record.BranchPrefix + "0b5e7c1e-5a3c-4b7e-9f59-3d0c5a1f7e21", Worktree: "/w"}
			if c.Source.Kind == contracts.SourceGit {
				s.Repository.Origin = sources.OriginURL(c.Source.Repository)
			}
			if err := (record.Store{Home: env.Home}).Save(s); err != nil {
				t.Fatal(err)
			}
			sessionFile := env.Home.Path("sessions", s.ID+".json")
			checkStored(t, sessionFile, c)
			got, err := (record.Store{Home: env.Home}).Load(s.ID)
			if err != nil || got.Connection != c.Ref() {
				t.Fatalf("loadSession = %+v, %v; want connection %+v", got, err, c.Ref())
			}

			rec := &contracts.Schedule{ID: ScheduleID(c.Identity, "main"), Connection: c.Ref(), Identity: c.Identity, Branch: "main"}
			data, err := encodeSchedule(rec)
			if err != nil {
				t.Fatal(err)
			}
			scheduleFile := schedulePath(env, rec.ID)
			writeRecord(t, scheduleFile, string(data))
			checkStored(t, scheduleFile, c)
			sched, _, err := loadSchedule(env, rec.ID)
			if err != nil || sched.Connection != c.Ref() {
				t.Fatalf("loadSchedule = %+v, %v; want connection %+v", sched, err, c.Ref())
			}

			// Older records with selectors (edited: only the display
			// changed) load with generated ones.
			old, _ := os.ReadFile(sessionFile)
			writeRecord(t, sessionFile, mustReplace(t, string(old), `"connection": {`,
				`"connection": {"selector": "edited", "exact": "/edited",`))
			if got, err := (record.Store{Home: env.Home}).Load(s.ID); err != nil || got.Connection != c.Ref() {
				t.Errorf("old session record: %+v, %v; want connection %+v", got, err, c.Ref())
			}
			writeRecord(t, scheduleFile, mustReplace(t, string(data), "[connection]\n",
				"[connection]\n  Selector = \"edited\"\n  Exact = \"/edited\"\n"))
			if sched, _, err := loadSchedule(env, rec.ID); err != nil || sched.Connection != c.Ref() {
				t.Errorf("old schedule record: %+v, %v; want connection %+v", sched, err, c.Ref())
			}

			// An identity that is not the source's is damage.
			writeRecord(t, sessionFile, mustReplace(t, string(old), `"identity": "`, `"identity": "x`))
			if _, err := (record.Store{Home: env.Home}).Load(s.ID); !isCode(err, contracts.CodeStateInvalid) {
				t.Errorf("session with a foreign identity: %v, want %s", err, contracts.CodeStateInvalid)
			}
			writeRecord(t, scheduleFile, mustReplace(t, string(data), "identity = \"", "identity = \"x"))
			if _, _, err := loadSchedule(env, rec.ID); !isCode(err, contracts.CodeStateInvalid) {
				t.Errorf("schedule with a foreign identity: %v, want %s", err, contracts.CodeStateInvalid)
			}
		})
	}
}

// checkStored fails when a record holds a selector.
func checkStored(t *testing.T, file string, c sources.Connection) {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	// A directory's exact selector is its identity's path, so only a git
	// source's exact selector is looked for as a value (a session keeps
	// its repository's origin URL, which is not one).
	bads := []string{`"selector"`, `"exact"`, "Selector =", "Exact ="}
	if c.Source.Kind == contracts.SourceGit {
		bads = append(bads, c.Ref().Exact)
	}
	for _, bad := range bads {
		if strings.Contains(string(data), bad) {
			t.Errorf("%s stores %q:\n%s", filepath.Base(file), bad, data)
		}
	}
	if !strings.Contains(string(data), c.Source.Path) {
		t.Errorf("%s does not store the source:\n%s", filepath.Base(file), data)
	}
}

func writeRecord(t *testing.T, file, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(file), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
}

func isCode(err error, code contracts.ErrorCode) bool {
	ce, ok := err.(*contracts.Error)
	return ok && ce.Code == code
}

func mustReplace(t *testing.T, s, old, new string) string {
	t.Helper()
	if !strings.Contains(s, old) {
		t.Fatalf("no %q in:\n%s", old, s)
	}
	return strings.Replace(s, old, new, 1)
}
