package record

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/adapters/state"
	"github.com/git-context-tree/git-context-tree/internal/sources"
)

const testID = "0b5e7c1e-5a3c-4b7e-9f59-3d0c5a1f7e21"

// validSession is a session as prepare records it, of a directory or a
// git source.
func validSession(kind contracts.SourceKind) *contracts.Session {
	src := contracts.Source{Kind: contracts.SourceDirectory, Path: "docs"}
	repo := contracts.SessionRepository{Kind: kind, Root: "/p", CommonDir: "/p/.git"}
	if kind == contracts.SourceGit {
		src = contracts.Source{Kind: contracts.SourceGit, Repository: "acme/handbook", Path: "docs", Ref: "main"}
		repo = contracts.SessionRepository{Kind: kind, Root: "/s/repos/acme/handbook.git", CommonDir: "/s/repos/acme/handbook.git", Origin: sources.OriginURL("acme/handbook")}
	}
	c := sources.NewConnection("/p", src)
	return &contracts.Session{
		ID: testID, State: contracts.SessionOpen, Connection: c.Ref(), Identity: c.Identity,
		ProjectRoot: "/p", Repository: repo, Subtree: "docs", Base: strings.Repeat("a", 40),
		Branch: BranchPrefix + testID, Worktree: "/s/worktrees/" + testID, ContentRoot: "/s/worktrees/" + testID + "/docs",
		CreatedAt: "2024-01-01T00:00:00Z",
	}
}

// TestLoadRefusesRecordWithoutRequiredParts: a session's repository,
// worktree and task branch are required (S12), in the form the session
// schema gives them; a record edited to lack one, or to hold one the
// schema refuses, is damaged (STATE_INVALID naming the file and the
// field), never listed as a session nor handed to git.
func TestLoadRefusesRecordWithoutRequiredParts(t *testing.T) {
	for _, c := range []struct {
		name  string
		kind  contracts.SourceKind
		edit  func(m map[string]any)
		field string
	}{
		{"no repository", contracts.SourceDirectory, func(m map[string]any) { delete(m, "repository") }, "repository"},
		{"empty repository", contracts.SourceDirectory, func(m map[string]any) { m["repository"] = map[string]any{} }, "repository"},
		{"repository of another kind", contracts.SourceDirectory, func(m map[string]any) { repo(m)["kind"] = "git" }, "repository.kind"},
		{"relative repository root", contracts.SourceDirectory, func(m map[string]any) { repo(m)["root"] = "p" }, "repository.root"},
		{"no common dir", contracts.SourceDirectory, func(m map[string]any) { delete(repo(m), "commonDir") }, "repository.commonDir"},
		{"git without origin", contracts.SourceGit, func(m map[string]any) { delete(repo(m), "origin") }, "repository.origin"},
		{"git with a foreign origin", contracts.SourceGit, func(m map[string]any) { repo(m)["origin"] = "https://example.com/a/b.git" }, "repository.origin"},
		{"empty worktree", contracts.SourceDirectory, func(m map[string]any) { m["worktree"] = "" }, "worktree"},
		{"no worktree", contracts.SourceGit, func(m map[string]any) { delete(m, "worktree") }, "worktree"},
		{"relative worktree", contracts.SourceDirectory, func(m map[string]any) { m["worktree"] = "worktrees/x" }, "worktree"},
		{"empty branch", contracts.SourceDirectory, func(m map[string]any) { m["branch"] = "" }, "branch"},
		{"no branch", contracts.SourceGit, func(m map[string]any) { delete(m, "branch") }, "branch"},
		{"foreign branch", contracts.SourceDirectory, func(m map[string]any) { m["branch"] = "main" }, "branch"},
		{"bare prefix branch", contracts.SourceDirectory, func(m map[string]any) { m["branch"] = BranchPrefix }, "branch"},
	} {
		t.Run(c.name, func(t *testing.T) {
			st := Store{Home: &state.Home{Root: filepath.Join(t.TempDir(), "state")}}
			path := saveEdited(t, st, validSession(c.kind), c.edit)
			_, err := st.Load(testID)
			var ce *contracts.Error
			if !errors.As(err, &ce) {
				t.Fatalf("Load = %v, want a %s error", err, contracts.CodeStateInvalid)
			}
			want := map[string]any{"session": testID, "path": path, "field": c.field}
			if ce.Code != contracts.CodeStateInvalid || !strings.Contains(ce.Message, path) || !strings.Contains(ce.Message, c.field) {
				t.Errorf("Load = %s %q, want %s naming %s and %s", ce.Code, ce.Message, contracts.CodeStateInvalid, path, c.field)
			}
			if diff := cmp.Diff(want, ce.Details); diff != "" {
				t.Errorf("details (-want +got):\n%s", diff)
			}
		})
	}
}

// TestLoadAcceptsCompleteRecords: records as prepare writes them load
// unchanged (a closed session keeps its fields too).
func TestLoadAcceptsCompleteRecords(t *testing.T) {
	for _, kind := range []contracts.SourceKind{contracts.SourceDirectory, contracts.SourceGit} {
		t.Run(string(kind), func(t *testing.T) {
			st := Store{Home: &state.Home{Root: filepath.Join(t.TempDir(), "state")}}
			s := validSession(kind)
			s.ClosedAt = "2024-01-02T00:00:00Z"
			if err := st.Save(s); err != nil {
				t.Fatal(err)
			}
			got, err := st.Load(testID)
			if err != nil {
				t.Fatalf("Load: %v", err)
			}
			if diff := cmp.Diff(s, got); diff != "" {
				t.Errorf("Load (-saved +loaded):\n%s", diff)
			}
		})
	}
}

func repo(m map[string]any) map[string]any { return m["repository"].(map[string]any) }

// saveEdited saves s, applies edit to its stored JSON and returns the
// record's path.
func saveEdited(t *testing.T, st Store, s *contracts.Session, edit func(map[string]any)) string {
	t.Helper()
	if err := st.Save(s); err != nil {
		t.Fatal(err)
	}
	path := st.Home.Path("sessions", s.ID+".json")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	edit(m)
	if data, err = json.Marshal(m); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}
