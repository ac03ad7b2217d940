package sources

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/adapters/git"
	"github.com/git-context-tree/git-context-tree/internal/redact"
)

// A snapshot of a git source holds only the declared subtrees of its
// repository (a sparse checkout, see the git adapter), and its cache only
// their blobs. Directories are repository-relative and slash-separated;
// "." is the whole commit.

// covers reports whether the directories have hold every one of want.
func covers(have, want []string) bool {
	for _, w := range want {
		if !slices.ContainsFunc(have, func(h string) bool { return git.Under(w, h) }) {
			return false
		}
	}
	return true
}

// normaliseDirs sorts directories and drops those inside another one
// (everything inside ".").
func normaliseDirs(dirs []string) []string {
	dirs = slices.Clone(dirs)
	slices.Sort(dirs)
	dirs = slices.Compact(dirs)
	var out []string
	for _, d := range dirs {
		if !covers(out, []string{d}) {
			out = slices.DeleteFunc(out, func(o string) bool { return git.Under(o, d) })
			out = append(out, d)
		}
	}
	if covers(out, []string{"."}) {
		return []string{"."}
	}
	return out
}

// fetchBlobs brings the blobs of the directories of commit into the cache
// in one request, so that checking them out needs no lazy fetch (which is
// off), with the .gitignore and .gitattributes files of the directories
// on the way to them, which git reads from the index for paths outside a
// sparse checkout. Directories the commit does not have are skipped. A
// whole cache has every blob already; offline, missing blobs are
// CACHE_MISSING.
func (m *Managed) fetchBlobs(ctx context.Context, cache, repository, commit string, dirs []string, offline bool) error {
	var tips, paths, rulesMissing []string
	isDir := map[string]bool{}
	for _, d := range dirs {
		if d == "." {
			tips = append(tips, commit)
			continue
		}
		isDir[d] = true
		paths = append(paths, d)
		for p := path.Dir(d); ; p = path.Dir(p) {
			paths = append(paths, path.Join(p, ".gitignore"), path.Join(p, ".gitattributes"))
			if p == "." {
				break
			}
		}
	}
	if len(paths) > 0 {
		entries, err := m.Git.LsTree(ctx, cache, commit, false, paths...)
		if err != nil {
			return gitError(err)
		}
		for _, e := range entries {
			switch {
			case isDir[e.Path]:
				if e.Type == "tree" {
					tips = append(tips, e.ID)
				}
			case e.Type == "blob" && !m.Git.HasObject(ctx, cache, e.ID):
				rulesMissing = append(rulesMissing, e.ID)
			}
		}
	}
	missing, err := m.Git.MissingObjects(ctx, cache, tips...)
	if err != nil {
		return gitError(err)
	}
	missing = append(missing, rulesMissing...)
	if len(missing) == 0 {
		return nil
	}
	if offline {
		return contracts.Errorf(contracts.CodeCacheMissing,
			"%s: %d files of %s at %.12s are not cached on this machine; run `git context-tree sync` without --offline", repository, len(missing), strings.Join(dirs, ", "), commit).
			WithDetails(map[string]any{"repository": repository, "commit": commit})
	}
	if err := m.Git.FetchObjects(ctx, cache, "origin", missing, git.FetchOptions{Progress: m.progress(repository)}); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return contracts.Errorf(contracts.CodeFetchFailed, "cannot fetch the files of %s in %s: %s", strings.Join(dirs, ", "), repository, redact.String(git.Summary(err))).
			WithDetails(map[string]any{"repository": repository, "commit": commit})
	}
	return nil
}

// StrayOutside lists what lies on disk in a sparse checkout at root
// outside the directories dirs: anything but the root's .git and the
// directories on the way to dirs (slash-separated, relative to root). git
// looks at no path outside a sparse checkout's directories, so this is how
// a file added or restored there is found.
func StrayOutside(root string, dirs []string) ([]string, error) {
	if covers(dirs, []string{"."}) {
		return nil, nil
	}
	inside := map[string]bool{}
	onTheWay := map[string]bool{}
	for _, d := range dirs {
		inside[d] = true
		for p := path.Dir(d); p != "."; p = path.Dir(p) {
			onTheWay[p] = true
		}
	}
	var stray []string
	var walk func(rel string) error
	walk = func(rel string) error {
		entries, err := os.ReadDir(filepath.Join(root, filepath.FromSlash(rel)))
		if err != nil {
			return err
		}
		for _, e := range entries {
			p := path.Join(rel, e.Name())
			switch {
			case rel == "." && e.Name() == ".git", inside[p]:
			case onTheWay[p] && e.Type().IsDir():
				if err := walk(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
					return err
				}
			default:
				stray = append(stray, p)
			}
		}
		return nil
	}
	if err := walk("."); err != nil {
		return nil, err
	}
	return stray, nil
}
