package staged

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/git-context-tree/git-context-tree/internal/adapters/git"
)

// TestFastPathTrustsOnlyVerifiedTrees: nothing staged takes the fast path
// only once HEAD's tree verified; a HEAD whose tree changed without the
// check is verified again; a torn store is ignored.
func TestFastPathTrustsOnlyVerifiedTrees(t *testing.T) {
	r := &stagedRepo{t: t, dir: t.TempDir(), g: git.New(os.Environ())}
	r.write(".context-tree.json", `{"schemaVersion": 3, "trees": [{"kind": "directory", "path": "docs/ctx"}]}`+"\n")
	r.write("docs/ctx/NODE.md", "---\nschemaVersion: 1\ntitle: Root\n---\n\nBody.\n")
	r.git("init", "-q")
	r.git("add", "-A")
	r.git("commit", "-q", "-m", "tree")
	verify := func(stage string, wantTrees int, wantOK bool) {
		t.Helper()
		rep, err := Verify(context.Background(), r.g, r.dir, Options{Notes: true})
		if err != nil || len(rep.Trees) != wantTrees || rep.OK != wantOK {
			t.Errorf("%s: %d trees, ok %v (note %q), %v; want %d trees, ok %v", stage, len(rep.Trees), rep.OK, rep.Note, err, wantTrees, wantOK)
		}
	}
	verify("HEAD never judged", 1, true)
	verify("HEAD verified before", 0, true)
	store := filepath.Join(r.dir, ".git", cacheDir, verifiedName)
	if _, err := os.Stat(store); err != nil {
		t.Fatalf("no verified-trees store: %v", err)
	}

	// HEAD made invalid without the check: judged, and never remembered.
	r.write("docs/ctx/bad.md", "---\ndescription: no title\n---\n")
	r.git("add", "-A")
	r.git("commit", "-q", "--no-verify", "-m", "bad")
	verify("invalid HEAD", 1, false)
	verify("invalid HEAD again", 1, false)

	// Fixed back to the first tree: the same tree id, known to verify.
	r.git("rm", "-q", "docs/ctx/bad.md")
	r.git("commit", "-q", "--no-verify", "-m", "fixed")
	verify("HEAD back to a verified tree", 0, true)
	// A new valid tree: verified once, then the fast path.
	r.write("docs/ctx/good.md", "---\ntitle: Good\n---\n")
	r.git("add", "-A")
	r.git("commit", "-q", "--no-verify", "-m", "good")
	verify("new HEAD tree", 1, true)
	verify("new HEAD tree, remembered", 0, true)

	// A torn or foreign store: verified again.
	if err := os.WriteFile(store, []byte("something else\n"+r.git("rev-parse", "HEAD:docs/ctx")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	verify("foreign store", 1, true)
}

func TestVerifiedTreesKeepsTheNewest(t *testing.T) {
	dir := t.TempDir()
	v := openVerified(dir)
	ids := make([]string, verifiedKeep+10)
	for i := range ids {
		ids[i] = fmtID(i)
		v.add(ids[i])
	}
	v.add("not an id")
	v.save()
	w := openVerified(dir)
	if w.has(ids[0]) || !w.has(ids[len(ids)-1]) || len(w.ids) != verifiedKeep {
		t.Errorf("kept %d ids; oldest kept %v, newest kept %v", len(w.ids), w.has(ids[0]), w.has(ids[len(ids)-1]))
	}
}

func fmtID(i int) string {
	const hex = "0123456789abcdef"
	b := []byte("0000000000000000000000000000000000000000")
	for j := len(b) - 1; i > 0; j-- {
		b[j] = hex[i%16]
		i /= 16
	}
	return string(b)
}
