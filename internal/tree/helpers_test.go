package tree

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-context-tree/git-context-tree/contracts"
)

// rootNode is a valid root NODE.md.
const rootNode = "---\nschemaVersion: 1\ntitle: Root\n---\n\n# Root\n\nShared context.\n"

// doc returns a valid descendant document with the given title and body.
func doc(title, body string) string {
	return "---\ntitle: " + title + "\n---\n" + body
}

// writeTree creates files (tree-relative path → content) under a new
// temporary directory and returns its real path. A path ending in "/"
// creates an empty directory.
func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for rel, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if strings.HasSuffix(rel, "/") {
			mustMkdir(t, p)
			continue
		}
		mustMkdir(t, filepath.Dir(p))
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	root, err := OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	return root
}

func mustMkdir(t *testing.T, p string) {
	t.Helper()
	if err := os.MkdirAll(p, 0o755); err != nil {
		t.Fatal(err)
	}
}

func mustSymlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}

func mustLink(t *testing.T, old, name string) {
	t.Helper()
	if err := os.Link(old, name); err != nil {
		t.Fatal(err)
	}
}

// brief is a finding without its message, which tests never match.
type brief struct {
	Code   contracts.FindingCode
	Path   string
	Line   int
	Target string
}

func briefs(fs []contracts.Finding) []brief {
	out := []brief{}
	for _, f := range fs {
		out = append(out, brief{f.Code, f.Path, f.Line, f.Target})
	}
	return out
}

// codeLines renders findings as "CODE@line" for compact tables.
func codeLines(fs []contracts.Finding) []string {
	out := []string{}
	for _, f := range fs {
		out = append(out, fmt.Sprintf("%s@%d", f.Code, f.Line))
	}
	return out
}

// errCode is the contracts code of err, or "" when it has none.
func errCode(err error) contracts.ErrorCode {
	var ce *contracts.Error
	if errors.As(err, &ce) {
		return ce.Code
	}
	return ""
}
