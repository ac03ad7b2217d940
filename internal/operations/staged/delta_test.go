package staged

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// checkDelta runs Verify as check does (against a full verification of
// the index), asserting whether the delta path verified the tree, and
// that the evidence notes equal those of the full path.
func (r *stagedRepo) checkDelta(stage string, wantDelta bool) {
	r.t.Helper()
	usedDelta := false
	opts := Options{Notes: true, onDelta: func(string) { usedDelta = true }}
	rep, err := Verify(context.Background(), r.g, r.dir, opts)
	if err != nil {
		r.t.Fatalf("%s: Verify: %v", stage, err)
	}
	if usedDelta != wantDelta {
		r.t.Errorf("%s: delta path used = %v, want %v", stage, usedDelta, wantDelta)
	}
	want := r.fullVerify()
	if len(rep.Trees) != 1 {
		r.t.Fatalf("%s: %d trees (note %q)", stage, len(rep.Trees), rep.Note)
	}
	got := rep.Trees[0]
	if diff := cmp.Diff(want.Findings, got.Findings); diff != "" {
		r.t.Errorf("%s: findings (-full verify +staged):\n%s", stage, diff)
	}
	if diff := cmp.Diff(want.Scanned, got.Scanned); diff != "" {
		r.t.Errorf("%s: scanned (-full verify +staged):\n%s", stage, diff)
	}
	if got.OK != want.OK() || rep.OK != want.OK() {
		r.t.Errorf("%s: ok = %v/%v, full verify %v", stage, got.OK, rep.OK, want.OK())
	}
	// The notes of the same commit by the full path (its caches are its
	// own: no tree-states are read or kept).
	slow, err := Verify(context.Background(), r.g, r.dir, Options{Notes: true, noDelta: true})
	if err != nil {
		r.t.Fatalf("%s: Verify without the delta path: %v", stage, err)
	}
	if diff := cmp.Diff(slow.EvidenceNotes, rep.EvidenceNotes); diff != "" {
		r.t.Errorf("%s: evidence notes (-full path +delta path):\n%s", stage, diff)
	}
}

func (r *stagedRepo) commit(msg string) {
	r.t.Helper()
	r.git("commit", "-q", "--no-verify", "-m", msg)
}

// TestDeltaEqualsFullVerify: a commit that only edits documents of a tree
// whose HEAD verified is checked by the delta path, and reports exactly
// what a full verification of the index reports, for every kind of
// finding a document can bring (soft links to nothing, to a directory, to
// infrastructure, written relative to the document, file: URLs, links
// leaving the tree, broken frontmatter); HEAD's new tree is proved from
// the pending record commit after commit; anything else (a HEAD that
// failed, a document added, a mode changed, too many edits) takes the
// full path.
func TestDeltaEqualsFullVerify(t *testing.T) {
	r := newStagedRepo(t, 120)
	r.write("src/a.go", "package a\n")
	r.write("docs/ctx/.notes/hidden.md", "---\ntitle: Hidden\n---\n")
	r.write("docs/ctx/node_modules/pkg/x.md", "no frontmatter\n")
	r.write("docs/ctx/area/NODE.md", "---\ntitle: Area\n---\n")
	r.write("docs/ctx/area/one.md", "---\ntitle: One\nsources:\n  - path: src/a.go\n---\n")
	r.write("docs/ctx/area/two.md", "---\ntitle: Two\n---\n")
	r.git("add", "-A")
	r.commit("base")

	r.checkDelta("HEAD never judged (full)", false)

	r.write("docs/ctx/area/two.md", "---\ntitle: Two, edited\nsoft_links:\n  - area/one.md\n  - area\n---\n\nText.\n")
	r.git("add", "-A")
	r.checkDelta("one valid edit", true)
	r.commit("edit 1")

	r.write("docs/ctx/area/two.md", "---\ntitle: Two, again\n---\n")
	r.git("add", "-A")
	r.checkDelta("HEAD proved from the pending record", true)
	r.commit("edit 2")

	// Every finding an edit can bring, with a cited file changed beside.
	r.write("src/a.go", "package a // changed\n")
	r.write("docs/ctx/area/two.md", "---\ntitle: Two\nsoft_links:\n  - gone.md\n  - area/gone\n  - .notes/hidden.md\n  - node_modules/pkg/x.md\n  - one.md\n  - /../up.md\n  - file:///etc/passwd\n  - https://example.com/x\n  - area/one.md/x\n---\n\n[out](../../../../etc/passwd)\n")
	r.write("docs/ctx/NODE.md", "---\nschemaVersion: 1\ndescription: no title\n---\n")
	r.git("add", "-A")
	r.checkDelta("edits with findings", true)
	r.commit("findings")

	r.write("docs/ctx/area/two.md", "---\ntitle: Two\n---\n")
	r.git("add", "-A")
	r.checkDelta("HEAD failed: full path", false)
	r.git("checkout", "-q", "HEAD~1", "--", "docs/ctx/NODE.md")
	r.git("add", "-A")
	r.checkDelta("HEAD failed, fixed: full path", false)
	r.commit("fixed")

	r.write("docs/ctx/area/two.md", "---\ntitle: Two, fine\n---\n")
	r.git("add", "-A")
	r.checkDelta("after a full pass: delta again", true)
	r.commit("edit 3")

	r.write("docs/ctx/area/three.md", "---\ntitle: Three\n---\n")
	r.git("add", "-A")
	r.checkDelta("a document added: full path", false)
	r.commit("added")

	r.write("docs/ctx/area/one.md", "---\ntitle: One, edited\nsources:\n  - path: src/a.go\n---\n")
	r.git("add", "-A")
	r.checkDelta("an addition proved, then an edit", true)
	r.commit("edit 4")

	if err := os.Chmod(filepath.Join(r.dir, "docs/ctx/area/two.md"), 0o755); err != nil {
		t.Fatal(err)
	}
	r.git("add", "-A")
	r.checkDelta("a mode changed: full path", false)
	r.commit("mode")

	r.git("rm", "-q", "docs/ctx/area/three.md")
	r.checkDelta("a deletion: full path", false)
	r.commit("deleted")

	// A code change alone on a HEAD this check passed: the fast path,
	// its notes from the citations carried along by the proofs.
	r.write("src/a.go", "package a // changed again\n")
	r.git("add", "-A")
	rep, err := Verify(context.Background(), r.g, r.dir, Options{Notes: true})
	if err != nil || rep.Note != "nothing staged in a declared tree" || len(rep.EvidenceNotes) != 1 {
		t.Errorf("code-only commit after the deletion: %+v, %v; want the fast path with one note", rep, err)
	}

	// A torn tree-states file is ignored: the full path.
	r.commit("code")
	states := filepath.Join(r.dir, ".git", cacheDir, statesName)
	if err := os.WriteFile(states, []byte("torn"), 0o644); err != nil {
		t.Fatal(err)
	}
	r.write("docs/ctx/area/two.md", "---\ntitle: Two, torn states\n---\n")
	r.git("add", "-A")
	r.checkDelta("torn tree-states: full path", false)
}
