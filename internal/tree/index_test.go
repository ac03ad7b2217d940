package tree

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/treegen"
)

// TestVerifyIndexResultsEqualsVerifyIndex: verifying from each document's
// CheckDocument result (what verify --staged caches) reports exactly what
// verifying from the documents' bytes reports, on generated trees (links
// escaping only inside code included) and on documents with every kind of
// per-document finding, symlink and gitlink entries among them.
func TestVerifyIndexResultsEqualsVerifyIndex(t *testing.T) {
	t.Parallel()
	gen := t.TempDir()
	if err := treegen.Generate(gen, treegen.Options{Seed: 11, Docs: 500, WideChildren: 25, EscapesInCode: 100}); err != nil {
		t.Fatal(err)
	}
	entries, blobs := indexOf(t, gen)
	extra := map[string]string{
		"bad/NODE.md":    "---\ndescription: no title\nsoft_links: [gone.md, /../up.md, https://example.com/x, wide]\n---\n\n[out](../../x) `[in code](../../../y)`\n",
		"bad/nofm.md":    "no frontmatter\n",
		"bad/yaml.md":    "---\ntitle: [unclosed\n---\n",
		"bad/types.md":   "---\ntitle: 3\ndescription: [x]\nsoft_links: 7\nschemaVersion: 1\n---\n",
		"orphan/doc.md":  doc("Orphan", "no index above\n"),
		"members/m.md":   doc("Member", "[up](../../z)\n"),
		"bad/big.md":     "---\ntitle: Big\n---\n" + strings.Repeat("y", contracts.MaxDocumentBytes),
		"bad/empty.md":   "",
		"bad/crlf.md":    "---\r\ntitle: CRLF\r\n---\r\n\r\n[x](../../../w)\r\n",
		".github/ci.md":  "infrastructure, never read",
		"bad/figure.svg": "<svg/>",
	}
	for rel, content := range extra {
		entries = append(entries, IndexEntry{Path: rel, Mode: "100644"})
		blobs[rel] = []byte(content)
	}
	entries = append(entries, IndexEntry{Path: "bad/link.md", Mode: "120000"}, IndexEntry{Path: "bad/sub", Mode: "160000"}, IndexEntry{Path: "bad/run.md", Mode: "100755"})
	blobs["bad/run.md"] = []byte(doc("Executable", ""))

	want := VerifyIndex(entries, blobs)
	results := make([]DocResult, len(entries))
	for i, e := range entries {
		if WantsBlob(e) {
			results[i] = CheckDocument(e.Path, blobs[e.Path])
		}
	}
	got := VerifyIndexResults(entries, results)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("VerifyIndexResults (-VerifyIndex +VerifyIndexResults):\n%s", diff)
	}
	if len(want.Findings) < 12 {
		t.Errorf("only %d findings: the crafted documents did not register", len(want.Findings))
	}
	// Results are bound to paths: the same bytes as the root NODE.md and
	// as a descendant are judged differently.
	root := CheckDocument(NodeFile, blobs[NodeFile])
	desc := CheckDocument("sub/"+NodeFile, blobs[NodeFile])
	if cmp.Equal(root, desc) {
		t.Errorf("the root NODE.md and the same bytes below it gave the same result: %+v", root)
	}
}

// indexOf lists a directory as index entries and blobs.
func indexOf(t *testing.T, dir string) ([]IndexEntry, map[string][]byte) {
	t.Helper()
	var entries []IndexEntry
	blobs := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		data, err := os.ReadFile(p)
		entries = append(entries, IndexEntry{Path: rel, Mode: "100644"})
		blobs[rel] = data
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return entries, blobs
}

// TestVerifyIndexListsEveryDirectory: a directory whose first entry in the
// index's order lies in a subdirectory (hidden, instruction-file named,
// upper-case or digit names sort before NODE.md) is walked all the same:
// the index's verification reports what the disk's does, missing indexes
// and broken documents below such directories included.
func TestVerifyIndexListsEveryDirectory(t *testing.T) {
	t.Parallel()
	files := map[string]string{
		"NODE.md":                   rootNode,
		"a/.notes/x.md":             "infrastructure\n",
		"a/NODE.md":                 doc("A", ""),
		"a/bad.md":                  "no frontmatter\n",
		"b/CLAUDE.md/inner.md":      "skipped\n",
		"b/orphan.md":               doc("No index", ""),
		"c/0first/NODE.md":          doc("First", ""),
		"c/0first/Z/deep/nofm.md":   "no frontmatter\n",
		"c/NODE.md":                 doc("C", "[out](../../../x)\n"),
		"d/E/F/NODE.md":             doc("F", ""),
		"d/E/F/x.md":                "no frontmatter\n",
		"links.md":                  "---\ntitle: Links\nsoft_links: [a, c/0first, d/E/F, d/E/F/x.md, b]\n---\n",
		"members/x/.hidden/y.md":    "skipped\n",
		"members/x/NODE.md":         doc("X", ""),
		"members/NODE.md":           doc("Members", ""),
		"members/x/Upper/NODE.md":   doc("Upper", ""),
		"members/x/Upper/broken.md": "---\ntitle: [unclosed\n---\n",
	}
	root := writeTree(t, files)
	entries, blobs := indexOf(t, root)
	slices.SortFunc(entries, func(a, b IndexEntry) int { return strings.Compare(a.Path, b.Path) })
	want := Verify(root)
	got := VerifyIndex(entries, blobs)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("VerifyIndex (-Verify of the disk +VerifyIndex):\n%s", diff)
	}
	if len(want.Findings) < 8 {
		t.Errorf("only %d findings: the crafted tree did not register: %+v", len(want.Findings), want.Findings)
	}
}
