package staged

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/adapters/git"
	"github.com/git-context-tree/git-context-tree/internal/tree"
	"github.com/git-context-tree/git-context-tree/internal/treegen"
)

// stagedRepo is a repository with a declared tree at docs/ctx.
type stagedRepo struct {
	t   *testing.T
	dir string
	g   *git.Git
}

func newStagedRepo(t *testing.T, docs int) *stagedRepo {
	t.Helper()
	r := &stagedRepo{t: t, dir: t.TempDir()}
	r.g = git.New(os.Environ())
	if err := treegen.Generate(filepath.Join(r.dir, "docs/ctx"), treegen.Options{Seed: 5, Docs: docs, WideChildren: 20}); err != nil {
		t.Fatal(err)
	}
	r.write(contracts.ConfigFile, `{"schemaVersion": 3, "trees": [{"kind": "directory", "path": "docs/ctx"}]}`+"\n")
	r.git("init", "-q")
	r.git("add", "-A")
	r.git("commit", "-q", "-m", "tree")
	return r
}

func (r *stagedRepo) git(args ...string) string {
	r.t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=T", "-c", "user.email=t@example.com", "-c", "core.hooksPath=/dev/null", "-c", "gc.auto=0", "-c", "maintenance.auto=false"}, args...)...)
	cmd.Dir = r.dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		r.t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

func (r *stagedRepo) write(name, content string) {
	r.t.Helper()
	p := filepath.Join(r.dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		r.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		r.t.Fatal(err)
	}
}

// fullVerify is the reference: every document of docs/ctx read from the
// index through git and verified by tree.VerifyIndex, no cache.
func (r *stagedRepo) fullVerify() *tree.Report {
	r.t.Helper()
	ctx := context.Background()
	entries, err := r.g.IndexEntries(ctx, r.dir, "docs/ctx")
	if err != nil {
		r.t.Fatal(err)
	}
	var tes []tree.IndexEntry
	var ids, wanted []string
	for _, e := range entries {
		te := tree.IndexEntry{Path: path.Clean(strings.TrimPrefix(e.Path, "docs/ctx/")), Mode: e.Mode}
		tes = append(tes, te)
		if tree.WantsBlob(te) {
			ids, wanted = append(ids, e.ID), append(wanted, te.Path)
		}
	}
	blobs := map[string][]byte{}
	i := 0
	objects, err := r.g.OpenBatch(ctx, r.dir)
	if err != nil {
		r.t.Fatal(err)
	}
	defer objects.Close()
	if err := objects.Objects(ids, func(_ int, _ string, b []byte) error { blobs[wanted[i]] = b; i++; return nil }); err != nil {
		r.t.Fatal(err)
	}
	return tree.VerifyIndex(tes, blobs)
}

// check runs Verify and compares it with the reference.
func (r *stagedRepo) check(stage string) {
	r.t.Helper()
	rep, err := Verify(context.Background(), r.g, r.dir, Options{Notes: true})
	if err != nil {
		r.t.Fatalf("%s: Verify: %v", stage, err)
	}
	if len(rep.Trees) != 1 {
		r.t.Fatalf("%s: Verify verified %d trees (note %q)", stage, len(rep.Trees), rep.Note)
	}
	want := r.fullVerify()
	got := rep.Trees[0]
	if diff := cmp.Diff(want.Findings, got.Findings); diff != "" {
		r.t.Errorf("%s: findings (-full verify +staged with cache):\n%s", stage, diff)
	}
	if diff := cmp.Diff(want.Scanned, got.Scanned); diff != "" {
		r.t.Errorf("%s: scanned (-full verify +staged with cache):\n%s", stage, diff)
	}
	if got.OK != want.OK() || rep.OK != want.OK() {
		r.t.Errorf("%s: ok = %v/%v, full verify %v", stage, got.OK, rep.OK, want.OK())
	}
}

func (r *stagedRepo) cacheFile() string {
	return filepath.Join(r.dir, ".git", cacheDir, cacheName)
}

// TestCacheEqualsFullVerify: verify --staged with the per-document
// cache (cold, warm, after edits, deletions and renames, with a corrupt or
// foreign cache file) reports exactly what a full verify of the index
// reports, for a tree with every kind of finding.
func TestCacheEqualsFullVerify(t *testing.T) {
	docs := 400
	if testing.Short() {
		docs = 100 // the 300 changes below still pass the journal's limit
	}
	r := newStagedRepo(t, docs)
	// Findings of every kind a document or the tree structure can have.
	r.write("docs/ctx/bad/NODE.md", "---\ndescription: no title\nsoft_links: [gone.md, /../up.md, https://example.com/x]\n---\n\n[out](../../../etc/passwd)\n")
	r.write("docs/ctx/bad/nofm.md", "no frontmatter\n")
	r.write("docs/ctx/bad/yaml.md", "---\ntitle: [unclosed\n---\n")
	r.write("docs/ctx/bad/links.md", "---\ntitle: Links\nsoft_links:\n  - bad\n  - bad/nofm.md\n  - wide\n---\n\n![x](/../../x.png) `[code](../../../../x)`\n")
	r.write("docs/ctx/unindexed/doc.md", "---\ntitle: No index here\n---\n")
	r.write("docs/ctx/members/someone/NODE.md", "---\ntitle: Someone\n---\n")
	big := "---\ntitle: Big\n---\n" + strings.Repeat("x", contracts.MaxDocumentBytes)
	r.write("docs/ctx/bad/big.md", big)
	r.git("add", "-A")
	head := r.git("rev-parse", "HEAD")
	r.git("update-index", "--add", "--cacheinfo", "120000,"+r.git("hash-object", "-w", "--stdin")+",docs/ctx/bad/link.md")
	r.git("update-index", "--add", "--cacheinfo", "160000,"+head+",docs/ctx/bad/sub")

	if _, err := os.Stat(r.cacheFile()); err == nil {
		t.Fatal("a cache exists before any run")
	}
	codes := map[contracts.FindingCode]bool{}
	for _, f := range r.fullVerify().Findings {
		codes[f.Code] = true
	}
	for _, c := range []contracts.FindingCode{contracts.FindingTitleMissing, contracts.FindingSoftLinkBroken, contracts.FindingSoftLinkPathEscape,
		contracts.FindingMarkdownLinkPathEscape, contracts.FindingDirectoryNodeMissing, contracts.FindingSymlinkUnsupported,
		contracts.FindingNotRegular, contracts.FindingDocumentUnreadable, contracts.FindingFrontmatterMissing, contracts.FindingFrontmatterParse} {
		if !codes[c] {
			t.Errorf("the test tree has no %s finding (it has %v)", c, codes)
		}
	}
	r.check("cold cache")
	cached, err := os.ReadFile(r.cacheFile())
	if err != nil {
		t.Fatalf("no cache written: %v", err)
	}
	r.check("warm cache")
	if again, _ := os.ReadFile(r.cacheFile()); !bytes.Equal(again, cached) {
		t.Errorf("a run that parsed nothing rewrote the cache")
	}
	if _, err := os.Stat(r.cacheFile() + journalSuffix); err == nil {
		t.Errorf("a run that parsed nothing wrote a journal")
	}

	// One document changed: its record goes to the journal, the file stays.
	r.write("docs/ctx/bad/nofm.md", "still no frontmatter\n")
	r.git("add", "docs/ctx/bad/nofm.md")
	r.check("one change (journal)")
	if again, _ := os.ReadFile(r.cacheFile()); !bytes.Equal(again, cached) {
		t.Errorf("one change rewrote the whole cache")
	}
	journal, err := os.ReadFile(r.cacheFile() + journalSuffix)
	if err != nil {
		t.Fatalf("no journal: %v", err)
	}
	if recs, err := decodeCache(journal, cacheFingerprint()); err != nil || len(recs) != 1 || recs[0].key.rel != "bad/nofm.md" {
		t.Errorf("journal = %+v, %v; want the one changed document", recs, err)
	}
	r.check("journal read back")
	// The same document staged under its old content again: the file's
	// record still serves (the journal's does not shadow it).
	r.write("docs/ctx/bad/nofm.md", "no frontmatter\n")
	r.git("add", "docs/ctx/bad/nofm.md")
	r.check("back to a record of the file")
	// Many changes at once: the file is rewritten and the journal dropped.
	for i := range 300 {
		r.write(fmt.Sprintf("docs/ctx/many/doc%03d.md", i), fmt.Sprintf("---\ntitle: Many %d\n---\n", i))
	}
	r.write("docs/ctx/many/NODE.md", "---\ntitle: Many\n---\n")
	r.git("add", "docs/ctx/many")
	r.check("many changes (the file rewritten)")
	if _, err := os.Stat(r.cacheFile() + journalSuffix); err == nil {
		t.Errorf("a rewritten cache left its journal")
	}
	if again, _ := os.ReadFile(r.cacheFile()); bytes.Equal(again, cached) {
		t.Errorf("many changes did not rewrite the cache")
	}

	// Edits: a finding fixed, one introduced, a soft-link target deleted
	// (its linker unchanged, so cached), a document renamed.
	r.write("docs/ctx/bad/nofm.md", "---\ntitle: Fixed\n---\n")
	r.write("docs/ctx/bad/yaml.md", "---\ntitle: Still broken\nsoft_links: 3\n---\n")
	r.git("add", "docs/ctx/bad")
	r.git("rm", "-q", "--cached", "docs/ctx/wide/NODE.md")
	r.git("mv", "docs/ctx/bad/links.md", "docs/ctx/bad/moved.md")
	r.check("after edits")

	// A corrupt cache and a foreign one are ignored.
	data, _ := os.ReadFile(r.cacheFile())
	data[len(data)/2] ^= 0xff
	os.WriteFile(r.cacheFile(), data, 0o644)
	r.check("corrupt cache")
	os.WriteFile(r.cacheFile(), encodeCache("another binary", nil), 0o644)
	r.check("foreign cache")
	if _, err := decodeCache(encodeCache("x", nil), "y"); err == nil {
		t.Errorf("a cache with another fingerprint decoded")
	}

	// A cached result is bound to its path as well as its blob: the same
	// bytes at the tree's root NODE.md are judged as a root.
	r.write("docs/ctx/copy/NODE.md", "---\ntitle: Copy\n---\n\nBody.\n")
	r.git("add", "docs/ctx/copy")
	r.check("same blob, other path")

	// Nothing staged, but HEAD (committed with --no-verify) was never
	// judged: verified in full, never trusted (verified.go).
	r.git("commit", "-q", "--no-verify", "-m", "all")
	rep, err := Verify(context.Background(), r.g, r.dir, Options{Notes: true})
	if err != nil || len(rep.Trees) != 1 || rep.OK || rep.Note != "" {
		t.Errorf("nothing staged on an unjudged HEAD: %+v, %v", rep, err)
	}
}

// TestCacheRoundTrip encodes and decodes every field.
func TestCacheRoundTrip(t *testing.T) {
	in := []cacheRecord{
		{cacheKey{"b/é.md", "4567"}, tree.DocResult{
			Findings:  []contracts.Finding{{Code: contracts.FindingSoftLinkBroken, Message: "m", Path: "b/é.md", Line: 7, Target: "t"}},
			SoftLinks: []tree.SoftLink{{Value: "x.md", Line: 3}, {Value: "", Line: 0}},
			Cites:     []string{"src/a.go", "é/b.go"},
		}},
		{cacheKey{"a.md", "0123"}, tree.DocResult{}},
		{cacheKey{"a.md", "0000"}, tree.DocResult{SoftLinks: []tree.SoftLink{{Value: "b", Line: 1}}}},
		{cacheKey{"a.md", "0123"}, tree.DocResult{}}, // a duplicate: kept once
	}
	out, err := decodeCache(encodeCache("fp", in), "fp")
	if err != nil {
		t.Fatal(err)
	}
	want := []cacheRecord{in[2], in[1], in[0]} // sorted by path, then blob id
	if diff := cmp.Diff(want, out, cmp.AllowUnexported(cacheRecord{}, cacheKey{})); diff != "" {
		t.Errorf("round trip (-want +got):\n%s", diff)
	}
	enc := encodeCache("fp", in)
	for i := range enc {
		bad := append([]byte(nil), enc...)
		bad[i] ^= 0x55
		if _, err := decodeCache(bad, "fp"); err == nil {
			t.Fatalf("a cache with byte %d flipped decoded", i)
		}
	}
	if _, err := decodeCache(enc[:len(enc)-1], "fp"); err == nil {
		t.Errorf("a truncated cache decoded")
	}
}
