package atomicfile

import (
	"os"
	"path/filepath"
	"testing"
)

func TestWriteKeepsPermissionsAndLeavesNoTemp(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "f.json")
	if err := Write(name, []byte("one"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(name, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := Write(name, []byte("two"), 0o644); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(name)
	fi, _ := os.Stat(name)
	if string(data) != "two" || fi.Mode().Perm() != 0o600 {
		t.Errorf("content %q mode %v, want two 0600", data, fi.Mode().Perm())
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("directory holds %d entries, want only the file", len(entries))
	}
}

func TestWriteFailureLeavesOriginal(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root ignores directory permissions")
	}
	dir := t.TempDir()
	name := filepath.Join(dir, "f")
	os.WriteFile(name, []byte("original"), 0o644)
	os.Chmod(dir, 0o555)
	defer os.Chmod(dir, 0o755)
	if err := Write(name, []byte("new"), 0o644); err == nil {
		t.Fatal("write into a read-only directory succeeded")
	}
	if data, _ := os.ReadFile(name); string(data) != "original" {
		t.Errorf("original changed to %q", data)
	}
}

func TestWriteCache(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "cache")
	for _, content := range []string{"one", "two"} {
		if err := WriteCache(name, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	data, _ := os.ReadFile(name)
	fi, _ := os.Stat(name)
	entries, _ := os.ReadDir(dir)
	if string(data) != "two" || fi.Mode().Perm() != 0o600 || len(entries) != 1 {
		t.Errorf("content %q mode %v, %d entries; want two 0600, 1", data, fi.Mode().Perm(), len(entries))
	}
}
