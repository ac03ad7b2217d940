package session

import (
	"testing"

	"github.com/git-context-tree/git-context-tree/internal/adapters/git"
)

// TestSameBeside: a boundary level is decided without git only when every
// entry beside the subtree's is identical and the subtree's entry is one
// directory on both sides; anything else goes to git's diff-tree.
func TestSameBeside(t *testing.T) {
	dir := func(name, id string) git.TreeItem { return git.TreeItem{Mode: "040000", Name: name, ID: id} }
	file := func(name, id string) git.TreeItem { return git.TreeItem{Mode: "100644", Name: name, ID: id} }
	base := []git.TreeItem{file("README.md", "r1"), dir("docs", "d1"), file("docs.md", "m1")}
	for _, c := range []struct {
		name     string
		captured []git.TreeItem
		ok       bool
	}{
		{"subtree changed", []git.TreeItem{file("README.md", "r1"), dir("docs", "d2"), file("docs.md", "m1")}, true},
		{"file beside changed", []git.TreeItem{file("README.md", "r2"), dir("docs", "d2"), file("docs.md", "m1")}, false},
		{"mode beside changed", []git.TreeItem{{Mode: "100755", Name: "README.md", ID: "r1"}, dir("docs", "d2"), file("docs.md", "m1")}, false},
		{"entry added beside", []git.TreeItem{file("README.md", "r1"), dir("docs", "d2"), file("docs.md", "m1"), file("new", "n")}, false},
		{"entry removed beside", []git.TreeItem{dir("docs", "d2"), file("docs.md", "m1")}, false},
		{"subtree now a file", []git.TreeItem{file("README.md", "r1"), file("docs", "d2"), file("docs.md", "m1")}, false},
		{"subtree now a gitlink", []git.TreeItem{file("README.md", "r1"), {Mode: "160000", Name: "docs", ID: "c"}, file("docs.md", "m1")}, false},
		{"subtree removed", []git.TreeItem{file("README.md", "r1"), file("docs.md", "m1")}, false},
		{"subtree twice", []git.TreeItem{file("README.md", "r1"), file("docs", "x"), dir("docs", "d2"), file("docs.md", "m1")}, false},
	} {
		next, ok := sameBeside(base, c.captured, "docs")
		if ok != c.ok || (ok && next != [2]string{"d1", "d2"}) {
			t.Errorf("%s: %v %v, want ok %v", c.name, next, ok, c.ok)
		}
	}
}
