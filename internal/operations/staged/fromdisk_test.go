package staged

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/tree"
)

// TestFromWorkTree: a document is taken from the work tree only when the
// file there is a regular file holding exactly its staged blob; every
// other one is left for git: edited after staging, CRLF where the blob
// has LF, missing, a FIFO (never blocking the read), a symlink to a file
// with the right bytes, hard-linked, and over the size limit. Taken
// documents are judged as CheckDocument judges their bytes, on all cores
// (more documents than one worker's share).
func TestFromWorkTree(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	blobID := func(content []byte) string {
		cmd := exec.Command("git", "hash-object", "--stdin")
		cmd.Stdin = bytes.NewReader(content)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("git hash-object: %v", err)
		}
		return strings.TrimSpace(string(out))
	}
	write := func(rel string, content []byte) {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, content, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	good := []byte("---\ntitle: Good\ndescription: Fine.\n---\n\nBody.\n")
	bad := []byte("---\ntitle: [unclosed\n---\n")
	var docs []doc
	var want []int // the documents left for git
	add := func(rel string, staged []byte, leave bool) {
		if leave {
			want = append(want, len(docs))
		}
		docs = append(docs, doc{rel: rel, id: blobID(staged)})
	}
	for i := range 3 * fromDiskChunk {
		rel := fmt.Sprintf("many/d%03d.md", i)
		content := good
		if i%7 == 0 {
			content = bad
		}
		write(rel, content)
		add(rel, content, false)
	}
	write("edited.md", good) // the index holds bad: the file was fixed after `git add`
	add("edited.md", bad, true)
	write("crlf.md", bytes.ReplaceAll(good, []byte("\n"), []byte("\r\n")))
	add("crlf.md", good, true)
	add("missing.md", good, true)
	if err := syscall.Mkfifo(filepath.Join(root, "fifo.md"), 0o644); err != nil {
		t.Fatal(err)
	}
	add("fifo.md", nil, true)
	write("target.txt", good)
	if err := os.Symlink("target.txt", filepath.Join(root, "link.md")); err != nil {
		t.Fatal(err)
	}
	add("link.md", good, true)
	write("linked.md", good)
	if err := os.Link(filepath.Join(root, "linked.md"), filepath.Join(root, "other.txt")); err != nil {
		t.Fatal(err)
	}
	add("linked.md", good, true)
	large := append([]byte("---\ntitle: Large\n---\n"), bytes.Repeat([]byte("x"), contracts.MaxDocumentBytes)...)
	write("large.md", large)
	add("large.md", large, true)
	write("same.md", bad) // staged as the file holds it: taken, and judged bad
	add("same.md", bad, false)

	misses := make([]int, len(docs))
	for i := range docs {
		misses[i] = i
	}
	found := make([]tree.DocResult, len(docs))
	left := fromWorkTree(root, docs, misses, found)
	if diff := cmp.Diff(want, left); diff != "" {
		t.Fatalf("documents left for git (-want +got):\n%s", diff)
	}
	leftSet := map[int]bool{}
	for _, i := range left {
		leftSet[i] = true
	}
	for i, d := range docs {
		var wantRes tree.DocResult
		if !leftSet[i] {
			data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(d.rel)))
			if err != nil {
				t.Fatal(err)
			}
			wantRes = tree.CheckDocument(d.rel, data)
			if len(wantRes.Findings) == 0 && bytes.Equal(data, bad) {
				t.Fatalf("%s: the bad document has no findings: the test proves nothing", d.rel)
			}
		}
		if diff := cmp.Diff(wantRes, found[i]); diff != "" {
			t.Errorf("%s (-want +got):\n%s", d.rel, diff)
		}
	}
}
