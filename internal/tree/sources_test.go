package tree

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/git-context-tree/git-context-tree/contracts"
)

func TestParseLineRange(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want LineRange
		bad  bool
	}{
		{in: "12-40", want: LineRange{12, 40}},
		{in: "7", want: LineRange{7, 7}},
		{in: "3-3", want: LineRange{3, 3}},
		{in: "40-12", bad: true},
		{in: "0-3", bad: true},
		{in: "03-4", bad: true},
		{in: "1-", bad: true},
		{in: "-4", bad: true},
		{in: "1 - 4", bad: true},
		{in: "a-b", bad: true},
		{in: "", bad: true},
	} {
		got, err := ParseLineRange(tc.in)
		if (err != nil) != tc.bad {
			t.Errorf("ParseLineRange(%q) error = %v, want bad %v", tc.in, err, tc.bad)
			continue
		}
		if !tc.bad && got != tc.want {
			t.Errorf("ParseLineRange(%q) = %v, want %v", tc.in, got, tc.want)
		}
		if !tc.bad && got.String() != tc.in && tc.in != "3-3" {
			t.Errorf("LineRange(%q).String() = %q", tc.in, got.String())
		}
	}
}

func TestCleanSourcePath(t *testing.T) {
	for p, ok := range map[string]bool{
		"src/a.go": true, "a": true, ".github/x.yml": true,
		"": false, "/etc/passwd": false, "../x": false, "..": false, "a/../../x": false,
		"./a": false, "a//b": false, "a\\b": false, ".": false, "a/": false,
	} {
		if err := CleanSourcePath(p); (err == nil) != ok {
			t.Errorf("CleanSourcePath(%q) = %v, want ok %v", p, err, ok)
		}
	}
}

func TestDocumentSources(t *testing.T) {
	doc := ParseDocument("a.md", []byte("---\ntitle: A\nsources:\n  - path: src/a.go\n    lines: 12-40\n    commit: ABCDEF0\n    sha256: 0123456789ABCDEF\n    note: kept\n  - path: src/b.go\n    lines: 5\n  - {path: x.go, repository: tools}\n---\nBody\n"), false)
	if len(doc.Findings) != 0 {
		t.Fatalf("findings: %v", doc.Findings)
	}
	want := []Source{
		{EvidenceSource: contracts.EvidenceSource{Path: "src/a.go", Lines: "12-40", Commit: "abcdef0", Sha256: "0123456789abcdef"}, Index: 0, Line: 4, Range: LineRange{12, 40}},
		{EvidenceSource: contracts.EvidenceSource{Path: "src/b.go", Lines: "5"}, Index: 1, Line: 9, Range: LineRange{5, 5}},
		{EvidenceSource: contracts.EvidenceSource{Path: "x.go", Repository: "tools"}, Index: 2, Line: 11},
	}
	if diff := cmp.Diff(want, doc.Meta.Sources); diff != "" {
		t.Errorf("sources (-want +got):\n%s", diff)
	}
}

func TestCitingDocuments(t *testing.T) {
	files := map[string]string{"NODE.md": rootNode}
	for i := range 40 {
		files[fmt.Sprintf("d%d/NODE.md", i)] = "---\ntitle: D\n---\n"
		files[fmt.Sprintf("d%d/a.md", i)] = fmt.Sprintf("---\ntitle: A\nsources:\n  - path: src/f%d.go\n    lines: 1-2\n---\n", i)
		files[fmt.Sprintf("d%d/b.md", i)] = "---\ntitle: B\ndescription: mentions sources: but has none\n---\n"
	}
	files["bad.md"] = "---\ntitle: Bad\nsources: [x]\n---\n"
	files[".hidden/c.md"] = "---\ntitle: C\nsources:\n  - path: x.go\n---\n"
	got, err := CitingDocuments(writeTree(t, files))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 41 || got[0].Path != "bad.md" || len(got[0].Findings) != 1 || len(got[0].Sources) != 0 {
		t.Fatalf("%d citing documents, first %+v", len(got), got[0])
	}
	for _, c := range got[1:] {
		if len(c.Sources) != 1 || c.Sources[0].Range != (LineRange{1, 2}) || len(c.Findings) != 0 {
			t.Errorf("%s: %+v", c.Path, c)
		}
	}
}
