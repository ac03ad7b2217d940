package watch

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func newWatcher(t *testing.T) *Watcher {
	t.Helper()
	w, err := New()
	if errors.Is(err, ErrUnsupported) {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	return w
}

func TestMarkSeesChangesBelowDeepAndInFlatDirectories(t *testing.T) {
	w := newWatcher(t)
	root := t.TempDir()
	deep := filepath.Join(root, "tree")
	sub := filepath.Join(deep, "a", "b")
	flat := filepath.Join(root, "flat")
	for _, d := range []string{sub, filepath.Join(flat, "below")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	mark := func() *Mark {
		t.Helper()
		m, err := w.Mark([]Dir{{Path: deep, Deep: true}, {Path: flat}, {Path: filepath.Join(root, "missing")}})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(m.Close)
		return m
	}
	for _, tc := range []struct {
		name    string
		change  func() error
		changed bool
	}{
		{"nothing", func() error { _, err := os.ReadDir(sub); return err }, false},
		{"a file deep below", func() error { return os.WriteFile(filepath.Join(sub, "f"), []byte("x"), 0o644) }, true},
		{"a file in the flat directory", func() error { return os.WriteFile(filepath.Join(flat, "f"), []byte("x"), 0o644) }, true},
		{"below the flat directory", func() error { return os.WriteFile(filepath.Join(flat, "below", "f"), []byte("x"), 0o644) }, false},
		{"a mode", func() error { return os.Chmod(filepath.Join(sub, "f"), 0o755) }, true},
		{"a removal", func() error { return os.Remove(filepath.Join(sub, "f")) }, true},
	} {
		m := mark()
		if m.Changed() {
			t.Fatalf("%s: changed before the change", tc.name)
		}
		if err := tc.change(); err != nil {
			t.Fatal(err)
		}
		if got := m.Changed(); got != tc.changed {
			t.Errorf("%s: changed %v, want %v", tc.name, got, tc.changed)
		}
	}
}

func TestGitDirectoryLocksAreNotChanges(t *testing.T) {
	w := newWatcher(t)
	gitDir := t.TempDir()
	m, err := w.Mark([]Dir{{Path: gitDir, GitDir: true}})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	lock := filepath.Join(gitDir, "index.lock")
	if err := os.WriteFile(lock, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(lock); err != nil {
		t.Fatal(err)
	}
	if m.Changed() {
		t.Error("a lock taken and dropped counted as a change")
	}
	if err := os.WriteFile(lock, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(lock, filepath.Join(gitDir, "index")); err != nil {
		t.Fatal(err)
	}
	if !m.Changed() {
		t.Error("the lock renamed onto the index did not count")
	}
	// In a tree a file named *.lock is content like any other.
	tree := t.TempDir()
	m2, err := w.Mark([]Dir{{Path: tree, Deep: true}})
	if err != nil {
		t.Fatal(err)
	}
	defer m2.Close()
	if err := os.WriteFile(filepath.Join(tree, "yarn.lock"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if !m2.Changed() {
		t.Error("yarn.lock in a tree did not count")
	}
}

func TestCloseReleasesWatchesOnlyWhenUnused(t *testing.T) {
	w := newWatcher(t)
	dir := t.TempDir()
	a, err := w.Mark([]Dir{{Path: dir}})
	if err != nil {
		t.Fatal(err)
	}
	b, err := w.Mark([]Dir{{Path: dir}})
	if err != nil {
		t.Fatal(err)
	}
	a.Close()
	if !a.Changed() {
		t.Error("a closed mark must never vouch for anything")
	}
	if err := os.WriteFile(filepath.Join(dir, "f"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if !b.Changed() {
		t.Error("closing one mark removed the other's watch")
	}
	b.Close()
	if len(w.marks) != 0 {
		t.Errorf("watches left: %v", w.marks)
	}
}
