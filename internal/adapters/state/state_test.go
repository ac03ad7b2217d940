package state

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/environ"
)

func TestDirCreatesPrivateDirectories(t *testing.T) {
	h := &Home{Root: filepath.Join(t.TempDir(), "state")}
	dir, err := h.Dir("repos", "acme")
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{h.Root, filepath.Join(h.Root, "repos"), dir} {
		fi, err := os.Lstat(d)
		if err != nil || !fi.IsDir() || fi.Mode().Perm() != 0o700 {
			t.Errorf("%s: %v mode %v, want a 0700 directory", d, err, fi.Mode())
		}
	}
	if err := h.WriteFile(dir, "f.json", []byte("{}")); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(filepath.Join(dir, "f.json")); fi.Mode().Perm() != 0o600 {
		t.Errorf("file mode %v, want 0600", fi.Mode().Perm())
	}
}

func TestDirRefusesSymlinkedComponents(t *testing.T) {
	base := t.TempDir()
	elsewhere := filepath.Join(base, "elsewhere")
	os.Mkdir(elsewhere, 0o700)

	h := &Home{Root: filepath.Join(base, "state")}
	os.Mkdir(h.Root, 0o700)
	os.Symlink(elsewhere, filepath.Join(h.Root, "repos"))
	_, err := h.Dir("repos", "acme")
	var ce *contracts.Error
	if !errors.As(err, &ce) || ce.Code != contracts.CodeStateInvalid {
		t.Fatalf("symlinked component: %v, want STATE_INVALID", err)
	}
	if _, err := os.Lstat(filepath.Join(elsewhere, "acme")); !os.IsNotExist(err) {
		t.Errorf("created a directory through the symlink")
	}

	linked := &Home{Root: filepath.Join(base, "linked")}
	os.Symlink(elsewhere, linked.Root)
	if _, err := linked.Dir(); !errors.As(err, &ce) || ce.Code != contracts.CodeStateInvalid {
		t.Errorf("symlinked root: %v, want STATE_INVALID", err)
	}

	if err := os.WriteFile(filepath.Join(elsewhere, "x"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	os.Symlink(filepath.Join(elsewhere, "x"), filepath.Join(h.Root, "y"))
	if err := h.WriteFile(h.Root, "y", []byte("z")); !errors.As(err, &ce) || ce.Code != contracts.CodeStateInvalid {
		t.Errorf("write through a symlinked file: %v, want STATE_INVALID", err)
	}
}

func TestDirRejectsBadSegments(t *testing.T) {
	h := &Home{Root: t.TempDir()}
	for _, seg := range []string{"", ".", "..", "a/b"} {
		if _, err := h.Dir(seg); err == nil {
			t.Errorf("Dir(%q) accepted", seg)
		}
	}
}

func TestLocate(t *testing.T) {
	h, err := Locate(environ.Vars{HomeVar + "=rel/state", "HOME=/home/someone"}, "/work/dir")
	if err != nil || h.Root != "/work/dir/rel/state" {
		t.Fatalf("Locate() = %v, %v; want /work/dir/rel/state", h, err)
	}
	if h, _ := Locate(environ.Vars{HomeVar + "=", "HOME=/home/someone"}, "/work/dir"); h.Root != "/home/someone/.context-tree" {
		t.Errorf("default = %s", h.Root)
	}
	if _, err := Locate(environ.Vars{"PATH=/bin"}, "/work/dir"); err == nil {
		t.Errorf("no HOME and no %s: no error", HomeVar)
	}
}

func TestLockUnderLocks(t *testing.T) {
	h := &Home{Root: t.TempDir()}
	l, err := h.Lock("repo.acme.x", "test", time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(filepath.Join(h.Root, "locks", "repo.acme.x.lock")); err != nil {
		t.Errorf("lock file: %v", err)
	}
	l.Release()
}
