package tree

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/git-context-tree/git-context-tree/contracts"
)

// TestVerifyReportsWhatReadRefuses: a tree cannot verify clean while some
// of its documents cannot be read. Every content document (and directory)
// read refuses has a finding of its own in Verify's report.
func TestVerifyReportsWhatReadRefuses(t *testing.T) {
	root := writeTree(t, map[string]string{
		"NODE.md":   rootNode,
		"ok.md":     doc("OK", ""),
		"d/NODE.md": doc("D", ""),
		"d/x.md":    doc("X", ""),
		"e/y.md":    doc("Y", ""),
	})
	outside := t.TempDir()
	writeFile(t, filepath.Join(outside, "secret.md"), doc("Secret", ""))
	mustLink(t, filepath.Join(outside, "secret.md"), filepath.Join(root, "hard.md"))
	mustLink(t, filepath.Join(root, "d", "x.md"), filepath.Join(root, "d", "twin.md"))
	mustSymlink(t, filepath.Join(outside, "secret.md"), filepath.Join(root, "ext.md"))
	mkfifo(t, filepath.Join(root, "pipe.md"))
	sparse(t, filepath.Join(root, "big.md"), contracts.MaxDocumentBytes+1)

	reported := map[string]bool{}
	for _, f := range Verify(root).Findings {
		reported[f.Path] = true
	}
	refused := 0
	err := filepath.WalkDir(root, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if !e.IsDir() && !IsDocumentName(e.Name()) {
			return nil
		}
		if _, err := Read(root, rel); err != nil {
			refused++
			if !reported[rel] {
				t.Errorf("read refuses %s (%v), but verify reports nothing there", rel, err)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if refused != 7 { // hard.md, d/x.md, d/twin.md, ext.md, pipe.md, big.md, e
		t.Errorf("read refused %d nodes, want 7", refused)
	}
}

// pathContent is a tree on disk served through the content interface
// only, so verify's walk opens every document by its path rather than
// relative to its directory (readFileIn).
type pathContent struct{ diskContent }

// TestVerifyOpenAtAgrees: verify reads documents relative to their
// directory's descriptor; the report is the one of opening each by path,
// findings for unreadable, hard-linked, symlinked, FIFO and oversized
// documents included, with and without the link existence check.
func TestVerifyOpenAtAgrees(t *testing.T) {
	if !openAtDirs {
		t.Skip("documents are opened by path on this system")
	}
	root := writeTree(t, map[string]string{
		"NODE.md":     rootNode,
		"ok.md":       doc("OK", "[x](d/x.md) [gone](d/gone.md)"),
		"d/NODE.md":   doc("D", ""),
		"d/x.md":      doc("X", "[up](../ok.md#nowhere)"),
		"e/y.md":      doc("Y", ""),
		"e/f/NODE.md": doc("F", "[a](../../../outside.md)"),
	})
	outside := t.TempDir()
	writeFile(t, filepath.Join(outside, "secret.md"), doc("Secret", ""))
	mustLink(t, filepath.Join(outside, "secret.md"), filepath.Join(root, "hard.md"))
	mustSymlink(t, filepath.Join(outside, "secret.md"), filepath.Join(root, "d", "ext.md"))
	mkfifo(t, filepath.Join(root, "e", "pipe.md"))
	sparse(t, filepath.Join(root, "e", "f", "big.md"), contracts.MaxDocumentBytes+1)
	for _, opts := range []VerifyOptions{{}, {Links: true}} {
		at := VerifyWith(root, opts)
		byPath := verifyContent(pathContent{diskContent{root: root}}, 0, opts)
		if diff := cmp.Diff(byPath, at); diff != "" {
			t.Errorf("links %v: verify relative to directories differs from by path (-path +at):\n%s", opts.Links, diff)
		}
		if len(at.Findings) < 6 {
			t.Errorf("links %v: only %d findings: %+v", opts.Links, len(at.Findings), at.Findings)
		}
	}
}

// TestReadDocumentAtAgrees: reading an entry relative to its directory
// gives the bytes or the error reading its path gives.
func TestReadDocumentAtAgrees(t *testing.T) {
	if !openAtDirs {
		t.Skip("documents are opened by path on this system")
	}
	dir := t.TempDir()
	outside := t.TempDir()
	writeFile(t, filepath.Join(dir, "ok.md"), doc("OK", strings.Repeat("body ", 30_000)))
	writeFile(t, filepath.Join(outside, "secret.md"), doc("Secret", ""))
	mustLink(t, filepath.Join(outside, "secret.md"), filepath.Join(dir, "hard.md"))
	mustSymlink(t, filepath.Join(outside, "secret.md"), filepath.Join(dir, "ext.md"))
	mkfifo(t, filepath.Join(dir, "pipe.md"))
	sparse(t, filepath.Join(dir, "big.md"), contracts.MaxDocumentBytes+1)
	mustMkdir(t, filepath.Join(dir, "sub.md"))
	f, err := os.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, name := range []string{"ok.md", "hard.md", "ext.md", "pipe.md", "big.md", "sub.md", "missing.md"} {
		var b1, b2 []byte
		p := filepath.Join(dir, name)
		want, wantErr := readDocumentInto(&b1, p, contracts.MaxDocumentBytes)
		got, gotErr := readDocumentAt(&b2, int(f.Fd()), name, docPath{rel: p}, contracts.MaxDocumentBytes)
		if !bytes.Equal(got, want) || fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
			t.Errorf("%s: at %d bytes, %v; by path %d bytes, %v", name, len(got), gotErr, len(want), wantErr)
		}
		if name == "ok.md" && (wantErr != nil || len(want) < 150_000) {
			t.Errorf("ok.md: %d bytes, %v", len(want), wantErr)
		}
	}
}
