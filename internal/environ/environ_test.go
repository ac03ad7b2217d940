package environ

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestLookupLastWins(t *testing.T) {
	v := Vars{"A=1", "B=", "A=2", "broken", "C=x=y"}
	for _, c := range []struct {
		name, want string
		ok         bool
	}{{"A", "2", true}, {"B", "", true}, {"C", "x=y", true}, {"D", "", false}, {"broken", "", false}} {
		if got, ok := v.Lookup(c.name); got != c.want || ok != c.ok {
			t.Errorf("Lookup(%q) = %q, %v; want %q, %v", c.name, got, ok, c.want, c.ok)
		}
	}
	if got := Vars(nil).Get("HOME"); got != "" {
		t.Errorf("nil Vars: HOME = %q", got)
	}
}

// List is never nil (exec.Cmd would give a nil Env the process's own), and
// appending to it leaves the Vars alone.
func TestListIsAFreshCopy(t *testing.T) {
	if l := Vars(nil).List(); l == nil || len(l) != 0 {
		t.Errorf("nil Vars: List = %#v", l)
	}
	v := make(Vars, 1, 4)
	v[0] = "A=1"
	l := append(v.List(), "B=2")
	if diff := cmp.Diff([]string{"A=1", "B=2"}, l); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if len(v) != 1 || v[:2][1] != "" {
		t.Errorf("List's append reached the Vars: %q", v[:2])
	}
}

func TestHomeAndTempDir(t *testing.T) {
	if h, err := (Vars{"HOME=/home/u"}).HomeDir(); h != "/home/u" || err != nil {
		t.Errorf("HomeDir = %q, %v", h, err)
	}
	if _, err := (Vars{"HOME="}).HomeDir(); err == nil {
		t.Error("empty HOME: no error")
	}
	if d := (Vars{"TMPDIR=/scratch"}).TempDir(); d != "/scratch" {
		t.Errorf("TempDir = %q", d)
	}
	if d := (Vars{}).TempDir(); d != "/tmp" {
		t.Errorf("TempDir without TMPDIR = %q", d)
	}
}

// LookPath searches the given PATH, and a path with a slash from the given
// directory: never the process's.
func TestLookPath(t *testing.T) {
	bin, other, dir := t.TempDir(), t.TempDir(), t.TempDir()
	writeExec(t, filepath.Join(bin, "tool"), 0o755)
	writeExec(t, filepath.Join(other, "tool"), 0o755)
	writeExec(t, filepath.Join(bin, "plain"), 0o644)
	writeExec(t, filepath.Join(dir, "local"), 0o755)
	if err := os.Mkdir(filepath.Join(bin, "adir"), 0o755); err != nil {
		t.Fatal(err)
	}
	v := Vars{"PATH=" + bin + string(filepath.ListSeparator) + other}
	if got, err := v.LookPath("tool", dir); got != filepath.Join(bin, "tool") || err != nil {
		t.Errorf("tool = %q, %v", got, err)
	}
	if got, err := (Vars{"PATH=" + other}).LookPath("tool", dir); got != filepath.Join(other, "tool") || err != nil {
		t.Errorf("tool along another PATH = %q, %v", got, err)
	}
	for _, name := range []string{"plain", "adir", "missing"} {
		if got, err := v.LookPath(name, dir); err == nil {
			t.Errorf("%s found: %q", name, got)
		}
	}
	if _, err := v.LookPath("missing", dir); !errors.Is(err, exec.ErrNotFound) {
		t.Errorf("missing: %v, want exec.ErrNotFound", err)
	}
	if got, err := v.LookPath("./local", dir); got != filepath.Join(dir, "local") || err != nil {
		t.Errorf("./local = %q, %v", got, err)
	}
	if _, err := v.LookPath("./local", ""); err == nil {
		t.Error("./local without a directory: found")
	}
	if _, err := (Vars{"PATH=."}).LookPath("local", dir); !errors.Is(err, exec.ErrDot) {
		t.Errorf("local through PATH=.: %v, want exec.ErrDot", err)
	}
	if _, err := (Vars{}).LookPath("sh", dir); err == nil {
		t.Error("sh found without a PATH")
	}
}

func writeExec(t *testing.T, path string, mode os.FileMode) {
	t.Helper()
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"), mode); err != nil {
		t.Fatal(err)
	}
}
