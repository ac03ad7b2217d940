package annotations

import (
	"bytes"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/git-context-tree/git-context-tree/contracts"
)

func TestFromDriftPlacesEachEntry(t *testing.T) {
	rep := &contracts.DriftReport{Trees: []contracts.DriftTree{
		{Root: "/repo/docs", Documents: []contracts.DriftDocument{{Path: "api.md", Sources: []contracts.DriftSource{
			{Index: 0, Line: 4, Path: "src/a.go", Lines: "1-2", Status: contracts.DriftChanged, CurrentPath: "src/b.go", CurrentLines: "3-4", Commits: []string{"0123456789"}},
			{Index: 1, Line: 6, Path: "src/gone.go", Status: contracts.DriftDeleted},
			{Index: 2, Line: 8, Path: "lib/x.go", Repository: "tools", Status: contracts.DriftChanged, CurrentPath: "lib/x.go"},
			{Index: 3, Line: 9, Path: "src/c.go", Status: contracts.DriftUnstamped},
		}}}},
		// A git source's snapshot lies outside the repository.
		{Root: "/home/u/.cache/snapshots/abc", Documents: []contracts.DriftDocument{{Path: "guide.md", Sources: []contracts.DriftSource{
			{Index: 0, Line: 5, Path: "app/main.go", Status: contracts.DriftChanged, CurrentPath: "app/main.go"},
		}}}},
	}}
	got := FromDrift(rep, "/repo")
	type placed struct {
		Rule, Level string
		Where       *Location
		Related     []Location
	}
	var gotPlaced []placed
	for _, a := range got {
		gotPlaced = append(gotPlaced, placed{a.Rule, a.Level, a.Where, a.Related})
	}
	doc := func(line int) *Location { return &Location{Path: "docs/api.md", StartLine: line, EndLine: line} }
	want := []placed{
		{"DRIFT_CHANGED", levelWarning, &Location{Path: "src/b.go", StartLine: 3, EndLine: 4}, []Location{*doc(4)}},
		{"DRIFT_DELETED", levelWarning, doc(6), nil},
		{"DRIFT_CHANGED", levelWarning, doc(8), nil},
		{"DRIFT_UNSTAMPED", levelNote, doc(9), nil},
		{"DRIFT_CHANGED", levelWarning, &Location{Path: "app/main.go"}, nil},
	}
	if d := cmp.Diff(want, gotPlaced); d != "" {
		t.Errorf("placements (-want +got):\n%s", d)
	}
}

func TestWriteGitHubEscapes(t *testing.T) {
	var b bytes.Buffer
	err := WriteGitHub(&b, []Annotation{
		{Level: levelError, Title: "a: b, c", Message: "100% sure\nsecond line", Where: &Location{Path: "d,e:f.md", StartLine: 7, EndLine: 7}},
		{Level: levelNote, Title: "t", Message: "m"},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := "::error file=d%2Ce%3Af.md,line=7,title=a%3A b%2C c::100%25 sure%0Asecond line\n::notice title=t::m\n"
	if d := cmp.Diff(want, b.String()); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}
