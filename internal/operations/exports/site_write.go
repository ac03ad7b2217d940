package exports

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sync/atomic"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/adapters/atomicfile"
	"github.com/git-context-tree/git-context-tree/internal/export"
	"github.com/git-context-tree/git-context-tree/internal/operations"
	"github.com/git-context-tree/git-context-tree/internal/tree"
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

// siteHold holds the images a site copies from a git source's snapshot
// to its commit: observe is shown each image's bytes as written, check
// passes before the site is put in place. The pages were held when their
// documents were read; images are read again as the site is written, so
// they are held then. The zero siteHold holds nothing.
type siteHold struct {
	observe tree.Observer
	check   func() error
}

func holdImages(ctx context.Context, env operations.Env, t operations.TreeTarget) siteHold {
	served := t.ServedBlobs()
	if served == nil {
		return siteHold{}
	}
	return siteHold{observe: served.Observer(), check: func() error { return served.Check(ctx, env.Git) }}
}

// writeSite writes the site into a staging directory beside out, then puts
// it in out's place in one step, so a reader (or a web server) never sees
// half a site and a failed export leaves out as it was. replaced says a
// previous export was there; bytes is the size of the files written.
func writeSite(out string, site *export.Site, hold siteHold) (replaced bool, bytes int64, err error) {
	parent := filepath.Dir(out)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return false, 0, contracts.Errorf(contracts.CodeIO, "cannot create %s: %v", parent, unwrapPath(err))
	}
	staging, err := os.MkdirTemp(parent, "."+filepath.Base(out)+".staging-")
	if err != nil {
		return false, 0, contracts.Errorf(contracts.CodeIO, "cannot create a staging directory in %s: %v", parent, unwrapPath(err))
	}
	defer os.RemoveAll(staging) // gone after the swap; the old site after an exchange
	if err := os.Chmod(staging, 0o755); err != nil {
		return false, 0, contracts.Errorf(contracts.CodeIO, "cannot set the permissions of %s: %v", staging, unwrapPath(err))
	}
	bytes, err = writeSiteFiles(staging, site, hold.observe)
	if err != nil {
		return false, 0, err
	}
	if hold.check != nil {
		if err := hold.check(); err != nil {
			return false, 0, err
		}
	}
	// Checked again right before the swap: the directory may have changed
	// while the site was written.
	if err := checkSiteOutput(out); err != nil {
		return false, 0, err
	}
	_, statErr := os.Lstat(filepath.Join(out, export.SiteMarker))
	replaced = statErr == nil
	if err := atomicfile.ReplaceDir(staging, out); err != nil {
		return false, 0, contracts.Errorf(contracts.CodeIO, "cannot put the site in place at %s: %v", out, unwrapPath(err))
	}
	return replaced, bytes, nil
}

// writeSiteFiles renders the site's files into dir, directories first,
// showing observe (nil: none) each image copied from the tree.
func writeSiteFiles(dir string, site *export.Site, observe tree.Observer) (bytes int64, err error) {
	images := map[string]bool{}
	if observe != nil {
		for _, p := range site.Images() {
			images[p] = true
		}
	}
	made := map[string]bool{".": true}
	for _, p := range site.Paths {
		d := filepath.Dir(filepath.FromSlash(p))
		if made[d] {
			continue
		}
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			return 0, contracts.Errorf(contracts.CodeIO, "cannot create %s: %v", d, unwrapPath(err))
		}
		made[d] = true
	}
	var total atomic.Int64
	err = site.Write(func(f export.SiteFile) error {
		if images[f.Path] {
			observe(f.Path, f.Data)
		}
		name := filepath.Join(dir, filepath.FromSlash(f.Path))
		if err := os.WriteFile(name, f.Data, 0o644); err != nil {
			return contracts.Errorf(contracts.CodeIO, "cannot write %s: %v", f.Path, unwrapPath(err))
		}
		total.Add(int64(len(f.Data)))
		return nil
	})
	return total.Load(), err
}
