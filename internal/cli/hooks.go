package cli

import (
	"fmt"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/operations/hooks"
)

type hooksCmd struct {
	Install   hooksInstallCmd   `cmd:"" help:"Install the hooks that verify trees as they are committed or merged."`
	Uninstall hooksUninstallCmd `cmd:"" help:"Remove our hooks, restoring chained ones."`
	Status    hooksStatusCmd    `cmd:"" help:"Tell whether git will run the tree check on commits and merges (exit 1 if not)."`
}

func (cmd *hooksCmd) Help() string {
	return `The hooks run "git context-tree verify --staged": it checks the trees as
the index holds them, so a commit or merge that breaks a tree is rejected.
One shim is installed as pre-commit (commits and amends), pre-merge-commit
(merges), prepare-commit-msg (the commits cherry-pick, revert and rebase
make, which run no pre-commit hook) and pre-applypatch (git am), where git
runs hooks (core.hooksPath or .git/hooks, per worktree setup). With husky,
lefthook or the pre-commit framework in use, install prints the lines to add
to their configuration instead. Skip the check once with
GIT_CONTEXT_TREE_SKIP=1, or pre-commit and pre-merge-commit with
--no-verify. Fast-forward merges and commits made with plumbing create no
commit a hook can judge; check those in CI.`
}

type hooksInstallCmd struct {
	Force   bool `name:"force" help:"Keep foreign hooks as <hook>.local (run first), install despite a hook manager or a core.hooksPath outside the repository."`
	Ctxfile bool `name:"ctxfile" help:"Also refresh and stage .ctxfile/context.json on every commit that passes the check (sets git config context-tree.ctxfile refresh)."`
}

func (cmd *hooksInstallCmd) Run(c *Context) error {
	res, err := hooks.InstallWith(c, c.Env, hooks.InstallOptions{Force: cmd.Force, Ctxfile: cmd.Ctxfile})
	if err != nil {
		return err
	}
	return c.report(res, func() {
		c.printHooks(res)
		c.printNext(hooks.DeclaredSteps(c, c.Env))
	})
}

type hooksUninstallCmd struct{}

func (cmd *hooksUninstallCmd) Run(c *Context) error {
	res, err := hooks.Uninstall(c, c.Env)
	if err != nil {
		return err
	}
	return c.report(res, func() { c.printHooks(res) })
}

type hooksStatusCmd struct{}

func (cmd *hooksStatusCmd) Run(c *Context) error {
	res, err := hooks.Status(c, c.Env)
	if err != nil {
		return err
	}
	return c.report(res, func() { c.printHooks(res) })
}

func (c *Context) printHooks(r *contracts.HooksResult) {
	warn(c, r.Warnings)
	switch r.Action {
	case contracts.HookDelegated:
		if r.Snippet != "" {
			fmt.Fprintf(c.Stderr, "%s manages this repository's hooks; add this to %s instead:\n", r.Manager, r.SnippetTarget)
			fmt.Fprint(c.Stdout, r.Snippet)
			return
		}
		fmt.Fprintf(c.Stderr, "%s manages this repository's hooks and its configuration runs the tree check; nothing installed\n", r.Manager)
	case contracts.HookStatus:
	default:
		for _, h := range r.Hooks {
			if h.Action != "" {
				fmt.Fprintf(c.Stdout, "%s %s\n", h.Action, quote(h.Path))
			}
		}
	}
	for _, h := range r.Hooks {
		if h.Chained != "" {
			fmt.Fprintf(c.Stdout, "chained %s (runs first)\n", quote(h.Chained))
		}
	}
	if !r.Effective {
		fmt.Fprintf(c.Stdout, "not effective: %s\n", r.Reason)
		return
	}
	via := "our hooks"
	if r.Manager != "" {
		via = r.Manager
	}
	fmt.Fprintf(c.Stdout, "effective: git runs the tree check on commits and merges (%s)\n", via)
	for _, h := range r.Hooks {
		if !h.Effective {
			fmt.Fprintf(c.Stdout, "also: %s\n", h.Reason)
		}
	}
}
