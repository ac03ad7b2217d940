package tree

import (
	"io/fs"
	"path/filepath"
	"testing"

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
