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
// failed, a mode changed, a deletion) takes the
// full path. TestDeltaAdditions covers additions case by case.
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
	r.checkDelta("a document added", true)
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

// tryAdd writes files (a nil content: a symlink to nowhere), stages
// them, runs checkDelta, then unstages and removes them again: HEAD
// stays the judged tree it was.
func (r *stagedRepo) tryAdd(stage string, wantDelta bool, files map[string]*string) {
	r.t.Helper()
	var paths []string
	for name, content := range files {
		if content == nil {
			p := filepath.Join(r.dir, name)
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				r.t.Fatal(err)
			}
			if err := os.Symlink("nowhere.md", p); err != nil {
				r.t.Fatal(err)
			}
		} else {
			r.write(name, *content)
		}
		paths = append(paths, name)
	}
	r.git(append([]string{"add", "--"}, paths...)...)
	r.checkDelta(stage, wantDelta)
	r.git(append([]string{"reset", "-q", "--"}, paths...)...)
	for _, p := range paths {
		if r.git("ls-tree", "--name-only", "HEAD", "--", p) != "" {
			r.git("checkout", "-q", "HEAD", "--", p)
		} else if err := os.Remove(filepath.Join(r.dir, p)); err != nil {
			r.t.Fatal(err)
		}
	}
}

func text(s string) *string { return &s }

// TestDeltaAdditions: a commit that adds regular files to directories of
// a judged HEAD (besides editing documents) takes the delta path, and
// reports exactly what a full verification of the index reports: valid
// and invalid documents, soft links to nothing, to a directory, to a
// document added in the same commit (from it and from an edited
// document), names that differ only in case, assets, member documents,
// files the walk never reaches; a new directory, a new NODE.md, a
// symlink, a name that is not UTF-8 or an addition beside a deletion
// takes the full path. The counts of an addition carry over to the next
// commit through the pending record.
func TestDeltaAdditions(t *testing.T) {
	r := newStagedRepo(t, 120)
	r.write("docs/ctx/area/NODE.md", "---\ntitle: Area\n---\n")
	r.write("docs/ctx/area/one.md", "---\ntitle: One\n---\n")
	// A directory named like an instruction file: the walk skips it.
	r.write("docs/ctx/area/CLAUDE.md/inner.md", "no frontmatter\n")
	r.git("add", "-A")
	r.commit("base")
	r.checkDelta("HEAD never judged (full)", false)
	r.write("docs/ctx/area/one.md", "---\ntitle: One, judged\n---\n")
	r.git("add", "-A")
	r.checkDelta("an edit", true)
	r.commit("judged")

	r.tryAdd("edit of a document the walk never reaches", true, map[string]*string{
		"docs/ctx/area/CLAUDE.md/inner.md": text("still no frontmatter\n")})
	r.tryAdd("a valid document", true, map[string]*string{
		"docs/ctx/area/new.md": text("---\ntitle: New\nsoft_links:\n  - area\n  - area/one.md\n---\n\nText.\n")})
	r.tryAdd("an executable document at the root", true, map[string]*string{
		"docs/ctx/top.md": text("---\ntitle: Top\n---\n")})
	r.tryAdd("an invalid document", true, map[string]*string{
		"docs/ctx/area/bad.md": text("no frontmatter\n\n[out](../../../../../etc/passwd)\n")})
	r.tryAdd("broken frontmatter", true, map[string]*string{
		"docs/ctx/area/yaml.md": text("---\ntitle: [unclosed\n---\n")})
	r.tryAdd("soft links to nothing, to infrastructure, relative to the document", true, map[string]*string{
		"docs/ctx/area/links.md": text("---\ntitle: Links\nsoft_links:\n  - area/gone.md\n  - area/CLAUDE.md/inner.md\n  - one.md\n  - area/one.md/x\n  - /../up.md\n---\n")})
	r.tryAdd("soft links to documents added together", true, map[string]*string{
		"docs/ctx/area/a.md": text("---\ntitle: A\nsoft_links:\n  - area/b.md\n  - b.md\n---\n"),
		"docs/ctx/area/b.md": text("---\ntitle: B\nsoft_links:\n  - area/a.md\n  - top2.md\n---\n"),
		"docs/ctx/top2.md":   text("---\ntitle: Top 2\nsoft_links:\n  - area/a.md\n---\n")})
	r.tryAdd("an edited document linking to an added one", true, map[string]*string{
		"docs/ctx/area/c.md": text("---\ntitle: C\n---\n")})
	r.write("docs/ctx/area/one.md", "---\ntitle: One, linking\nsoft_links:\n  - area/c.md\n  - area/d.md\n---\n")
	r.git("add", "docs/ctx/area/one.md")
	r.tryAdd("an edited document linking to an added one and to a missing one", true, map[string]*string{
		"docs/ctx/area/c.md": text("---\ntitle: C\n---\n")})
	r.git("checkout", "-q", "HEAD", "--", "docs/ctx/area/one.md")
	r.tryAdd("a name differing only in case", true, map[string]*string{
		"docs/ctx/area/ONE.md": text("---\ntitle: ONE\n---\n"),
		"docs/ctx/area/One.md": text("---\ntitle: One again\n---\n")})
	r.tryAdd("an asset", true, map[string]*string{
		"docs/ctx/area/pic.png": text("not really a picture\n"),
		"docs/ctx/area/notes":   text("plain\n")})
	r.tryAdd("a member document", true, map[string]*string{
		"docs/ctx/members/note.md": text("---\ntitle: Mine\n---\n")})
	r.tryAdd("files the walk never reaches", true, map[string]*string{
		"docs/ctx/.drafts/x.md":              text("no frontmatter\n"),
		"docs/ctx/area/.hidden.md":           text("no frontmatter\n"),
		"docs/ctx/area/AGENTS.md":            text("no frontmatter\n"),
		"docs/ctx/area/CLAUDE.md/another.md": text("no frontmatter\n"),
		"docs/ctx/node_modules/p/x.md":       text("no frontmatter\n"),
		"docs/ctx/scripts/x.md":              text("no frontmatter\n"),
		"docs/ctx/area/.drafts/link":         nil})
	r.tryAdd("a document in a new directory: full path", false, map[string]*string{
		"docs/ctx/area/sub/x.md": text("---\ntitle: X\n---\n")})
	r.tryAdd("a new directory with its NODE.md: full path", false, map[string]*string{
		"docs/ctx/area/sub/NODE.md": text("---\ntitle: Sub\n---\n"),
		"docs/ctx/area/sub/x.md":    text("---\ntitle: X\n---\n")})
	r.tryAdd("an asset in a new directory: full path", false, map[string]*string{
		"docs/ctx/area/sub/pic.png": text("x\n")})
	r.tryAdd("a symlink: full path", false, map[string]*string{
		"docs/ctx/area/link.md": nil})
	r.tryAdd("a name that is not UTF-8: full path", false, map[string]*string{
		"docs/ctx/area/\xff.md": text("---\ntitle: Bytes\n---\n")})

	r.git("rm", "-q", "docs/ctx/area/CLAUDE.md/inner.md")
	r.tryAdd("an addition beside a deletion the walk never sees", true, map[string]*string{
		"docs/ctx/area/new.md": text("---\ntitle: New\n---\n")})
	r.git("reset", "-q")
	r.git("checkout", "-q", "HEAD", "--", "docs/ctx/area/CLAUDE.md/inner.md")

	r.git("rm", "-q", "docs/ctx/area/one.md")
	r.tryAdd("an addition beside a deletion: full path", false, map[string]*string{
		"docs/ctx/area/new.md": text("---\ntitle: New\n---\n")})
	r.git("reset", "-q")
	r.git("checkout", "-q", "HEAD", "--", "docs/ctx/area/one.md")

	// Committed: the next commit proves HEAD from the pending record,
	// counts included.
	r.write("docs/ctx/area/new.md", "---\ntitle: New\n---\n")
	r.write("docs/ctx/area/pic.png", "x\n")
	r.write("docs/ctx/members/note.md", "---\ntitle: Mine\n---\n")
	r.git("add", "-A")
	r.checkDelta("additions to commit", true)
	r.commit("additions")
	r.write("docs/ctx/area/new.md", "---\ntitle: New, edited\nsoft_links:\n  - members/note.md\n---\n")
	r.git("add", "-A")
	r.checkDelta("HEAD with additions proved from the pending record", true)
}
