package sources

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
)

// Snapshots are read-only on disk (issue 34): a copy that an editor or an
// agent can write takes edits that the next sync throws away. Once a
// snapshot is built or widened its files lose their write bits (0444, 0555
// for executables), so an edit fails where it is made. Directories stay
// writable by their owner: a 0555 directory breaks every deletion that
// does not know to make it writable first (rm -rf of the state, a test's
// temporary directory, a backup tool), while what it would add (refusing
// a new file, or a save that renames over a file) is found by the integrity
// check and named by sync's "changes were discarded" note. Symlinks are
// never followed: a chmod through one would change its target. Write
// sessions are checkouts of their own, made by git, and keep ordinary
// modes. root ignores modes: for root the note remains the safety net.

// sealSnapshot makes the files of the snapshot at path read-only and
// records their new stamps (the chmod changed their ctime) in its index,
// so the integrity check need not read them again. Failing leaves a file
// writable, never the snapshot broken.
func (m *Managed) sealSnapshot(ctx context.Context, cache, path string) {
	_ = filepath.WalkDir(path, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if fi, err := d.Info(); err == nil && fi.Mode().Perm()&0o222 != 0 {
				_ = os.Chmod(p, fi.Mode().Perm()&^0o222)
			}
		}
		return nil
	})
	_ = m.Git.RefreshPlain(ctx, snapshotTree(cache, path))
	privateIndex(path) // git rewrote it with the umask's mode
}
