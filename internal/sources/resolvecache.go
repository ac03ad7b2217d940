package sources

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/git-context-tree/git-context-tree/internal/adapters/git"
	"github.com/git-context-tree/git-context-tree/internal/adapters/watch"
	"github.com/git-context-tree/git-context-tree/internal/environ"
)

// ResolveCache keeps what ResolveDirectory learnt from git about a
// checkout (branch, commit, dirtiness) for as long as nothing that can
// change it has changed: the tree's directories, the directories above it
// in the checkout (.gitignore files), the git directory (HEAD, index,
// config, info/exclude), its refs, and git's user configuration and
// ignore file. A long-running reader (the MCP server) then answers
// without running git status over every file on each call; any change
// there, seen synchronously (package watch), sends the next call to git
// again. A nil cache, or a system without a watcher, always asks git.
type ResolveCache struct {
	w       *watch.Watcher
	mu      sync.Mutex
	entries map[string]*resolved
}

// maxResolved bounds the trees kept, and so the directories watched.
const maxResolved = 16

type resolved struct {
	res  DirectoryResolution
	mark *watch.Mark
	// dirs is what the mark covers, known from the last resolution, so
	// the next mark can be set before git is asked again.
	dirs []watch.Dir
}

// NewResolveCache returns a cache, or nil where changes cannot be watched.
func NewResolveCache() *ResolveCache {
	w, err := watch.New()
	if err != nil {
		return nil
	}
	return &ResolveCache{w: w, entries: map[string]*resolved{}}
}

// Close stops watching; a closed cache asks git every time.
func (c *ResolveCache) Close() {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.w.Close()
	c.entries = map[string]*resolved{}
}

// Resolve is ResolveDirectory, answered from the cache while nothing it
// depends on changed. The mark is set before git runs, so a change made
// while git looks is never lost: it only makes the next call ask again.
func (c *ResolveCache) Resolve(ctx context.Context, g *git.Git, dir string) (*DirectoryResolution, error) {
	if c == nil {
		return ResolveDirectory(ctx, g, dir)
	}
	root, err := OpenDirectoryRoot(dir)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	e := c.entries[root]
	if e != nil && !e.mark.Changed() {
		r := e.res
		return &r, nil
	}
	if e == nil {
		// The first time, the layout (checkout, git directory) is not
		// known yet: ask git once to learn it, mark, and ask again.
		r, err := ResolveDirectory(ctx, g, root)
		if err != nil || !r.InGit() {
			return r, err
		}
		e = &resolved{}
		if e.dirs, err = watchedDirs(ctx, g, r); err != nil {
			return r, nil // not cached: the next call asks git again
		}
	} else {
		e.mark.Close()
	}
	delete(c.entries, root)
	if len(c.entries) >= maxResolved {
		// Snapshot roots change with every sync: forget the others.
		for k, old := range c.entries {
			old.mark.Close()
			delete(c.entries, k)
		}
	}
	mark, err := c.w.Mark(e.dirs)
	r, rerr := ResolveDirectory(ctx, g, root)
	if err != nil || rerr != nil || !r.InGit() {
		if mark != nil {
			mark.Close()
		}
		return r, rerr
	}
	dirs, werr := watchedDirs(ctx, g, r)
	if werr != nil || !slices.Equal(dirs, e.dirs) {
		// The checkout moved under the mark: keep nothing this time.
		mark.Close()
		return r, nil
	}
	e.res, e.mark = *r, mark
	c.entries[root] = e
	out := *r
	return &out, nil
}

// watchedDirs lists the directories whose changes can change r: the tree
// (deep); the directories from the checkout's top down to the tree's
// parent (their .gitignore files); the git directory, the common directory
// (HEAD, index, config, packed-refs), their info/ (exclude) and the refs
// (deep); and the directories of git's user and system configuration and
// ignore files.
func watchedDirs(ctx context.Context, g *git.Git, r *DirectoryResolution) ([]watch.Dir, error) {
	gitDir, common, err := g.GitDirs(ctx, git.Isolated, r.ContentRoot)
	if err != nil {
		return nil, err
	}
	dirs := []watch.Dir{{Path: r.ContentRoot, Deep: true}}
	for d := filepath.Dir(r.ContentRoot); r.Subtree != "." && strings.HasPrefix(d, r.RepositoryRoot); d = filepath.Dir(d) {
		dirs = append(dirs, watch.Dir{Path: d})
		if d == r.RepositoryRoot {
			break
		}
	}
	for _, d := range []string{gitDir, filepath.Join(gitDir, "info"), common, filepath.Join(common, "info")} {
		dirs = append(dirs, watch.Dir{Path: d, GitDir: true})
	}
	dirs = append(dirs, watch.Dir{Path: filepath.Join(common, "refs"), Deep: true, GitDir: true})
	for _, d := range userGitDirs(g.Env) {
		dirs = append(dirs, watch.Dir{Path: d})
	}
	// A core.excludesFile of the user's own says which files are ignored.
	if f, ok, err := g.UserConfig(ctx, r.ContentRoot, "core.excludesFile"); err == nil && ok && f != "" {
		if rest, found := strings.CutPrefix(f, "~/"); found {
			home, _ := g.Env.HomeDir()
			f = filepath.Join(home, rest)
		}
		if filepath.IsAbs(f) {
			dirs = append(dirs, watch.Dir{Path: filepath.Dir(f)})
		}
	}
	return dirs, nil
}

// userGitDirs are the directories of git's global and system
// configuration and of the default global ignore file: a change there can
// change what git status reports. env is git's environment.
func userGitDirs(env environ.Vars) []string {
	var dirs []string
	home, _ := env.HomeDir()
	if f := env.Get("GIT_CONFIG_GLOBAL"); f != "" {
		dirs = append(dirs, filepath.Dir(f))
	} else if home != "" {
		dirs = append(dirs, home)
	}
	xdg := env.Get("XDG_CONFIG_HOME")
	if xdg == "" && home != "" {
		xdg = filepath.Join(home, ".config")
	}
	if xdg != "" {
		dirs = append(dirs, filepath.Join(xdg, "git"))
	}
	if f := env.Get("GIT_CONFIG_SYSTEM"); f != "" {
		dirs = append(dirs, filepath.Dir(f))
	} else {
		dirs = append(dirs, "/etc")
	}
	return dirs
}
