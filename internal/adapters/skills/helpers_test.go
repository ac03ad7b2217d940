package skills

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/git-context-tree/git-context-tree/contracts"
)

// fakeHome is a private HOME with the given directories created in it.
func fakeHome(t *testing.T, dirs ...string) string {
	t.Helper()
	home := t.TempDir()
	for _, d := range dirs {
		mkdir(t, filepath.Join(home, d))
	}
	return home
}

func mkdir(t *testing.T, p string) {
	t.Helper()
	if err := os.MkdirAll(p, 0o755); err != nil {
		t.Fatal(err)
	}
}

func put(t *testing.T, p, content string) {
	t.Helper()
	mkdir(t, filepath.Dir(p))
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// envOf is an Environment whose variables come from vars only.
func envOf(home string, vars map[string]string) Environment {
	return Environment{Home: home, Getenv: func(k string) string { return vars[k] }}
}

func bundle(t *testing.T, version string) *Bundle {
	t.Helper()
	b, err := Load(version)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// snapshot describes every entry under root: its type, mode and content
// (symlinks by their target), so whole trees compare with cmp.Diff.
func snapshot(t *testing.T, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		fi, err := os.Lstat(p)
		if err != nil {
			return err
		}
		switch {
		case fi.Mode()&fs.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			out[rel] = "symlink -> " + target
		case fi.IsDir():
			out[rel] = "dir " + fi.Mode().Perm().String()
		default:
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			out[rel] = "file " + fi.Mode().Perm().String() + " " + string(data)
		}
		return nil
	})
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		t.Fatal(err)
	}
	return out
}

// errCode is the contract error code of err ("" when none).
func errCode(err error) contracts.ErrorCode {
	var ce *contracts.Error
	if errors.As(err, &ce) {
		return ce.Code
	}
	return ""
}

// skillsIn lists the names of a directory's entries.
func skillsIn(t *testing.T, dir string) []string {
	t.Helper()
	des, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, d := range des {
		names = append(names, d.Name())
	}
	return names
}
