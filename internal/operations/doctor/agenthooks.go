package doctor

import (
	"context"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/adapters/hostconfig"
	"github.com/git-context-tree/git-context-tree/internal/operations"
	"github.com/git-context-tree/git-context-tree/internal/operations/agenthooks"
)

// checkAgentHooks reports the agent-host hook in each settings file that
// exists, as checkMCP reports MCP entries: an entry that is not the one
// install writes is a warning; no entry is fine (the hook is opt-in).
func checkAgentHooks(ctx context.Context, env operations.Env, r *doctorReport) {
	const area = "agent-hooks"
	res, err := agenthooks.Run(ctx, env, agenthooks.Request{Action: contracts.AgentHookStatus, Host: "claude-code"})
	if err != nil {
		r.warn(area, "agent.read-hook", "cannot inspect Claude Code's settings: "+err.Error(), "git context-tree agent-hooks status claude-code")
		return
	}
	seen := 0
	for _, s := range res.Settings {
		fix := "git context-tree agent-hooks install claude-code"
		if s.Scope == "project" {
			fix += " --project"
		}
		switch s.State {
		case hostconfig.NoFile:
			continue
		case hostconfig.Invalid:
			r.warn(area, "agent.read-hook", "claude-code: "+s.File+" cannot be read: "+s.Message, "fix the file by hand, then: "+fix, s.File)
		case hostconfig.Differs:
			r.warn(area, "agent.read-hook", "claude-code: the context-tree hook in "+s.File+" is not the one this tool writes", fix, s.File)
		case hostconfig.Current:
			r.ok(area, "agent.read-hook", "claude-code: the context-tree read hook is installed in "+s.File, s.File)
		case hostconfig.Absent:
			r.ok(area, "agent.read-hook", "claude-code: "+s.File+" has no context-tree read hook (add it with "+fix+")", s.File)
		}
		seen++
	}
	if seen == 0 {
		r.ok(area, "agent.read-hook", "no Claude Code settings here (git context-tree agent-hooks install claude-code adds the read hook)")
	}
}
