package tree

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/treegen"
)

// TestVerifyDiskAgrees holds verifyDisk, Verify's walk on Linux, to
// verifyContent's walk of the same tree (relative to directories, and by
// path) on a tree with every kind of entry the walk decides: classes
// (infrastructure at the root and deeper, members), names that are not
// UTF-8, symlinks to files and directories, FIFOs, hard links, oversized
// and malformed documents, directories without NODE.md, soft links to
// documents, directories and nothing, and a directory wider than one
// getdents buffer.
func TestVerifyDiskAgrees(t *testing.T) {
	if !openAtDirs {
		t.Skip("documents are opened by path on this system")
	}
	files := map[string]string{
		"NODE.md":                 rootNode,
		"ok.md":                   doc("OK", "[x](d/x.md) [out](../../up.md)"),
		"d/NODE.md":               doc("D", ""),
		"d/x.md":                  "---\ntitle: X\nsoft_links:\n  - d\n  - e\n  - ok.md\n  - nowhere.md\n  - x.md\n---\n",
		"e/y.md":                  doc("Y", ""),
		"e/f/NODE.md":             doc("F", "[a](../../../outside.md)"),
		"members/NODE.md":         doc("Members", ""),
		"members/ann/NODE.md":     doc("Ann", ""),
		"members/ann/notes.md":    "---\ntitle: 1\n---\n",
		"scripts/run.md":          "not a document at all",
		"e/scripts/NODE.md":       doc("Scripts below the root are content", ""),
		"node_modules/x/NODE.md":  "broken",
		"e/.hidden/NODE.md":       "broken",
		"e/dist/a.md":             "broken",
		"AGENTS.md":               "agent instructions, not content",
		"d/CLAUDE.md":             "agent instructions, not content",
		"members.md":              doc("Not a member", ""),
		"bad-yaml.md":             "---\ntitle: a: b\n---\n",
		"no-header.md":            "text [a](../b)\n",
		"asset.txt":               "an asset",
		"e/f/figure.svg":          "<svg/>",
		"wide/NODE.md":            doc("Wide", ""),
		"e/.git/config":           "[core]",
		"d/sub.md/NODE.md":        doc("A directory named like a document", ""),
		"members/ann/drafts/a.md": doc("A", ""),
	}
	for i := range 700 { // more entries than one getdents64 buffer holds
		files["wide/"+strings.Repeat("w", 120)+"-"+string(rune('a'+i%26))+strings.Repeat("x", i/26)+".md"] = doc("W", "")
	}
	root := writeTree(t, files)
	outside := t.TempDir()
	writeFile(t, filepath.Join(outside, "secret.md"), doc("Secret", ""))
	mustLink(t, filepath.Join(outside, "secret.md"), filepath.Join(root, "hard.md"))
	mustSymlink(t, filepath.Join(outside, "secret.md"), filepath.Join(root, "d", "ext.md"))
	mustSymlink(t, outside, filepath.Join(root, "e", "linked-dir"))
	mkfifo(t, filepath.Join(root, "e", "pipe.md"))
	mkfifo(t, filepath.Join(root, "e", "pipe"))
	sparse(t, filepath.Join(root, "e", "f", "big.md"), contracts.MaxDocumentBytes+1)
	writeFile(t, filepath.Join(root, "bad\xffname.md"), doc("Bad", ""))
	mustMkdir(t, filepath.Join(root, "bad\xfedir"))
	writeFile(t, filepath.Join(root, ".\xffhidden.md"), doc("Hidden", ""))

	got := verifyDisk(root, nil)
	if len(got.Findings) < 12 {
		t.Errorf("only %d findings: %+v", len(got.Findings), got.Findings)
	}
	for name, src := range map[string]content{
		"relative to directories": diskContent{root: root},
		"by path":                 pathContent{diskContent{root: root}},
	} {
		want := verifyContent(src, 0, VerifyOptions{})
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("verifyDisk differs from the walk %s (-walk +disk):\n%s", name, diff)
		}
	}
}

// TestVerifyDiskAgreesOnGeneratedTrees compares the walks on generated
// trees, some of whose documents are then broken or removed, so that soft
// links and directory indexes fail across directories the workers share.
func TestVerifyDiskAgreesOnGeneratedTrees(t *testing.T) {
	if !openAtDirs {
		t.Skip("documents are opened by path on this system")
	}
	dir := t.TempDir()
	if err := treegen.Generate(dir, treegen.Options{Seed: 7, Docs: 1_500, WideChildren: 200}); err != nil {
		t.Fatal(err)
	}
	n := 0
	err := filepath.WalkDir(dir, func(p string, e os.DirEntry, err error) error {
		if err != nil || e.IsDir() || !strings.HasSuffix(p, ".md") {
			return err
		}
		n++
		switch n % 97 {
		case 0:
			return os.Remove(p) // a NODE.md gone, or a soft link's target
		case 13:
			return os.WriteFile(p, []byte("---\ntitle: [broken\n---\n[x](../../../../../../../../x)\n"), 0o644)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	root, err := OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	got := verifyDisk(root, nil)
	want := verifyContent(diskContent{root: root}, 0, VerifyOptions{})
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("verifyDisk differs from the walk (-walk +disk):\n%s", diff)
	}
	if got.OK() || got.Scanned.Documents < 1_400 {
		t.Errorf("%d findings over %d documents: the mutations were not seen", len(got.Findings), got.Scanned.Documents)
	}
}

// TestEntryIsInfrastructureIsClassOf: the walk's class test of an entry
// agrees with ClassOf of its path.
func TestEntryIsInfrastructureIsClassOf(t *testing.T) {
	names := []string{"NODE.md", "a.md", ".git", ".x.md", "node_modules", "dist", "build", "__pycache__",
		".next", ".turbo", "AGENTS.md", "CLAUDE.md", "scripts", "members", "agents.md", "Dist", "x"}
	for _, dir := range []string{".", "a", "members", "scripts-not", "a/b"} {
		for _, name := range names {
			want := ClassOf(joinEntry(dir, name)) == contracts.ClassInfrastructure
			if got := entryIsInfrastructure(dir == ".", []byte(name)); got != want {
				t.Errorf("%s in %s: infrastructure %v, ClassOf says %v", name, dir, got, want)
			}
		}
	}
}

// TestOpenDirectoryRefusesSymlinks: a directory swapped for a symlink
// after the listing showed it is not followed by the walk's open.
func TestOpenDirectoryRefusesSymlinks(t *testing.T) {
	if !openAtDirs {
		t.Skip("directories are read by os.ReadDir on this system")
	}
	dir := t.TempDir()
	mustMkdir(t, filepath.Join(dir, "real"))
	mustSymlink(t, filepath.Join(dir, "real"), filepath.Join(dir, "link"))
	fd, err := openDirectory(filepath.Join(dir, "real"))
	if err != nil {
		t.Fatalf("a directory: %v", err)
	}
	_ = syscall.Close(fd)
	if fd, err := openDirectory(filepath.Join(dir, "link")); err == nil {
		_ = syscall.Close(fd)
		t.Error("a symlink to a directory was opened")
	}
}
