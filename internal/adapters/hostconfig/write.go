package hostconfig

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/adapters/atomicfile"
)

// Snippet is what the host's file should hold for the server, in the
// file's format.
func (h Host) Snippet() string {
	if h.Format == "toml" {
		return tomlBlock()
	}
	out, _, _ := upsertJSON(nil, h.entry) // from nothing: cannot fail
	return string(out)
}

// Write adds or updates the server's entry in the host's file, atomically,
// keeping everything else. A symlinked file is written where it points,
// so a dotfile manager's link survives. changed is false (and nothing is
// written) when the entry already is ours; a link to a file not there yet
// creates that file, not a regular file in place of the link. A file that cannot be edited
// faithfully is refused with HOST_CONFIG_INVALID.
func (h Host) Write(file string) (changed bool, err error) {
	file, err = linkTarget(file)
	if err != nil {
		return false, err
	}
	data, err := os.ReadFile(file)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return false, contracts.Errorf(contracts.CodeIO, "cannot read %s: %v", file, err)
	}
	var out []byte
	if h.Format == "toml" {
		out, changed, err = upsertTOML(data)
	} else {
		out, changed, err = upsertJSON(data, h.entry)
	}
	if err != nil {
		return false, contracts.Errorf(contracts.CodeHostConfigInvalid, "cannot add the %s server to %s: %v; nothing was changed", EntryName, file, err).
			WithDetails(map[string]any{"file": file})
	}
	if !changed {
		return false, nil
	}
	return true, replaceFile(file, out)
}

// replaceFile writes a configuration file atomically, its directory made
// as needed.
func replaceFile(file string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return contracts.Errorf(contracts.CodeIO, "cannot create %s: %v", filepath.Dir(file), err)
	}
	if err := atomicfile.Write(file, data, 0o644); err != nil {
		return contracts.Errorf(contracts.CodeIO, "cannot write %s: %v", file, err)
	}
	return nil
}

// linkTarget follows file's symlinks to the path they end at, which need
// not exist yet (a dangling link), so the write goes where the link points
// instead of replacing it.
func linkTarget(file string) (string, error) {
	for range 40 {
		fi, err := os.Lstat(file)
		if errors.Is(err, fs.ErrNotExist) {
			return file, nil
		}
		if err != nil {
			return "", contracts.Errorf(contracts.CodeIO, "cannot read %s: %v", file, err)
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			return file, nil
		}
		target, err := os.Readlink(file)
		if err != nil {
			return "", contracts.Errorf(contracts.CodeIO, "cannot read the symlink %s: %v", file, err)
		}
		if !filepath.IsAbs(target) {
			target = filepath.Join(filepath.Dir(file), target)
		}
		file = target
	}
	return "", contracts.Errorf(contracts.CodeIO, "cannot follow %s: too many levels of symbolic links", file)
}
