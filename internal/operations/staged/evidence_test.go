package staged

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/adapters/git"
)

// newCitingRepo is a repository whose tree at docs/ctx has documents
// citing code under src/, every object loose, HEAD's tree verified.
func newCitingRepo(t *testing.T) *stagedRepo {
	t.Helper()
	r := &stagedRepo{t: t, dir: t.TempDir(), g: git.New(os.Environ())}
	r.write(contracts.ConfigFile, `{"schemaVersion": 3, "trees": [{"kind": "directory", "path": "docs/ctx"}]}`+"\n")
	r.write("docs/ctx/NODE.md", "---\nschemaVersion: 1\ntitle: Root\n---\n\nBody.\n")
	r.write("docs/ctx/api.md", "---\ntitle: API\nsources:\n  - path: src/api.go\n    lines: 1-2\n  - path: src/util.go\n---\n\nThe API.\n")
	r.write("docs/ctx/plain.md", "---\ntitle: Plain\n---\n\nCites nothing.\n")
	r.write("docs/ctx/tools.md", "---\ntitle: Tools\nsources:\n  - path: src/api.go\n    repository: tools\n---\n\nAnother repository's.\n")
	r.write("src/api.go", "package src\n\nfunc API() {}\n")
	r.write("src/util.go", "package src\n")
	r.write("src/other.go", "package src\n")
	r.git("init", "-q")
	r.git("add", "-A")
	r.git("commit", "-q", "-m", "tree")
	r.notes("first check", nil) // HEAD's tree verified, caches written
	return r
}

func (r *stagedRepo) notes(stage string, want []contracts.EvidenceNote) {
	r.t.Helper()
	rep, err := Verify(context.Background(), r.g, r.dir, Options{Notes: true})
	if err != nil {
		r.t.Fatalf("%s: Verify: %v", stage, err)
	}
	if !rep.OK {
		r.t.Fatalf("%s: not ok: %+v", stage, rep)
	}
	if diff := cmp.Diff(want, rep.EvidenceNotes); diff != "" {
		r.t.Errorf("%s: notes (-want +got):\n%s", stage, diff)
	}
}

// dropDocumentBytes deletes docs/ctx's documents from the object store
// (their loose objects) and from the work tree (which verify --staged
// reads where it holds a staged blob's bytes), leaving the index as it
// was, so that any later read of one fails.
func (r *stagedRepo) dropDocumentBytes() {
	r.t.Helper()
	for _, doc := range []string{"NODE.md", "api.md", "plain.md", "tools.md"} {
		id := r.git("rev-parse", "HEAD:docs/ctx/"+doc)
		for _, name := range []string{filepath.Join(r.dir, ".git", "objects", id[:2], id[2:]), filepath.Join(r.dir, "docs", "ctx", doc)} {
			if err := os.Remove(name); err != nil {
				r.t.Fatal(err)
			}
		}
	}
}

// TestNotesOfCodeOnlyCommitReadNoDocument: a commit that stages only code
// is noted from the citations index (warm), or from the staged cache's
// per-document cited paths (index missing or torn), without reading one
// document: their bytes are gone and the run still gives its notes.
// With neither cache, the run must read them, and fails.
func TestNotesOfCodeOnlyCommitReadNoDocument(t *testing.T) {
	r := newCitingRepo(t)
	apiNote := []contracts.EvidenceNote{{Document: "docs/ctx/api.md", Source: "src/api.go"}}
	r.write("src/api.go", "package src\n\nfunc API() { /* edited */ }\n")
	r.git("add", "src/api.go")
	r.notes("code-only commit, caches warm", apiNote)

	r.dropDocumentBytes()
	r.notes("warm, no document blob", apiNote)
	r.write("src/util.go", "package src\n\n// edited\n")
	r.write("src/other.go", "package src\n\n// edited\n")
	r.git("add", "src")
	r.notes("two cited files and an uncited one", []contracts.EvidenceNote{
		{Document: "docs/ctx/api.md", Source: "src/api.go"}, {Document: "docs/ctx/api.md", Source: "src/util.go"}})

	index := filepath.Join(r.dir, ".git", cacheDir, citationsName)
	if err := os.WriteFile(index, []byte("torn"), 0o644); err != nil {
		t.Fatal(err)
	}
	r.git("reset", "-q")
	r.git("add", "src/api.go")
	r.notes("torn citations index: from the staged cache", apiNote)
	if data, err := os.ReadFile(index); err != nil || !strings.HasPrefix(string(data), citationsMagic) {
		t.Errorf("the citations index was not written again: %q, %v", data, err)
	}

	// Neither cache: the documents must be read, and cannot be.
	if err := os.RemoveAll(filepath.Join(r.dir, ".git", cacheDir, citationsName)); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(filepath.Join(r.dir, ".git", cacheDir, cacheName)); err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(r.dir, ".git", cacheDir, cacheName+journalSuffix))
	if _, err := Verify(context.Background(), r.g, r.dir, Options{Notes: true}); err == nil {
		t.Errorf("with no cache and no document blobs, the notes were computed anyway")
	}
}

// TestNotesOfStagedDocuments: a commit staging documents is noted from
// the results the check computes; a staged citing document is not noted;
// a document citing a document is; entries with a repository never are;
// a merge's commit only with MergeNotes.
func TestNotesOfStagedDocuments(t *testing.T) {
	r := newCitingRepo(t)
	r.write("docs/ctx/plain.md", "---\ntitle: Plain\nsources:\n  - path: docs/ctx/api.md\n---\n\nCites the API node.\n")
	r.write("src/api.go", "package src\n\nfunc API() { /* edited */ }\n")
	r.git("add", "-A")
	r.notes("a new citing document and code", []contracts.EvidenceNote{{Document: "docs/ctx/api.md", Source: "src/api.go"}})
	r.git("commit", "-q", "-m", "plain cites api")

	r.write("docs/ctx/api.md", "---\ntitle: API\nsources:\n  - path: src/api.go\n    lines: 1-2\n  - path: src/util.go\n---\n\nThe API, edited.\n")
	r.write("src/api.go", "package src\n\nfunc API() { /* again */ }\n")
	r.git("add", "-A")
	r.notes("citing node staged with its code", []contracts.EvidenceNote{{Document: "docs/ctx/plain.md", Source: "docs/ctx/api.md"}})
	r.git("commit", "-q", "-m", "api")

	// A merge: noted only when asked.
	r.git("checkout", "-q", "-b", "feature")
	r.write("src/util.go", "package src\n\n// feature\n")
	r.git("commit", "-q", "-am", "feature")
	r.git("checkout", "-q", "-")
	r.write("src/other.go", "package src\n\n// main\n")
	r.git("commit", "-q", "-am", "main")
	r.git("merge", "-q", "--no-ff", "--no-commit", "feature")
	r.notes("a merge", nil)
	rep, err := Verify(context.Background(), r.g, r.dir, Options{Notes: true, MergeNotes: true})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]contracts.EvidenceNote{{Document: "docs/ctx/api.md", Source: "src/util.go"}}, rep.EvidenceNotes); diff != "" {
		t.Errorf("a merge with MergeNotes (-want +got):\n%s", diff)
	}
	rep, err = Verify(context.Background(), r.g, r.dir, Options{})
	if err != nil || rep.EvidenceNotes != nil {
		t.Errorf("without Notes: %+v, %v", rep.EvidenceNotes, err)
	}
}

// TestCitationsRoundTrip: the index decodes what it encoded, refuses a
// flipped byte, a truncation and another binary's file, and keeps the
// newest trees.
func TestCitationsRoundTrip(t *testing.T) {
	in := []citedTree{
		{id: strings.Repeat("a", 40), citing: []citation{{doc: "api.md", path: "src/api.go"}, {doc: "é.md", path: "x"}}},
		{id: strings.Repeat("b", 64)},
	}
	enc := encodeCitations("fp", in)
	out, err := decodeCitations(enc, "fp")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(in, out, cmp.AllowUnexported(citedTree{}, citation{})); diff != "" {
		t.Errorf("round trip (-want +got):\n%s", diff)
	}
	for i := range enc {
		bad := append([]byte(nil), enc...)
		bad[i] ^= 0x55
		if _, err := decodeCitations(bad, "fp"); err == nil {
			t.Fatalf("an index with byte %d flipped decoded", i)
		}
	}
	if _, err := decodeCitations(enc[:len(enc)-1], "fp"); err == nil {
		t.Errorf("a truncated index decoded")
	}
	if _, err := decodeCitations(enc, "other"); err == nil {
		t.Errorf("another binary's index decoded")
	}

	c := &citations{}
	for i := range citationsKeep + 3 {
		c.put(fmt.Sprintf("%040x", i), nil)
	}
	if len(c.trees) != citationsKeep || c.trees[0].id != fmt.Sprintf("%040x", 3) {
		t.Errorf("kept %d trees, oldest %q", len(c.trees), c.trees[0].id)
	}
	if _, ok := c.lookup(fmt.Sprintf("%040x", 0)); ok {
		t.Errorf("the oldest tree was kept")
	}
	c.put("not an id", nil)
	if _, ok := c.lookup("not an id"); ok {
		t.Errorf("an invalid id was kept")
	}
}
