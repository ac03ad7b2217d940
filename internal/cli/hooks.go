package cli

import (
	"fmt"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/operations"
)

type hooksCmd struct {
	Install   hooksInstallCmd   `cmd:"" help:"Install the pre-commit hook that verifies staged trees."`
	Uninstall hooksUninstallCmd `cmd:"" help:"Remove our pre-commit hook, restoring a chained one."`
	Status    hooksStatusCmd    `cmd:"" help:"Tell whether git will run the tree check on commit (exit 1 if not)."`
}

func (cmd *hooksCmd) Help() string {
	return `The pre-commit hook runs "git context-tree verify --staged": it checks the
trees as they are staged, so a commit that breaks a tree is rejected. It goes
where git runs hooks (core.hooksPath or .git/hooks, per worktree setup). With
husky, lefthook or the pre-commit framework in use, install prints the lines
to add to their configuration instead. Skip it once with
GIT_CONTEXT_TREE_SKIP=1, or all hooks with git commit --no-verify.`
}

type hooksInstallCmd struct {
	Force bool `name:"force" help:"Keep a foreign pre-commit hook as pre-commit.local (run first), install despite a hook manager or a core.hooksPath outside the repository."`
}

func (cmd *hooksInstallCmd) Run(c *Context) error {
	res, err := operations.HooksInstall(c, c.Env, cmd.Force)
	if err != nil {
		return err
	}
	return c.report(res, func() { c.printHooks(res) })
}

type hooksUninstallCmd struct{}

func (cmd *hooksUninstallCmd) Run(c *Context) error {
	res, err := operations.HooksUninstall(c, c.Env)
	if err != nil {
		return err
	}
	return c.report(res, func() { c.printHooks(res) })
}

type hooksStatusCmd struct{}

func (cmd *hooksStatusCmd) Run(c *Context) error {
	res, err := operations.HooksStatus(c, c.Env)
	if err != nil {
		return err
	}
	return c.report(res, func() { c.printHooks(res) })
}

func (c *Context) printHooks(r *contracts.HooksResult) {
	switch r.Action {
	case contracts.HookDelegated:
		if r.Snippet != "" {
			fmt.Fprintf(c.Stderr, "%s manages this repository's hooks; add this to its configuration instead:\n", r.Manager)
			fmt.Fprint(c.Stdout, r.Snippet)
			return
		}
		fmt.Fprintf(c.Stderr, "%s manages this repository's hooks and its configuration runs the tree check; nothing installed\n", r.Manager)
	case contracts.HookStatus:
	default:
		fmt.Fprintf(c.Stdout, "%s %s\n", r.Action, quote(r.Hook))
	}
	if r.Chained != "" {
		fmt.Fprintf(c.Stdout, "chained %s (runs first)\n", quote(r.Chained))
	}
	if r.Effective {
		via := "our hook"
		if r.Manager != "" {
			via = r.Manager
		}
		fmt.Fprintf(c.Stdout, "effective: git runs the tree check on commit (%s)\n", via)
	} else {
		fmt.Fprintf(c.Stdout, "not effective: %s\n", r.Reason)
	}
}
