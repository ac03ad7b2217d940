package tree

import (
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The readers that serve documents show the observer every document they
// parse with its bytes as read: read the node and each child summarised;
// Documents, CitingDocuments and verification every document of the tree
// (those without sources too); LoadDocument the one it loads.
func TestReadersShowWhatTheyParse(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		"NODE.md":       "---\nschemaVersion: 1\ntitle: Root\n---\nRoot.\n",
		"a.md":          "---\ntitle: A\n---\nA.\n",
		"sub/NODE.md":   "---\ntitle: Sub\n---\nSub.\n",
		"sub/deeper.md": "---\ntitle: Deeper\nsources:\n  - path: main.go\n---\nDeeper.\n",
	}
	for name, content := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	record := func() (Observer, map[string]string) {
		var mu sync.Mutex
		seen := map[string]string{}
		return func(rel string, data []byte) {
			mu.Lock()
			seen[rel] = string(data)
			mu.Unlock()
		}, seen
	}
	observe, seen := record()
	if _, err := ReadObserved(root, ".", observe); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"NODE.md": files["NODE.md"], "a.md": files["a.md"], "sub/NODE.md": files["sub/NODE.md"]}
	if diff := cmp.Diff(want, seen); diff != "" {
		t.Errorf("read showed (-want +got):\n%s", diff)
	}
	observe, seen = record()
	if _, err := DocumentsObserved(root, observe); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(files, seen); diff != "" {
		t.Errorf("Documents showed (-want +got):\n%s", diff)
	}
	observe, seen = record()
	if _, err := CitingDocumentsObserved(root, observe); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(files, seen); diff != "" {
		t.Errorf("CitingDocuments showed (-want +got):\n%s", diff)
	}
	for _, links := range []bool{false, true} { // the walk on disk, and the general one
		observe, seen = record()
		VerifyWith(root, VerifyOptions{Links: links, Observe: observe})
		if diff := cmp.Diff(files, seen); diff != "" {
			t.Errorf("verification (links %v) showed (-want +got):\n%s", links, diff)
		}
	}
	observe, seen = record()
	var buf []byte
	if _, err := LoadDocument(root, "sub/deeper.md", &buf, observe); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[string]string{"sub/deeper.md": files["sub/deeper.md"]}, seen); diff != "" {
		t.Errorf("LoadDocument showed (-want +got):\n%s", diff)
	}
}
