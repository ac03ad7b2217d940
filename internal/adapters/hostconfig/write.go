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
// keeping everything else. A file that is a symbolic link, or lies in a
// symlinked directory, is refused with HOST_CONFIG_INVALID and left alone:
// a link committed into a project could aim the write at any file the user
// can write (their git configuration, say). changed is false (and nothing
// is written) when the entry already is ours. A file that cannot be edited
// faithfully is refused with HOST_CONFIG_INVALID.
func (h Host) Write(file string) (changed bool, err error) {
	if err := refuseSymlinks(file); err != nil {
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
