// Package agenthooks installs, removes and inspects the agent-host hook
// that attaches the documents citing a file to the agent's read of it
// (issue 30): for Claude Code, a PostToolUse entry in its settings running
// `git context-tree cites --hook claude-code`. Only that entry is ever
// touched; no instruction file is written (S20).
package agenthooks

import (
	"context"
	"strings"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/adapters/hostconfig"
	"github.com/git-context-tree/git-context-tree/internal/operations"
	"github.com/git-context-tree/git-context-tree/internal/sources"
)

// Hosts are the agent hosts whose hook contract is documented and
// implemented.
var Hosts = []string{"claude-code"}

// Request is one agent-hooks command: Project chooses the project's
// shared settings over the user's (install and uninstall).
type Request struct {
	Action  string
	Host    string
	Project bool
}

// Run carries out install, uninstall or status.
func Run(ctx context.Context, env operations.Env, req Request) (*contracts.AgentHooksResult, error) {
	if req.Host != "claude-code" {
		return nil, contracts.Errorf(contracts.CodeUsage, "unknown agent host %q: choose one of %s", req.Host, strings.Join(Hosts, ", ")).
			WithDetails(map[string]any{"hosts": Hosts})
	}
	res := &contracts.AgentHooksResult{SchemaVersion: contracts.CLIVersion, Host: req.Host, Action: req.Action, Command: hostconfig.ReadHookCommand, Settings: []contracts.AgentHookSettings{}}
	files, err := settingsFiles(ctx, env, req)
	if err != nil {
		return nil, err
	}
	for _, f := range files {
		switch req.Action {
		case contracts.AgentHookInstall:
			if f.Changed, err = hostconfig.InstallReadHook(f.File); err != nil {
				return nil, err
			}
		case contracts.AgentHookUninstall:
			if f.Changed, err = hostconfig.UninstallReadHook(f.File); err != nil {
				return nil, err
			}
		}
		state, err := hostconfig.InspectReadHook(f.File)
		f.State = state
		if err != nil {
			f.Message = err.Error()
		}
		res.Settings = append(res.Settings, f)
	}
	return res, nil
}

// settingsFiles are the files a command looks at: the chosen one for
// install and uninstall, the user's and (in a project) the project's for
// status.
func settingsFiles(ctx context.Context, env operations.Env, req Request) ([]contracts.AgentHookSettings, error) {
	var out []contracts.AgentHookSettings
	if req.Action == contracts.AgentHookStatus || !req.Project {
		home, err := env.Vars.HomeDir()
		if err != nil && env.Vars.Get("CLAUDE_CONFIG_DIR") == "" {
			return nil, contracts.Errorf(contracts.CodeIO, "cannot find the home directory for Claude Code's settings: %v", err)
		}
		out = append(out, contracts.AgentHookSettings{Scope: "user", File: env.Abs(hostconfig.ReadHookSettings("", home, env.Vars.Get))})
	}
	if req.Action == contracts.AgentHookStatus || req.Project {
		p, err := sources.Discover(ctx, env.Git, env.Dir)
		switch {
		case err != nil && req.Project:
			return nil, err
		case err == nil:
			out = append(out, contracts.AgentHookSettings{Scope: "project", File: env.Abs(hostconfig.ReadHookSettings(p.Root, "", env.Vars.Get))})
		}
	}
	return out, nil
}
