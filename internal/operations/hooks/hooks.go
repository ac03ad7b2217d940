// Package hooks is `git context-tree hooks`: it installs, removes and
// reports the shim that makes git run `verify --staged` for commits,
// merges, cherry-picks, rebases and git am (chaining foreign hooks, and
// deferring to husky, lefthook or the pre-commit framework when one manages
// the repository), judges whether a hook invocation has a commit to check,
// and says what is left to make a tree committed and checked (GitSteps).
// It builds on internal/operations, which never imports it.
package hooks

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/git-context-tree/git-context-tree/contracts"
	shim "github.com/git-context-tree/git-context-tree/hooks"
	"github.com/git-context-tree/git-context-tree/internal/adapters/atomicfile"
	"github.com/git-context-tree/git-context-tree/internal/adapters/git"
	"github.com/git-context-tree/git-context-tree/internal/operations"
	"github.com/git-context-tree/git-context-tree/internal/tree"
)

// hookNames are the git hooks the shim is installed as (the same file
// under each name). git runs pre-commit for commits (amends and the commit
// concluding a conflicted merge, cherry-pick or revert included),
// pre-merge-commit for merges it commits itself, prepare-commit-msg for
// every commit, among them those cherry-pick, revert and rebase make
// without running pre-commit, and pre-applypatch for git am. The first
// requiredHooks of them make the check effective.
var hookNames = []string{"pre-commit", "pre-merge-commit", "prepare-commit-msg", "pre-applypatch"}

const requiredHooks = 2

// notChecked says what goes unchecked without a hook, in messages.
var notChecked = map[string]string{
	"pre-commit":         "commits are not checked",
	"pre-merge-commit":   "merges are not checked",
	"prepare-commit-msg": "the commits cherry-pick, revert and rebase make are not checked",
	"pre-applypatch":     "git am is not checked",
}

// hookSite is where git runs this repository's hooks.
type hookSite struct {
	top, hooksDir string
	manager       *hookManager
}

func (s *hookSite) path(name string) string  { return filepath.Join(s.hooksDir, name) }
func (s *hookSite) local(name string) string { return filepath.Join(s.hooksDir, name+".local") }

func findHookSite(ctx context.Context, env operations.Env) (*hookSite, error) {
	top, err := env.Git.Toplevel(ctx, git.Invoking, env.Dir)
	if err != nil {
		return nil, operations.GitError(err)
	}
	if top == "" {
		return nil, contracts.Errorf(contracts.CodeNoRepository, "%s is not in a git work tree; hooks belong to a repository", env.Dir)
	}
	dir, _, err := env.Git.HooksDir(ctx, env.Dir)
	if err != nil {
		return nil, operations.GitError(err)
	}
	s := &hookSite{top: top, hooksDir: dir}
	s.manager = detectManager(top, dir) // both as git prints them
	return s, nil
}

// outsideRepository reports a hooks directory outside the work tree and the
// git dir: a global core.hooksPath shared by every repository.
func (s *hookSite) outsideRepository(ctx context.Context, env operations.Env) bool {
	_, common, err := env.Git.HooksDir(ctx, env.Dir)
	if err != nil {
		return false
	}
	dir := tree.RealPath(s.hooksDir)
	_, inTop := tree.Inside(tree.RealPath(s.top), dir)
	_, inGitDir := tree.Inside(tree.RealPath(common), dir)
	return !inTop && !inGitDir
}

// shim reads a hook file: whether it is our shim (a regular file with the
// marker line), its version, and whether it is executable.
func (s *hookSite) shim(name string) (ours bool, version int, executable bool) {
	p := s.path(name)
	fi, err := os.Lstat(p)
	if err != nil || !fi.Mode().IsRegular() {
		return false, 0, false
	}
	content, _ := os.ReadFile(p)
	version, ours = shim.Version(content)
	return ours, version, fi.Mode().Perm()&0o111 != 0
}

// hookFile reports one hook as the result shows it.
func (s *hookSite) hookFile(name, action string) contracts.HookFile {
	h := contracts.HookFile{Name: name, Path: s.path(name), Action: action}
	ours, version, executable := s.shim(name)
	if ours {
		h.Installed, h.ShimVersion = true, version
	}
	if exists(s.local(name)) {
		h.Chained = s.local(name)
	}
	m := s.manager
	switch {
	case ours && !executable:
		h.Reason = "the " + name + " hook is not executable (git skips it)"
	case ours:
		h.Effective = true
	case m != nil && m.configured(s.top, name) && exists(h.Path):
		h.Effective, h.Manager = true, m.name
	case m != nil && m.configured(s.top, name):
		h.Manager = m.name
		h.Reason = m.config(name) + " runs `" + verifyCommand + "` in " + name + " but " + m.name + "'s git hook is not installed; run `" + m.install(name) + "`"
		if name == "prepare-commit-msg" && m.twice != nil && m.twice(s.top) {
			h.Reason += " after you " + preCommitStages + " (else every commit is checked twice)"
		}
	case m != nil && m.advice != nil && m.advice(name) != "":
		h.Manager = m.name
		h.Reason = m.name + " is in use and " + m.config(name) + " does not run the check in " + name + ": " + m.advice(name)
	case m != nil:
		h.Manager = m.name
		h.Reason = m.name + " is in use and " + m.config(name) + " does not run `" + verifyCommand + "` in " + name + " (or its hook is not installed)"
	default:
		h.Reason = "no " + name + " hook runs `" + verifyCommand + "`"
	}
	if !h.Effective && exists(h.Path) && !ours && m == nil {
		h.Reason = name + " is another hook, which does not run `" + verifyCommand + "`"
	}
	if !h.Effective {
		h.Reason += ", so " + notChecked[name]
	}
	return h
}

func (s *hookSite) result(action string, actions map[string]string) *contracts.HooksResult {
	r := &contracts.HooksResult{SchemaVersion: contracts.CLIVersion, Action: action, HooksDir: s.hooksDir, Hook: s.path("pre-commit")}
	r.Effective = true
	for i, name := range hookNames {
		h := s.hookFile(name, actions[name])
		r.Hooks = append(r.Hooks, h)
		if i >= requiredHooks {
			continue
		}
		if !h.Effective && r.Effective {
			r.Effective, r.Reason = false, h.Reason
		}
		if h.Manager != "" && r.Manager == "" {
			r.Manager = h.Manager
		}
	}
	pre := r.Hooks[0]
	r.Installed, r.ShimVersion, r.Chained = pre.Installed, pre.ShimVersion, pre.Chained
	if s.manager != nil && !r.Effective && !s.anyShim() {
		r.Manager, r.Snippet, r.SnippetTarget = s.manager.name, s.manager.snippet, s.manager.where
		if allConfigured(s) {
			r.Snippet, r.SnippetTarget = "", ""
		}
	}
	r.Fix = s.fix(r)
	if m := s.manager; m != nil && m.twice != nil && !s.anyShim() && exists(s.path("prepare-commit-msg")) && m.twice(s.top) {
		r.Warnings = append(r.Warnings, m.config("prepare-commit-msg")+" runs `"+verifyCommand+"` in every hook type "+m.name+
			" is installed for, prepare-commit-msg included, so every commit is checked twice: "+preCommitStages)
	}
	return r
}

// fix is the one command that makes the check effective when it is not:
// the manager's own install when its configuration already runs the
// check in every required hook (hooks install would only delegate back to
// it), else hooks install (which prints a manager's lines to add).
func (s *hookSite) fix(r *contracts.HooksResult) string {
	if r.Effective {
		return ""
	}
	if m := s.manager; m != nil && !s.anyShim() {
		if allConfigured(s) {
			for _, h := range r.Hooks[:requiredHooks] {
				if !h.Effective {
					return m.install(h.Name)
				}
			}
		}
		return "git context-tree hooks install  # prints the lines to add to " + m.where
	}
	return "git context-tree hooks install"
}

// allConfigured reports whether the manager's configuration already runs
// the check in every required hook (only its git hooks may be missing).
func allConfigured(s *hookSite) bool {
	for _, name := range hookNames[:requiredHooks] {
		if !s.manager.configured(s.top, name) {
			return false
		}
	}
	return true
}

// anyShim reports whether any hook is our shim (any version): installing
// over it is an upgrade, never a delegation.
func (s *hookSite) anyShim() bool {
	for _, name := range hookNames {
		if ours, _, _ := s.shim(name); ours {
			return true
		}
	}
	return false
}

// Status reports whether git will run the tree check on commits and
// merges, hook by hook.
func Status(ctx context.Context, env operations.Env) (*contracts.HooksResult, error) {
	s, err := findHookSite(ctx, env)
	if err != nil {
		return nil, err
	}
	r := s.result(contracts.HookStatus, nil)
	judgeDeclared(ctx, env, s, r)
	return r, nil
}

// Install installs the shim as every hook of hookNames where git runs
// hooks. A hook manager in use gets the lines to add to its configuration
// instead (unless force); a foreign hook under any of the names is refused
// before anything is written (force keeps it as <name>.local, run first);
// reinstalling is byte-identical and an older shim is upgraded.
func Install(ctx context.Context, env operations.Env, force bool) (*contracts.HooksResult, error) {
	return InstallWith(ctx, env, InstallOptions{Force: force})
}

// InstallOptions are install's choices: Force as Install's; Ctxfile makes
// commits refresh and stage the .ctxfile envelope after the check.
type InstallOptions struct {
	Force, Ctxfile bool
}

// ctxfileKey is the repository setting the shim reads.
const ctxfileKey = "context-tree.ctxfile"

// InstallWith is Install with options.
func InstallWith(ctx context.Context, env operations.Env, opts InstallOptions) (*contracts.HooksResult, error) {
	force := opts.Force
	s, err := findHookSite(ctx, env)
	if err != nil {
		return nil, err
	}
	if s.manager != nil && !force && !s.anyShim() {
		r := s.result(contracts.HookDelegated, nil)
		judgeDeclared(ctx, env, s, r)
		return r, nil
	}
	if s.outsideRepository(ctx, env) && !force {
		return nil, contracts.Errorf(contracts.CodeHooksPathOutside,
			"core.hooksPath is %s, outside this repository: a hook there runs for every repository that uses it; pass --force to install it anyway", s.hooksDir).
			WithDetails(map[string]any{"hooksDir": s.hooksDir})
	}
	// Every foreign hook is found before anything is written.
	foreign := map[string]bool{}
	for _, name := range hookNames {
		p := s.path(name)
		_, err := os.Lstat(p)
		switch ours, _, _ := s.shim(name); {
		case errors.Is(err, fs.ErrNotExist), ours:
		case err != nil:
			return nil, contracts.Errorf(contracts.CodeIO, "cannot read %s: %v", p, err)
		case !force:
			return nil, contracts.Errorf(contracts.CodeHookForeign,
				"%s is another %s hook; nothing was changed. --force keeps it as %s.local and runs it before the tree check", p, name, name).
				WithDetails(map[string]any{"hook": p})
		case exists(s.local(name)):
			return nil, contracts.Errorf(contracts.CodeHookForeign, "both %s and %s exist; move one away first", p, s.local(name)).
				WithDetails(map[string]any{"hook": p, "chained": s.local(name)})
		default:
			foreign[name] = true
		}
	}
	if err := os.MkdirAll(s.hooksDir, 0o755); err != nil {
		return nil, contracts.Errorf(contracts.CodeIO, "cannot create %s: %v", s.hooksDir, err)
	}
	actions := map[string]string{}
	preCommitOurs, _, _ := s.shim("pre-commit")
	for _, name := range hookNames {
		p := s.path(name)
		ours, _, executable := s.shim(name)
		existing, _ := os.ReadFile(p)
		switch {
		case ours && executable && bytes.Equal(existing, shim.PreCommit):
			actions[name] = contracts.HookUnchanged
			continue
		case ours:
			actions[name] = contracts.HookUpgraded
		default:
			actions[name] = contracts.HookInstalled
		}
		if foreign[name] {
			// Kept as <name>.local (a file or a symlink, never followed).
			if err := os.Rename(p, s.local(name)); err != nil {
				return nil, contracts.Errorf(contracts.CodeIO, "cannot keep %s as %s: %v", p, s.local(name), err)
			}
		}
		if err := atomicfile.Write(p, shim.PreCommit, 0o755); err != nil {
			return nil, contracts.Errorf(contracts.CodeIO, "cannot write %s: %v", p, err)
		}
		if err := os.Chmod(p, 0o755); err != nil {
			return nil, contracts.Errorf(contracts.CodeIO, "cannot make %s executable: %v", p, err)
		}
	}
	action := contracts.HookUnchanged
	switch {
	case !preCommitOurs:
		action = contracts.HookInstalled
	default:
		for _, a := range actions {
			if a != contracts.HookUnchanged {
				action = contracts.HookUpgraded
			}
		}
	}
	if opts.Ctxfile {
		if err := env.Git.SetLocalConfig(ctx, git.Invoking, env.Dir, ctxfileKey, "refresh"); err != nil {
			return nil, contracts.Errorf(contracts.CodeGit, "cannot set %s: %v", ctxfileKey, err)
		}
	}
	r := s.result(action, actions)
	r.Ctxfile = ctxfileRefresh(ctx, env)
	judgeDeclared(ctx, env, s, r)
	return r, nil
}

// ctxfileRefresh reports whether commits refresh the .ctxfile envelope.
func ctxfileRefresh(ctx context.Context, env operations.Env) bool {
	out, err := env.Git.Run(ctx, git.Invoking, env.Dir, "config", "--get", ctxfileKey)
	return err == nil && strings.TrimSpace(string(out)) == "refresh"
}

// Uninstall removes our shims only, restoring each chained hook.
func Uninstall(ctx context.Context, env operations.Env) (*contracts.HooksResult, error) {
	s, err := findHookSite(ctx, env)
	if err != nil {
		return nil, err
	}
	actions := map[string]string{}
	action := contracts.HookAbsent
	for _, name := range hookNames {
		actions[name] = contracts.HookAbsent
		if ours, _, _ := s.shim(name); !ours {
			continue
		}
		p := s.path(name)
		if err := os.Remove(p); err != nil {
			return nil, contracts.Errorf(contracts.CodeIO, "cannot remove %s: %v", p, err)
		}
		actions[name], action = contracts.HookRemoved, contracts.HookRemoved
		if exists(s.local(name)) {
			if err := os.Rename(s.local(name), p); err != nil {
				return nil, contracts.Errorf(contracts.CodeIO, "removed the shim but cannot restore %s to %s: %v", s.local(name), p, err)
			}
		}
	}
	if err := env.Git.UnsetLocalConfig(ctx, git.Invoking, env.Dir, ctxfileKey); err != nil {
		return nil, contracts.Errorf(contracts.CodeGit, "cannot unset %s: %v", ctxfileKey, err)
	}
	return s.result(action, actions), nil
}
