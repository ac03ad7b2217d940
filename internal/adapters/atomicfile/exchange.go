package atomicfile

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// ReplaceDir puts the directory staged in the place of dir, which may be
// missing, an empty directory or a directory the caller has judged
// replaceable, and removes what dir held. Where the system can exchange
// two paths in one step (Linux renameat2 RENAME_EXCHANGE, macOS
// renamex_np RENAME_SWAP) a reader sees the old directory or the new one,
// never neither; elsewhere dir is missing for the moment between two
// renames. staged must be on dir's filesystem (beside it).
func ReplaceDir(staged, dir string) error {
	if _, err := os.Lstat(dir); errors.Is(err, os.ErrNotExist) {
		return os.Rename(staged, dir)
	}
	if err := exchange(staged, dir); err == nil {
		return os.RemoveAll(staged) // now the old directory
	} else if !errors.Is(err, errExchangeUnsupported) {
		return err
	}
	old := filepath.Join(filepath.Dir(dir), "."+filepath.Base(dir)+".old-"+filepath.Base(staged))
	if err := os.Rename(dir, old); err != nil {
		return err
	}
	if err := os.Rename(staged, dir); err != nil {
		if back := os.Rename(old, dir); back != nil {
			return fmt.Errorf("%w (and the old directory stays at %s: %v)", err, old, back)
		}
		return err
	}
	return os.RemoveAll(old)
}

var errExchangeUnsupported = errors.New("exchanging paths is not supported here")
