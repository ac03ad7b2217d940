package tree

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/git-context-tree/git-context-tree/contracts"
)

func TestScaffoldVerifiesClean(t *testing.T) {
	for _, title := range []string{"team handbook", "Title: with colon", "#hash", "- dash", "'quoted' \"twice\"", "yes", "1", "Ünïcødé ✓", "  padded  ",
		"[out](../../x.md)", "![i](/../i.png)", "<https://x>", "&#46;&#46;", "a\\b", "`code`", "*em* _em_"} {
		t.Run(title, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "a", "b", "tree") // parents are created
			root, err := Scaffold(dir, title)
			if err != nil {
				t.Fatalf("Scaffold: %v", err)
			}
			if r := Verify(root); !r.OK() {
				t.Errorf("scaffolded tree has findings: %v", r.Findings)
			}
			got, err := Read(root, ".")
			if err != nil {
				t.Fatal(err)
			}
			if got.Node.Title != title {
				t.Errorf("title = %q, want %q", got.Node.Title, title)
			}
			data, err := os.ReadFile(filepath.Join(root, NodeFile))
			if err != nil {
				t.Fatal(err)
			}
			if len(data) > contracts.MaxRootBytes {
				t.Errorf("root NODE.md is %d bytes", len(data))
			}
		})
	}
}

func TestScaffoldRefusesExisting(t *testing.T) {
	dir := t.TempDir()
	existing := []byte("---\nnot: mine\n---\nuser content\n")
	writeFile(t, filepath.Join(dir, NodeFile), string(existing))
	_, err := Scaffold(dir, "New")
	if code := errCode(err); code != contracts.CodeTreeExists {
		t.Fatalf("err = %v (%s), want %s", err, code, contracts.CodeTreeExists)
	}
	got, err := os.ReadFile(filepath.Join(dir, NodeFile))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(existing, got) {
		t.Errorf("NODE.md changed:\n%s", got)
	}
}

func TestScaffoldRefusesSymlinkedNode(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(t.TempDir(), "elsewhere.md")
	mustSymlink(t, target, filepath.Join(dir, NodeFile))
	if _, err := Scaffold(dir, "New"); errCode(err) != contracts.CodeTreeExists {
		t.Fatalf("err = %v, want %s", err, contracts.CodeTreeExists)
	}
	if _, err := os.Lstat(target); !os.IsNotExist(err) {
		t.Errorf("Scaffold wrote through a dangling NODE.md symlink")
	}
}

func TestScaffoldRejectsSymlinkedDir(t *testing.T) {
	real := t.TempDir()
	link := filepath.Join(t.TempDir(), "link")
	mustSymlink(t, real, link)
	for _, dir := range []string{link, link + "/"} {
		if _, err := Scaffold(dir, "T"); errCode(err) != contracts.CodeRootSymlink {
			t.Errorf("Scaffold(%q) err = %v, want %s", dir, err, contracts.CodeRootSymlink)
		}
	}
	if _, err := os.Lstat(filepath.Join(real, NodeFile)); !os.IsNotExist(err) {
		t.Error("Scaffold wrote through a symlinked directory")
	}
}

func TestScaffoldRejectsBadTitles(t *testing.T) {
	for _, title := range []string{"", "   ", "two\nlines", "cr\rhere", "bad \xff utf-8", strings.Repeat("long ", 4000)} {
		dir := t.TempDir()
		if _, err := Scaffold(dir, title); errCode(err) != contracts.CodeUsage {
			t.Errorf("Scaffold(%.20q) err = %v, want %s", title, err, contracts.CodeUsage)
		}
		if _, err := os.Lstat(filepath.Join(dir, NodeFile)); !os.IsNotExist(err) {
			t.Errorf("Scaffold(%.20q) wrote NODE.md", title)
		}
	}
}

func TestScaffoldOnFile(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	writeFile(t, file, "x")
	if _, err := Scaffold(file, "T"); err == nil {
		t.Error("Scaffold on a regular file succeeded")
	}
}

func TestDefaultTitle(t *testing.T) {
	tests := []struct{ dir, want string }{
		{"/x/team-handbook", "team handbook"},
		{"docs/context", "context"},
		{"my_tree", "my tree"},
		{"a--b__c", "a b c"},
		{"/x/ünïcode", "ünïcode"},
		{"x/Already Capital", "Already Capital"},
		{"123", "123"},
		{"kb", "kb"},
		{"API_docs", "API docs"},
		{"/", "Context Tree"},
		{"", "Context Tree"},
		{".", "Context Tree"},
		{"---", "Context Tree"},
		{"/x/line\nbreak", "line break"},
		{"/x/tab\there", "tab here"},
		{"/x/bad\xffname", "bad name"},
	}
	for _, tt := range tests {
		got := DefaultTitle(tt.dir)
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("DefaultTitle(%q) (-want +got):\n%s", tt.dir, diff)
		}
		if _, err := RootDocument(got); err != nil {
			t.Errorf("RootDocument(DefaultTitle(%q)): %v", tt.dir, err)
		}
	}
}
