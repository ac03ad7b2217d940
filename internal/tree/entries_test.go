package tree

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/git-context-tree/git-context-tree/contracts"
)

func TestDocumentsTreeOrderAndRules(t *testing.T) {
	root := writeTree(t, map[string]string{
		"NODE.md":             rootNode,
		"b.md":                doc("B", "\nbody b\n"),
		"A.md":                doc("A", "body a\n"),
		"z/NODE.md":           doc("Z", ""),
		"a/NODE.md":           doc("Dir A", ""),
		"a/x.md":              doc("X", "x\n"),
		"a/sub/NODE.md":       doc("Sub", ""),
		"members/NODE.md":     doc("Members", ""),
		"AGENTS.md":           doc("Agents", ""),
		".hidden/NODE.md":     doc("Hidden", ""),
		"scripts/run.md":      doc("Script", ""),
		"a/node_modules/p.md": doc("Pkg", ""),
		"asset.txt":           "not a document",
		"bad.md":              "---\ntitle: [\n---\nbody\n",
		"notitle.md":          "no frontmatter\n",
	})
	if err := os.Symlink("b.md", filepath.Join(root, "link.md")); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(filepath.Join(root, "a/x.md"), filepath.Join(root, "z/hard.md")); err != nil {
		t.Fatal(err)
	}
	entries, err := Documents(root)
	if err != nil {
		t.Fatal(err)
	}
	type row struct {
		Path, Title, Body string
		Depth             int
		Class             contracts.Class
		Unreadable        bool
	}
	var got []row
	for _, e := range entries {
		got = append(got, row{e.Path, e.Title, e.Body, e.Depth, e.Class, e.Unreadable != ""})
	}
	want := []row{
		{"NODE.md", "Root", "\n# Root\n\nShared context.\n", 0, contracts.ClassNormal, false},
		{"A.md", "A", "body a\n", 0, contracts.ClassNormal, false},
		{"b.md", "B", "\nbody b\n", 0, contracts.ClassNormal, false},
		{"bad.md", "bad", "", 0, contracts.ClassNormal, true},
		{"notitle.md", "notitle", "no frontmatter\n", 0, contracts.ClassNormal, false},
		{"a/NODE.md", "Dir A", "", 1, contracts.ClassNormal, false},
		{"a/x.md", "x", "", 1, contracts.ClassNormal, true}, // hard-linked: unread, named by its file
		{"a/sub/NODE.md", "Sub", "", 2, contracts.ClassNormal, false},
		{"members/NODE.md", "Members", "", 1, contracts.ClassMember, false},
		{"z/NODE.md", "Z", "", 1, contracts.ClassNormal, false},
		{"z/hard.md", "hard", "", 1, contracts.ClassNormal, true},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Documents (-want +got):\n%s", diff)
	}
}
