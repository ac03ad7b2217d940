package git

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Toplevel returns the work tree root of the checkout containing dir, or ""
// when dir is not inside a work tree. The answer is remembered for the
// life of g (one command): git runs once per directory and environment
// (location), and not at all where it could find no repository.
func (g *Git) Toplevel(ctx context.Context, scope Scope, dir string) (string, error) {
	loc, known, err := g.location(ctx, scope, dir)
	if err != nil {
		return "", err
	}
	if known {
		if loc == nil {
			return "", nil
		}
		return loc.Top, nil
	}
	out, err := g.Run(ctx, scope, dir, "rev-parse", "--path-format=absolute", "--show-toplevel")
	if err != nil {
		if ExitCode(err) == 128 {
			return "", nil // not a repository, or a bare one
		}
		return "", err
	}
	return strings.TrimSuffix(string(out), "\n"), nil
}

// GitDirAround returns the git directory git finds from dir when dir is in
// no work tree (Toplevel ""): dir inside a bare repository or a checkout's
// .git directory, or a GIT_DIR without a work tree; "" when git finds no
// repository. bare is git's answer for that repository. Git is not run
// where nothing above dir could hold one.
func (g *Git) GitDirAround(ctx context.Context, scope Scope, dir string) (gitDir string, bare bool, err error) {
	if !hasGitVars(g.Env) && noRepositoryAbove(dir) {
		return "", false, nil
	}
	out, err := g.Run(ctx, scope, dir, "rev-parse", "--is-bare-repository", "--path-format=absolute", "--git-dir")
	if err != nil {
		if ExitCode(err) == 128 {
			return "", false, nil
		}
		return "", false, err
	}
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(lines) != 2 {
		return "", false, fmt.Errorf("git rev-parse --is-bare-repository --git-dir: unexpected output %q", out)
	}
	return lines[1], lines[0] == "true", nil
}

// noRepositoryAbove reports that git cannot find a repository from dir:
// neither dir nor any directory above it, along its path as given or as
// resolved (git discovers from the resolved one), holds a ".git" entry of
// any kind or a "HEAD" entry (dir inside a git directory). It is only
// asked when no GIT_* variable can name a repository. Any doubt (an
// unreadable directory, a path that does not resolve) says false, and git
// is asked: this spares the git process of a command run outside every
// checkout, and never answers for git where a repository could be.
func noRepositoryAbove(dir string) bool {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return false
	}
	resolved, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return false
	}
	for _, start := range []string{abs, resolved} {
		for d := start; ; d = filepath.Dir(d) {
			if mayHoldRepository(d) {
				return false
			}
			if filepath.Dir(d) == d {
				break
			}
		}
	}
	return true
}

// Head returns the commit HEAD points at, or "" on an unborn branch.
func (g *Git) Head(ctx context.Context, scope Scope, dir string) (string, error) {
	out, err := g.Run(ctx, scope, dir, "rev-parse", "-q", "--verify", "HEAD^{commit}")
	if err != nil {
		if ExitCode(err) == 1 {
			return "", nil
		}
		return "", err
	}
	return strings.TrimSuffix(string(out), "\n"), nil
}

// Dirty reports whether anything under pathspec differs from HEAD: tracked
// changes, staged or not, and untracked files that are not ignored. It
// only looks (--no-optional-locks): status would otherwise take the
// index lock to store refreshed file stats, which can make the user's own
// git command in that checkout fail on index.lock, and which a watcher of
// the git directory would take for a change.
func (g *Git) Dirty(ctx context.Context, scope Scope, dir, pathspec string) (bool, error) {
	out, err := g.Run(ctx, scope, dir, "--no-optional-locks", "status", "--porcelain=v1", "-z", "--untracked-files=all", "--", pathspec)
	if err != nil {
		return false, err
	}
	return len(out) > 0, nil
}

// Branch returns the branch HEAD is on, or detached true when HEAD is
// detached.
func (g *Git) Branch(ctx context.Context, scope Scope, dir string) (branch string, detached bool, err error) {
	out, err := g.Run(ctx, scope, dir, "symbolic-ref", "-q", "HEAD")
	if err != nil {
		if ExitCode(err) == 1 {
			return "", true, nil
		}
		return "", false, err
	}
	return strings.TrimPrefix(strings.TrimSuffix(string(out), "\n"), "refs/heads/"), false, nil
}

// mayHoldRepository reports a directory where git's discovery could stop:
// it holds a ".git" entry of any kind (a repository, a git file) or a
// "HEAD" entry (it is a git directory); an entry that cannot be looked at
// counts as one.
func mayHoldRepository(d string) bool {
	for _, name := range []string{".git", "HEAD"} {
		if _, err := os.Lstat(filepath.Join(d, name)); !errors.Is(err, fs.ErrNotExist) {
			return true
		}
	}
	return false
}
