package atomicfile

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestReplaceDir(t *testing.T) {
	parent := t.TempDir()
	dir := filepath.Join(parent, "site")
	stage := func(content string) string {
		s, err := os.MkdirTemp(parent, ".site.staging-")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(s, "index.html"), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return s
	}
	// Onto nothing, then over the first directory, whose files go.
	if err := ReplaceDir(stage("one"), dir); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "stale.html"), []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := ReplaceDir(stage("two"), dir); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(dir, "index.html"))
	if err != nil || string(got) != "two" {
		t.Fatalf("index.html = %q, %v", got, err)
	}
	entries, err := os.ReadDir(parent)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if diff := cmp.Diff([]string{"site"}, names); diff != "" {
		t.Errorf("left beside the directory (-want +got):\n%s", diff)
	}
	if _, err := os.Stat(filepath.Join(dir, "stale.html")); !os.IsNotExist(err) {
		t.Errorf("the old directory's file survived: %v", err)
	}
}
