package search

import (
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/tree"
)

func write(t *testing.T, root, rel, text string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func doc(title, desc, body string) string {
	s := "---\ntitle: " + title + "\n"
	if desc != "" {
		s += "description: " + desc + "\n"
	}
	return s + "---\n" + body
}

func fixture(t *testing.T) string {
	root := t.TempDir()
	write(t, root, "NODE.md", "---\nschemaVersion: 1\ntitle: Root\n---\nThe root of everything.\n")
	write(t, root, "deploy/NODE.md", doc("Deployment", "How releases ship", "Intro line.\n\nWe deploy with canary releases.\nRollback is manual.\n"))
	write(t, root, "deploy/canary.md", doc("Canary", "", "A canary takes 5% of traffic.\n"))
	write(t, root, "people.md", doc("People", "Who owns what", "Nothing about shipping here.\n"))
	write(t, root, ".hidden/NODE.md", doc("Canary secrets", "", "canary canary canary\n"))
	write(t, root, "AGENTS.md", doc("Agents", "", "canary instructions\n"))
	outside := t.TempDir()
	write(t, outside, "x.md", doc("Canary outside", "", "canary\n"))
	if err := os.Symlink(filepath.Join(outside, "x.md"), filepath.Join(root, "linked.md")); err != nil {
		t.Fatal(err)
	}
	return root
}

func nodes(hits []Hit) []string {
	var out []string
	for _, h := range hits {
		out = append(out, h.Doc.Node)
	}
	return out
}

func TestSearchRanksAndFollowsTreeRules(t *testing.T) {
	var c Cache
	ix, err := c.Index(fixture(t), "", nil)
	if err != nil {
		t.Fatal(err)
	}
	// The title match ranks first; infrastructure, hidden and symlinked
	// documents are never indexed.
	if diff := cmp.Diff([]string{"deploy/canary.md", "deploy"}, nodes(ix.Search("Canary", 10))); diff != "" {
		t.Errorf("canary (-want +got):\n%s", diff)
	}
	// Every term beats some terms.
	if got := nodes(ix.Search("canary rollback", 10)); len(got) == 0 || got[0] != "deploy" {
		t.Errorf("canary rollback: %v", got)
	}
	if got := ix.Search("nonexistentword", 10); len(got) != 0 {
		t.Errorf("no match expected, got %v", nodes(got))
	}
	if got := ix.Search("  !! ", 10); got != nil {
		t.Errorf("a query without terms matches nothing, got %v", nodes(got))
	}
}

func TestSnippetsCarryFileLineNumbers(t *testing.T) {
	var c Cache
	ix, err := c.Index(fixture(t), "", nil)
	if err != nil {
		t.Fatal(err)
	}
	hits := ix.Search("canary rollback", 1)
	got := Snippets(hits[0], "canary rollback", 3, 240)
	// deploy/NODE.md: four header lines, then the body from line 5.
	want := []contracts.Snippet{{Line: 7, Text: "We deploy with canary releases."}, {Line: 8, Text: "Rollback is manual."}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("snippets (-want +got):\n%s", diff)
	}
	// A title-only match shows the first body line.
	people := ix.Search("owns", 1)
	if diff := cmp.Diff([]contracts.Snippet{{Line: 5, Text: "Nothing about shipping here."}}, Snippets(people[0], "owns", 3, 240)); diff != "" {
		t.Errorf("title-only snippet (-want +got):\n%s", diff)
	}
	long := Hit{Doc: &tree.LoadedDocument{BodyLine: 1, Body: []byte("aaaa bbbb cccc dddd eeee ffff canary gggg hhhh\n")}}
	if s := Snippets(long, "canary", 1, 12); len([]rune(s[0].Text)) > 12 || s[0].Text == "" {
		t.Errorf("window: %q", s[0].Text)
	}
}

func TestCacheRefreshesWhenDocumentsChange(t *testing.T) {
	root := fixture(t)
	var c Cache
	first, err := c.Index(root, "a", nil)
	if err != nil {
		t.Fatal(err)
	}
	again, _ := c.Index(root, "a", nil)
	if again != first {
		t.Error("an unchanged tree was indexed again")
	}
	write(t, root, "people.md", doc("People", "Who owns what", "Now about zeppelins, and longer.\n"))
	changed, _ := c.Index(root, "a", nil)
	if got := nodes(changed.Search("zeppelins", 5)); !cmp.Equal(got, []string{"people.md"}) {
		t.Errorf("after an edit: %v", got)
	}
	moved, _ := c.Index(root, "b", nil)
	if moved == changed {
		t.Error("a new commit did not refresh the index")
	}
	if err := os.Remove(filepath.Join(root, "deploy/canary.md")); err != nil {
		t.Fatal(err)
	}
	removed, _ := c.Index(root, "b", nil)
	if got := nodes(removed.Search("canary", 5)); !cmp.Equal(got, []string{"deploy"}) {
		t.Errorf("after a removal: %v", got)
	}
}

func TestCacheKeepsABoundedNumberOfTrees(t *testing.T) {
	var c Cache
	first := fixture(t)
	if _, err := c.Index(first, "", nil); err != nil {
		t.Fatal(err)
	}
	for range maxRoots {
		root := t.TempDir()
		write(t, root, "NODE.md", "---\nschemaVersion: 1\ntitle: R\n---\nr\n")
		if _, err := c.Index(root, "", nil); err != nil {
			t.Fatal(err)
		}
	}
	if len(c.entries) != maxRoots {
		t.Errorf("%d trees cached, want %d", len(c.entries), maxRoots)
	}
	if _, ok := c.entries[first]; ok {
		t.Error("the least recently searched tree was kept")
	}
}

// A held build is shown every document it reads and kept only when its
// check passes; an unheld index of the same directory is never reused
// for it.
func TestHeldIndexIsKeptOnlyWhenChecked(t *testing.T) {
	root := fixture(t)
	var c Cache
	unheld, err := c.Index(root, "a", nil)
	if err != nil {
		t.Fatal(err)
	}
	refuse := errors.New("not the commit's")
	var read []string
	var mu sync.Mutex // builds read on every core
	hold := func(check error) *Hold {
		read = nil
		observe := func(rel string, _ []byte) {
			mu.Lock()
			read = append(read, rel)
			mu.Unlock()
		}
		return &Hold{Observe: observe, Check: func() error { return check }}
	}
	if _, err := c.Index(root, "a", hold(refuse)); err != refuse {
		t.Fatalf("a refused build: %v", err)
	}
	if len(read) == 0 {
		t.Error("a held build reused an unheld index's documents")
	}
	held, err := c.Index(root, "a", hold(nil))
	if err != nil || held == unheld || len(read) == 0 {
		t.Fatalf("after a refused build: %v (same as unheld: %v, read %v)", err, held == unheld, read)
	}
	if again, _ := c.Index(root, "a", hold(nil)); again != held || len(read) != 0 {
		t.Errorf("an unchanged held tree was read again: %v", read)
	}
}
