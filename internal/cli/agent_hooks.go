package cli

import (
	"fmt"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/adapters/hostconfig"
	"github.com/git-context-tree/git-context-tree/internal/operations/agenthooks"
)

type agentHooksCmd struct {
	Install   agentHooksInstallCmd   `cmd:"" help:"Install the read hook into the host's settings (the user's, or the project's with --project)."`
	Uninstall agentHooksUninstallCmd `cmd:"" help:"Remove the read hook from the host's settings, and nothing else."`
	Status    agentHooksStatusCmd    `cmd:"" help:"Show the read hook in the user's and the project's settings (exit 1 if installed in neither)."`
}

func (cmd *agentHooksCmd) Help() string {
	return `An agent host's hook attaches knowledge to the agent's work: after the agent
reads or edits a file, the host runs "git context-tree cites --hook <host>",
and the documents whose sources cite that file (titles, node paths, whether
the citation is still fresh) reach the agent as additional context. A file
no document cites adds nothing. Supported hosts: claude-code (a PostToolUse
entry on Read, Edit and MultiEdit in ~/.claude/settings.json, or with
--project in the project's shared .claude/settings.json). Only that entry
is added, updated or removed; other hooks and settings are kept; a settings
file that is not valid JSON, or is a symbolic link, is refused (exit 3).
No instruction file (CLAUDE.md, AGENTS.md) is written.`
}

type agentHostArg struct {
	Host string `arg:"" name:"host" enum:"claude-code" help:"The agent host: claude-code."`
}

type agentHooksInstallCmd struct {
	agentHostArg
	Project bool `name:"project" help:"Edit the project's shared .claude/settings.json instead of the user's settings."`
}

func (cmd *agentHooksInstallCmd) Run(c *Context) error {
	return c.agentHooks(agenthooks.Request{Action: contracts.AgentHookInstall, Host: cmd.Host, Project: cmd.Project})
}

type agentHooksUninstallCmd struct {
	agentHostArg
	Project bool `name:"project" help:"Edit the project's shared .claude/settings.json instead of the user's settings."`
}

func (cmd *agentHooksUninstallCmd) Run(c *Context) error {
	return c.agentHooks(agenthooks.Request{Action: contracts.AgentHookUninstall, Host: cmd.Host, Project: cmd.Project})
}

type agentHooksStatusCmd struct{ agentHostArg }

func (cmd *agentHooksStatusCmd) Run(c *Context) error {
	return c.agentHooks(agenthooks.Request{Action: contracts.AgentHookStatus, Host: cmd.Host})
}

func (c *Context) agentHooks(req agenthooks.Request) error {
	res, err := agenthooks.Run(c, c.Env, req)
	if err != nil {
		return err
	}
	return c.report(res, func() {
		for _, s := range res.Settings {
			fmt.Fprintf(c.Stdout, "%s\t%s\t%s\n", s.Scope, agentHookState(s), c.display(s.File))
		}
	})
}

// agentHookState words a settings file's state, and what this command did.
func agentHookState(s contracts.AgentHookSettings) string {
	switch {
	case s.Changed && s.State == hostconfig.Current:
		return "installed"
	case s.Changed:
		return "removed"
	case s.State == hostconfig.Current:
		return "installed (unchanged)"
	case s.State == hostconfig.Differs:
		return "differs (run install again)"
	case s.State == hostconfig.Invalid:
		return "invalid: " + s.Message
	case s.State == hostconfig.NoFile:
		return "no settings file"
	}
	return "not installed"
}
