package evals

import (
	"io/fs"
	"os"
	"path/filepath"
)

// readOnly makes a snapshot's files 0444 and directories 0555, so an agent
// answering one question cannot change what the next one reads.
func readOnly(root string) {
	var dirs []string
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return nil
		case d.IsDir():
			dirs = append(dirs, p)
		case d.Type().IsRegular():
			os.Chmod(p, 0o444)
		}
		return nil
	})
	for i := len(dirs) - 1; i >= 0; i-- { // deepest first: a parent stays writable until its children are done
		os.Chmod(dirs[i], 0o555)
	}
}

// removeTree removes a snapshot, its read-only directories first made
// writable again (never following a symlink an agent may have left).
func removeTree(root string) {
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			os.Chmod(p, 0o755)
		}
		return nil
	})
	os.RemoveAll(root)
}
