package hooks

import (
	"context"
	"path/filepath"
	"strings"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/adapters/git"
	"github.com/git-context-tree/git-context-tree/internal/operations"
	"github.com/git-context-tree/git-context-tree/internal/sources"
	"github.com/git-context-tree/git-context-tree/internal/tree"
)

// GitSteps are the commands that take trees (their roots) and the
// declaration from where a command left them to committed and checked by
// the hook: stage the configuration and each tree when git has changes of
// them not committed, install the hook when it is not, commit. Outside git
// there are none. They are advice: a question git cannot answer leaves its
// step out.
func GitSteps(ctx context.Context, env operations.Env, roots ...string) []contracts.NextStep {
	p, err := sources.Discover(ctx, env.Git, env.Dir)
	if err != nil || p.Checkout == "" {
		return nil
	}
	top := tree.RealPath(p.Checkout)
	// specs[i] is the repository-relative path of paths[i].
	var specs, paths []string
	if rel, ok := tree.Inside(top, tree.RealPath(p.ConfigFile)); ok {
		specs, paths = append(specs, filepath.ToSlash(rel)), append(paths, p.ConfigFile)
	}
	for _, root := range roots {
		if rel, ok := tree.Inside(top, root); ok && root != "" {
			specs, paths = append(specs, filepath.ToSlash(rel)), append(paths, root)
		}
	}
	var add []string
	var addConfig, addTree bool
	commit := false
	if len(specs) > 0 {
		if entries, err := env.Git.Status(ctx, p.Checkout, specs...); err == nil {
			for i, spec := range specs {
				staged, unstaged := pending(entries, spec)
				if unstaged {
					add = append(add, operations.ShellWord(operations.DisplayPath(env, paths[i])))
					if paths[i] == p.ConfigFile {
						addConfig = true
					} else {
						addTree = true
					}
				}
				commit = commit || staged || unstaged
			}
		}
	}
	var steps []contracts.NextStep
	if len(add) > 0 {
		what := "the tree and its declaration"
		switch {
		case !addTree:
			what = "the declaration"
		case !addConfig:
			what = "the tree"
		}
		steps = append(steps, contracts.NextStep{Command: "git add " + strings.Join(add, " "),
			Reason: "stage " + what + ": the hook checks what is committed"})
	}
	if !hookInstalled(ctx, env) {
		steps = append(steps, contracts.NextStep{Command: "git context-tree hooks install",
			Reason: "reject commits that break the tree"})
	}
	if commit {
		steps = append(steps, contracts.NextStep{Command: "git commit", Reason: "commit them"})
	}
	return steps
}

// pending reports changes git has not committed (ignored files aside) at
// or below the repository-relative path spec: staged ones, and ones in the
// work tree that are not staged yet.
func pending(entries []git.StatusEntry, spec string) (staged, unstaged bool) {
	for _, e := range entries {
		if e.Kind != '!' && (spec == "." || e.Path == spec || strings.HasPrefix(e.Path, spec+"/")) {
			if e.Unstaged {
				unstaged = true
			} else {
				staged = true
			}
		}
	}
	return staged, unstaged
}

// hookInstalled reports whether git runs the tree check for commits and
// merges in the command's repository (an error counts as installed:
// advice must not nag about what it cannot tell).
func hookInstalled(ctx context.Context, env operations.Env) bool {
	s, err := findHookSite(ctx, env)
	if err != nil {
		return true
	}
	for _, name := range hookNames[:requiredHooks] {
		if !s.hookFile(name, "").Effective {
			return false
		}
	}
	return true
}

// DeclaredSteps are GitSteps for every directory tree the project declares
// (what `hooks install` leaves to do: stage and commit them).
func DeclaredSteps(ctx context.Context, env operations.Env) []contracts.NextStep {
	_, conns, err := operations.OpenProject(ctx, env)
	if err != nil {
		return nil
	}
	var roots []string
	for _, c := range conns {
		if c.Source.Kind == contracts.SourceDirectory {
			roots = append(roots, c.Dir)
		}
	}
	return GitSteps(ctx, env, roots...)
}
