package skills

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// staging is a hidden directory beside the skills being replaced (so
// renames stay on one filesystem): new/<name> holds a complete new skill
// before it is renamed into place, old/<name> what it replaced until the
// staging directory is deleted. Hosts never see a half-written skill;
// skills nested two levels down are not loaded by any host.
type staging struct {
	dir  string // the skills directory
	root string // the staging directory inside it
	done bool
}

func newStaging(dir string) (*staging, error) {
	root, err := os.MkdirTemp(dir, stagingPrefix)
	if err != nil {
		return nil, ioErr("write skills in", dir, err)
	}
	st := &staging{dir: dir, root: root}
	for _, sub := range []string{"new", "old"} {
		if err := os.Mkdir(filepath.Join(root, sub), 0o700); err != nil {
			st.discard()
			return nil, ioErr("write skills in", dir, err)
		}
	}
	return st, nil
}

// build writes skill s completely under new/: directories 0755, files 0644
// (set explicitly, whatever the umask), each file synced.
func (st *staging) build(s *Skill) error {
	base := filepath.Join(st.root, "new", s.Name)
	for _, d := range append([]string{"."}, s.dirs()...) {
		p := filepath.Join(base, filepath.FromSlash(d))
		if err := os.Mkdir(p, 0o755); err != nil {
			return ioErr("create", p, err)
		}
		if err := os.Chmod(p, 0o755); err != nil {
			return ioErr("create", p, err)
		}
	}
	for _, rel := range s.Paths() {
		p := filepath.Join(base, filepath.FromSlash(rel))
		if err := writeFile(p, s.Files[rel]); err != nil {
			return ioErr("write", p, err)
		}
	}
	return nil
}

func writeFile(p string, data []byte) error {
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Chmod(0o644)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// swapIn replaces the entry name (whatever it is: a directory, a file, a
// symlink, which is moved, never followed) with the built skill. If the
// new skill cannot be moved in, the previous entry is put back.
func (st *staging) swapIn(name string) error {
	target := filepath.Join(st.dir, name)
	old := filepath.Join(st.root, "old", name)
	moved := false
	if _, err := os.Lstat(target); err == nil {
		if err := os.Rename(target, old); err != nil {
			return ioErr("replace", target, err)
		}
		moved = true
	}
	if err := os.Rename(filepath.Join(st.root, "new", name), target); err != nil {
		if moved {
			_ = os.Rename(old, target)
		}
		return ioErr("install", target, err)
	}
	return nil
}

// moveOut moves the entry name into old/, to be deleted with the staging
// directory.
func (st *staging) moveOut(name string) error {
	p := filepath.Join(st.dir, name)
	if err := os.Rename(p, filepath.Join(st.root, "old", name)); err != nil {
		return ioErr("remove", p, err)
	}
	return nil
}

// discard deletes the staging directory (once).
func (st *staging) discard() error {
	if st.done {
		return nil
	}
	st.done = true
	return removeAll(st.root)
}

// removeAll deletes a tree without following symlinks, making directories
// writable first if a plain removal is refused (a foreign skill may have
// read-only directories).
func removeAll(p string) error {
	if err := os.RemoveAll(p); err == nil {
		return nil
	}
	_ = filepath.WalkDir(p, func(q string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			_ = os.Chmod(q, 0o755)
		}
		return nil
	})
	if err := os.RemoveAll(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return ioErr("remove", p, err)
	}
	return nil
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return ioErr("sync", dir, err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return ioErr("sync", dir, err)
	}
	return nil
}
