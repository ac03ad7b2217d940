package operations

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sync"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/adapters/atomicfile"
	"github.com/git-context-tree/git-context-tree/internal/export"
)

// checkSiteOutput accepts a missing output directory, an empty one, or a
// previous site export (its marker file is a regular file at its root).
// Anything else is SITE_OUTPUT_FOREIGN: the export replaces the whole
// directory, so it must be one it wrote.
func checkSiteOutput(out string) error {
	fi, err := os.Lstat(out)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return contracts.Errorf(contracts.CodeIO, "cannot inspect %s: %v", out, unwrapPath(err))
	case fi.Mode()&fs.ModeSymlink != 0:
		return contracts.Errorf(contracts.CodeSiteOutputForeign, "%s is a symlink; the site export replaces its output directory and does not write through links", out)
	case !fi.IsDir():
		return contracts.Errorf(contracts.CodeSiteOutputForeign, "%s is not a directory", out)
	}
	entries, err := os.ReadDir(out)
	if err != nil {
		return contracts.Errorf(contracts.CodeIO, "cannot list %s: %v", out, unwrapPath(err))
	}
	if len(entries) == 0 {
		return nil
	}
	if m, err := os.Lstat(filepath.Join(out, export.SiteMarker)); err == nil && m.Mode().IsRegular() {
		return nil
	}
	return contracts.Errorf(contracts.CodeSiteOutputForeign,
		"%s is not empty and is not a previous site export (it has no %s); the export replaces the whole directory, so choose a new or empty one", out, export.SiteMarker)
}

// writeSite writes the site into a staging directory beside out, then puts
// it in out's place in one step, so a reader (or a web server) never sees
// half a site and a failed export leaves out as it was. replaced says a
// previous export was there.
func writeSite(out string, site *export.Site) (replaced bool, err error) {
	parent := filepath.Dir(out)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return false, contracts.Errorf(contracts.CodeIO, "cannot create %s: %v", parent, unwrapPath(err))
	}
	staging, err := os.MkdirTemp(parent, "."+filepath.Base(out)+".staging-")
	if err != nil {
		return false, contracts.Errorf(contracts.CodeIO, "cannot create a staging directory in %s: %v", parent, unwrapPath(err))
	}
	defer os.RemoveAll(staging) // gone after the swap; the old site after an exchange
	if err := os.Chmod(staging, 0o755); err != nil {
		return false, contracts.Errorf(contracts.CodeIO, "cannot set the permissions of %s: %v", staging, unwrapPath(err))
	}
	if err := writeSiteFiles(staging, site.Files); err != nil {
		return false, err
	}
	// Checked again right before the swap: the directory may have changed
	// while the site was written.
	if err := checkSiteOutput(out); err != nil {
		return false, err
	}
	_, statErr := os.Lstat(filepath.Join(out, export.SiteMarker))
	replaced = statErr == nil
	if err := atomicfile.ReplaceDir(staging, out); err != nil {
		return false, contracts.Errorf(contracts.CodeIO, "cannot put the site in place at %s: %v", out, unwrapPath(err))
	}
	return replaced, nil
}

// writeSiteFiles writes the files, directories first, on every core.
func writeSiteFiles(dir string, files []export.SiteFile) error {
	made := map[string]bool{".": true}
	for _, f := range files {
		d := filepath.Dir(filepath.FromSlash(f.Path))
		if made[d] {
			continue
		}
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			return contracts.Errorf(contracts.CodeIO, "cannot create %s: %v", d, unwrapPath(err))
		}
		made[d] = true
	}
	workers := min(runtime.GOMAXPROCS(0), len(files)/64+1)
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < len(files); i += workers {
				name := filepath.Join(dir, filepath.FromSlash(files[i].Path))
				if err := os.WriteFile(name, files[i].Data, 0o644); err != nil {
					errs[w] = contracts.Errorf(contracts.CodeIO, "cannot write %s: %v", files[i].Path, unwrapPath(err))
					return
				}
			}
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}
