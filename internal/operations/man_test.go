package operations

import (
	"os"
	"path/filepath"
	"testing"
)

func TestDefaultManRoot(t *testing.T) {
	dir := t.TempDir()
	exe := filepath.Join(dir, "prefix", "bin", "git-context-tree")
	env := map[string]string{"HOME": "/home/u"}
	getenv := func(k string) string { return env[k] }
	if err := os.MkdirAll(filepath.Dir(exe), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(exe, nil, 0o755); err != nil {
		t.Fatal(err)
	}
	real, _ := filepath.EvalSymlinks(filepath.Join(dir, "prefix"))
	if got, want := DefaultManRoot(exe, getenv), filepath.Join(real, "share", "man"); got != want {
		t.Errorf("beside bin: %s, want %s", got, want)
	}
	if got := DefaultManRoot("/opt/tool/git-context-tree", getenv); got != "/home/u/.local/share/man" {
		t.Errorf("not in a bin directory: %s", got)
	}
	env["XDG_DATA_HOME"] = "/data"
	if got := DefaultManRoot("", getenv); got != "/data/man" {
		t.Errorf("XDG_DATA_HOME: %s", got)
	}
}

func TestManSearches(t *testing.T) {
	for _, tc := range []struct {
		manpath, path string
		want          bool
	}{
		{"", "/usr/bin:/p/bin", true},
		{"", "/usr/bin", false},
		{"/usr/share/man", "/p/bin", false},       // MANPATH set: PATH not used
		{"/usr/share/man:", "/p/bin", true},       // an empty entry: PATH too
		{"/usr/share/man:/p/share/man", "", true}, // listed
		{"", "/p/bin/", true},                     // trailing slash
		{"", "/p/sbin", false},                    // only */bin
	} {
		env := map[string]string{"MANPATH": tc.manpath, "PATH": tc.path}
		if got := manSearches("/p/share/man", func(k string) string { return env[k] }); got != tc.want {
			t.Errorf("MANPATH=%q PATH=%q: %v, want %v", tc.manpath, tc.path, got, tc.want)
		}
	}
}
