// Package atomicfile replaces files atomically: write a temporary file in
// the same directory, fsync it, rename it over the target, fsync the
// directory (WriteCache, for caches, skips the fsyncs). Readers see the
// old file or the new one, never a mix.
package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Write replaces name with data. An existing file keeps its permissions;
// a new one gets perm.
func Write(name string, data []byte, perm fs.FileMode) error {
	return write(name, data, perm, true)
}

// WriteCache is Write without the fsyncs, for caches: readers still see
// the old file or the new one, never a mix, but after a crash the file may
// be the old one, or empty or torn, so it must carry its own check (a
// checksum) and losing it must only cost time. A cache rewritten on every
// commit should not wait on the disk.
func WriteCache(name string, data []byte, perm fs.FileMode) error {
	return write(name, data, perm, false)
}

func write(name string, data []byte, perm fs.FileMode, durable bool) error {
	if fi, err := os.Stat(name); err == nil {
		perm = fi.Mode().Perm()
	} else if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	dir := filepath.Dir(name)
	f, err := os.CreateTemp(dir, "."+filepath.Base(name)+".tmp-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	fail := func(err error) error {
		f.Close()
		os.Remove(tmp)
		return err
	}
	if _, err := f.Write(data); err != nil {
		return fail(err)
	}
	if err := f.Chmod(perm); err != nil {
		return fail(err)
	}
	if durable {
		if err := f.Sync(); err != nil {
			return fail(err)
		}
	}
	if err := f.Close(); err != nil {
		os.Remove(tmp)
		return err
	}
	if err := os.Rename(tmp, name); err != nil {
		os.Remove(tmp)
		return err
	}
	if !durable {
		return nil
	}
	return syncDir(dir)
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("sync %s: %w", dir, err)
	}
	return nil
}
