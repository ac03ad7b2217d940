package operations

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/hooks"
	"github.com/git-context-tree/git-context-tree/internal/adapters/atomicfile"
	"github.com/git-context-tree/git-context-tree/internal/adapters/git"
	"github.com/git-context-tree/git-context-tree/internal/tree"
)

// hookSite is where git runs this repository's pre-commit hook.
type hookSite struct {
	top, hooksDir string
	hook, local   string
	manager       *hookManager
}

func findHookSite(ctx context.Context, env Env) (*hookSite, error) {
	top, err := env.Git.Toplevel(ctx, git.Invoking, env.Dir)
	if err != nil {
		return nil, gitErr(err)
	}
	if top == "" {
		return nil, contracts.Errorf(contracts.CodeNoRepository, "%s is not in a git work tree; hooks belong to a repository", env.Dir)
	}
	dir, _, err := env.Git.HooksDir(ctx, env.Dir)
	if err != nil {
		return nil, gitErr(err)
	}
	s := &hookSite{top: top, hooksDir: dir,
		hook: filepath.Join(dir, "pre-commit"), local: filepath.Join(dir, "pre-commit.local")}
	s.manager = detectManager(top, dir) // both as git prints them
	return s, nil
}

// outsideRepository reports a hooks directory outside the work tree and the
// git dir: a global core.hooksPath shared by every repository.
func (s *hookSite) outsideRepository(ctx context.Context, env Env) bool {
	_, common, err := env.Git.HooksDir(ctx, env.Dir)
	if err != nil {
		return false
	}
	dir := tree.RealPath(s.hooksDir)
	_, inTop := tree.Inside(tree.RealPath(s.top), dir)
	_, inGitDir := tree.Inside(tree.RealPath(common), dir)
	return !inTop && !inGitDir
}

func (s *hookSite) result(action string) *contracts.HooksResult {
	r := &contracts.HooksResult{SchemaVersion: contracts.CLIVersion, Action: action, HooksDir: s.hooksDir, Hook: s.hook}
	fi, err := os.Lstat(s.hook)
	content, _ := os.ReadFile(s.hook)
	v, ours := hooks.Version(content)
	if err == nil && fi.Mode().IsRegular() && ours {
		r.Installed, r.ShimVersion = true, v
	}
	if exists(s.local) {
		r.Chained = s.local
	}
	switch {
	case r.Installed && fi.Mode().Perm()&0o111 == 0:
		r.Reason = "the hook is not executable, so git skips it"
	case r.Installed:
		r.Effective = true
	case s.manager != nil && s.manager.configured(s.top) && exists(s.hook):
		r.Effective, r.Manager = true, s.manager.name
	case s.manager != nil && s.manager.configured(s.top):
		r.Manager = s.manager.name
		r.Reason = s.manager.config + " runs `" + verifyCommand + "` but " + s.manager.name + "'s git hook is not installed; run `" + s.manager.install + "`"
	case s.manager != nil:
		r.Manager, r.Snippet = s.manager.name, s.manager.snippet
		r.Reason = s.manager.name + " is in use and " + s.manager.config + " does not run `" + verifyCommand + "` (or its hook is not installed)"
	default:
		r.Reason = "no pre-commit hook runs `" + verifyCommand + "`"
	}
	return r
}

// shimInstalled reports whether the pre-commit hook is our shim (any
// version): installing over it is an upgrade, never a delegation.
func (s *hookSite) shimInstalled() bool {
	fi, err := os.Lstat(s.hook)
	if err != nil || !fi.Mode().IsRegular() {
		return false
	}
	content, _ := os.ReadFile(s.hook)
	_, ours := hooks.Version(content)
	return ours
}

// HooksStatus reports whether git will run the tree check on commit.
func HooksStatus(ctx context.Context, env Env) (*contracts.HooksResult, error) {
	s, err := findHookSite(ctx, env)
	if err != nil {
		return nil, err
	}
	return s.result(contracts.HookStatus), nil
}

// HooksInstall installs the pre-commit shim where git runs hooks. A hook
// manager in use gets the line to add to its configuration instead (unless
// force); a foreign pre-commit hook is refused (force keeps it as
// pre-commit.local, run first); reinstalling is byte-identical and an
// older shim is upgraded.
func HooksInstall(ctx context.Context, env Env, force bool) (*contracts.HooksResult, error) {
	s, err := findHookSite(ctx, env)
	if err != nil {
		return nil, err
	}
	if s.manager != nil && !force && !s.shimInstalled() {
		return s.result(contracts.HookDelegated), nil
	}
	if s.outsideRepository(ctx, env) && !force {
		return nil, contracts.Errorf(contracts.CodeHooksPathOutside,
			"core.hooksPath is %s, outside this repository: a hook there runs for every repository that uses it; pass --force to install it anyway", s.hooksDir).
			WithDetails(map[string]any{"hooksDir": s.hooksDir})
	}
	if err := os.MkdirAll(s.hooksDir, 0o755); err != nil {
		return nil, contracts.Errorf(contracts.CodeIO, "cannot create %s: %v", s.hooksDir, err)
	}
	fi, err := os.Lstat(s.hook)
	existing, _ := os.ReadFile(s.hook)
	_, ours := hooks.Version(existing)
	action := contracts.HookInstalled
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return nil, contracts.Errorf(contracts.CodeIO, "cannot read %s: %v", s.hook, err)
	case fi.Mode().IsRegular() && ours:
		action = contracts.HookUpgraded
		if bytes.Equal(existing, hooks.PreCommit) && fi.Mode().Perm()&0o111 != 0 {
			return s.result(contracts.HookUnchanged), nil
		}
	default:
		if err := s.chainForeign(force); err != nil {
			return nil, err
		}
	}
	if err := atomicfile.Write(s.hook, hooks.PreCommit, 0o755); err != nil {
		return nil, contracts.Errorf(contracts.CodeIO, "cannot write %s: %v", s.hook, err)
	}
	if err := os.Chmod(s.hook, 0o755); err != nil {
		return nil, contracts.Errorf(contracts.CodeIO, "cannot make %s executable: %v", s.hook, err)
	}
	return s.result(action), nil
}

// chainForeign keeps a foreign hook (file or symlink, never followed) as
// pre-commit.local so the shim runs it first.
func (s *hookSite) chainForeign(force bool) error {
	if !force {
		return contracts.Errorf(contracts.CodeHookForeign,
			"%s is another pre-commit hook; nothing was changed. --force keeps it as pre-commit.local and runs it before the tree check", s.hook).
			WithDetails(map[string]any{"hook": s.hook})
	}
	if exists(s.local) {
		return contracts.Errorf(contracts.CodeHookForeign, "both %s and %s exist; move one away first", s.hook, s.local).
			WithDetails(map[string]any{"hook": s.hook, "chained": s.local})
	}
	if err := os.Rename(s.hook, s.local); err != nil {
		return contracts.Errorf(contracts.CodeIO, "cannot keep %s as %s: %v", s.hook, s.local, err)
	}
	return nil
}

// HooksUninstall removes our shim only, restoring a chained hook.
func HooksUninstall(ctx context.Context, env Env) (*contracts.HooksResult, error) {
	s, err := findHookSite(ctx, env)
	if err != nil {
		return nil, err
	}
	content, err := os.ReadFile(s.hook)
	fi, lerr := os.Lstat(s.hook)
	if _, ours := hooks.Version(content); err != nil || lerr != nil || !fi.Mode().IsRegular() || !ours {
		return s.result(contracts.HookAbsent), nil
	}
	if err := os.Remove(s.hook); err != nil {
		return nil, contracts.Errorf(contracts.CodeIO, "cannot remove %s: %v", s.hook, err)
	}
	if exists(s.local) {
		if err := os.Rename(s.local, s.hook); err != nil {
			return nil, contracts.Errorf(contracts.CodeIO, "removed the shim but cannot restore %s to %s: %v", s.local, s.hook, err)
		}
	}
	return s.result(contracts.HookRemoved), nil
}
