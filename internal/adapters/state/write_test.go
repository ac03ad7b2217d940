package state

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/git-context-tree/git-context-tree/contracts"
)

// TestWriteFileRefusesADirectorySwappedAfterDir: a directory of the path
// replaced by a symlink after Dir returned it (what an agent running
// beside the tool can do) takes no write: WriteFile reaches the directory
// from the root again, one component at a time, never through a link.
func TestWriteFileRefusesADirectorySwappedAfterDir(t *testing.T) {
	base := t.TempDir()
	h := &Home{Root: filepath.Join(base, "state")}
	dir, err := h.Dir("evals", "run", "answers")
	if err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(base, "outside")
	if err := os.MkdirAll(filepath.Join(outside, "answers"), 0o700); err != nil {
		t.Fatal(err)
	}
	run := filepath.Join(h.Root, "evals", "run")
	if err := os.Rename(run, run+".moved"); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, run); err != nil {
		t.Fatal(err)
	}
	err = h.WriteFile(dir, "a.json", []byte("{}"))
	var ce *contracts.Error
	if !errors.As(err, &ce) || ce.Code != contracts.CodeStateInvalid || ce.Details["path"] != run {
		t.Errorf("WriteFile through a symlinked %s: %v, want STATE_INVALID naming it", run, err)
	}
	if entries, _ := os.ReadDir(filepath.Join(outside, "answers")); len(entries) != 0 {
		t.Errorf("wrote %v outside the state", entries)
	}
	if _, err := h.Dir("evals", "run", "answers"); !errors.As(err, &ce) || ce.Code != contracts.CodeStateInvalid {
		t.Errorf("Dir through the symlink: %v, want STATE_INVALID", err)
	}
}

// TestWriteFileReplacesWhole: a write replaces the file (mode 0600 even
// over a file of another mode), leaves no temporary file, refuses a name
// that is not one segment, and a directory that does not exist.
func TestWriteFileReplacesWhole(t *testing.T) {
	h := &Home{Root: filepath.Join(t.TempDir(), "state")}
	dir, err := h.Dir("history")
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "r.json")
	if err := os.WriteFile(file, []byte("old, longer than the new"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := h.WriteFile(dir, "r.json", []byte("new")); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(file)
	fi, _ := os.Stat(file)
	if string(data) != "new" || fi.Mode().Perm() != 0o600 {
		t.Errorf("file holds %q mode %v, want %q mode 0600", data, fi.Mode().Perm(), "new")
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("directory holds %v, want only r.json", entries)
	}
	var ce *contracts.Error
	for _, name := range []string{"", ".", "..", "a/b"} {
		if err := h.WriteFile(dir, name, nil); !errors.As(err, &ce) || ce.Code != contracts.CodeInternal {
			t.Errorf("WriteFile(%q) = %v, want INTERNAL", name, err)
		}
	}
	if err := h.WriteFile(filepath.Join(dir, "missing"), "r.json", nil); !errors.As(err, &ce) || ce.Code != contracts.CodeIO {
		t.Errorf("WriteFile into a missing directory = %v, want IO", err)
	}
}
