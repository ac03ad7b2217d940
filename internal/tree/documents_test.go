package tree

import (
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/git-context-tree/git-context-tree/contracts"
)

func TestListDocumentsWalksContentOnly(t *testing.T) {
	root := writeTree(t, map[string]string{
		"NODE.md":              "---\nschemaVersion: 1\ntitle: R\n---\nroot\n",
		"a/NODE.md":            doc("A", "a\n"),
		"a/x.md":               doc("X", "x\n"),
		"a/asset.png":          "png",
		".git/HEAD.md":         doc("no", "no\n"),
		"scripts/run.md":       doc("no", "no\n"),
		"a/node_modules/m.md":  doc("no", "no\n"),
		"members/me/NODE.md":   doc("Me", "me\n"),
		"CLAUDE.md":            doc("no", "no\n"),
		"outside/elsewhere.md": doc("E", "e\n"),
	})
	mustSymlink(t, filepath.Join(root, "outside", "elsewhere.md"), filepath.Join(root, "a", "link.md"))
	mustSymlink(t, filepath.Join(root, "outside"), filepath.Join(root, "linkdir"))
	docs, err := ListDocuments(root)
	if err != nil {
		t.Fatal(err)
	}
	var rels []string
	for _, d := range docs {
		rels = append(rels, d.Rel)
	}
	want := []string{"NODE.md", "a/NODE.md", "a/x.md", "members/me/NODE.md", "outside/elsewhere.md"}
	if diff := cmp.Diff(want, rels); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestLoadDocumentHasReadsGuarantees(t *testing.T) {
	root := writeTree(t, map[string]string{
		"NODE.md":   "---\nschemaVersion: 1\ntitle: R\n---\nroot\n",
		"a/NODE.md": "---\ntitle: A\ndescription: About a\n---\n\nbody of a\n",
		"b.md":      doc("B", "b\n"),
	})
	var buf []byte
	d, err := LoadDocument(root, "a/NODE.md", &buf, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := LoadedDocument{Node: "a", Kind: contracts.KindDirectory, Class: contracts.ClassNormal, Title: "A", Description: "About a", Body: []byte("\nbody of a\n"), BodyLine: 5}
	if diff := cmp.Diff(want, *d); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	mustSymlink(t, filepath.Join(root, "b.md"), filepath.Join(root, "c.md"))
	mustLink(t, filepath.Join(root, "b.md"), filepath.Join(root, "hard.md"))
	for rel, code := range map[string]contracts.ErrorCode{
		"c.md":      contracts.CodeReadSymlink,
		"hard.md":   contracts.CodeReadNotRegular,
		"AGENTS.md": contracts.CodeReadNotMarkdown,
		"gone.md":   contracts.CodeReadNotFound,
	} {
		if _, err := LoadDocument(root, rel, &buf, nil); errCode(err) != code {
			t.Errorf("%s: %v, want %s", rel, err, code)
		}
	}
}
