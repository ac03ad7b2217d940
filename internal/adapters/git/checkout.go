package git

import (
	"context"
	"os"
	"strings"
)

// Toplevel returns the work tree root of the checkout containing dir, or ""
// when dir is not inside a work tree. The answer is remembered for the
// life of g (one command): git runs once per directory and environment.
func (g *Git) Toplevel(ctx context.Context, scope Scope, dir string) (string, error) {
	key := toplevelKey{scope: scope, dir: dir}
	if !hasGitVars(os.Environ()) {
		key.scope = Invoking // nothing to scrub: both scopes see the same
	}
	g.toplevelsMu.Lock()
	top, ok := g.toplevels[key]
	g.toplevelsMu.Unlock()
	if ok {
		return top, nil
	}
	out, err := g.Run(ctx, scope, dir, "rev-parse", "--path-format=absolute", "--show-toplevel")
	if err != nil {
		if ExitCode(err) != 128 {
			return "", err
		}
		out = nil // not a repository, or a bare one
	}
	top = strings.TrimSuffix(string(out), "\n")
	g.toplevelsMu.Lock()
	if g.toplevels == nil {
		g.toplevels = map[toplevelKey]string{}
	}
	g.toplevels[key] = top
	g.toplevelsMu.Unlock()
	return top, nil
}

type toplevelKey struct {
	scope Scope
	dir   string
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
