package doctor

import (
	"context"

	"github.com/git-context-tree/git-context-tree/internal/adapters/hostconfig"
	"github.com/git-context-tree/git-context-tree/internal/operations"
	"github.com/git-context-tree/git-context-tree/internal/sources"
)

// checkMCP reports, per agent host whose MCP configuration file exists for
// this project (or user, for Codex), whether its context-tree entry is the
// one `mcp config --write` writes. A file without the entry is fine: the
// server is opt-in.
func checkMCP(ctx context.Context, env operations.Env, r *doctorReport) {
	const area = "mcp"
	project := env.Dir
	if p, err := sources.Discover(ctx, env.Git, env.Dir); err == nil {
		project = p.Root
	}
	home, _ := env.Vars.HomeDir()
	seen := 0
	for _, name := range hostconfig.Names() {
		h, _ := hostconfig.Lookup(name)
		file := env.Abs(h.File(project, home, env.Vars.Get))
		state, err := h.Inspect(file)
		fix := "git context-tree mcp config " + name + " --write"
		switch state {
		case hostconfig.NoFile:
			continue
		case hostconfig.Invalid:
			msg := name + ": " + file + " cannot be read"
			if err != nil {
				msg += ": " + err.Error()
			}
			r.warn(area, "mcp.hosts", msg, "fix the file by hand, then: "+fix, file)
		case hostconfig.Differs:
			r.warn(area, "mcp.hosts", name+": the context-tree server entry in "+file+" is not the one this tool writes", fix, file)
		case hostconfig.Current:
			r.ok(area, "mcp.hosts", name+": the context-tree server is configured in "+file, file)
		case hostconfig.Absent:
			r.ok(area, "mcp.hosts", name+": "+file+" has no context-tree server (add it with "+fix+")", file)
		}
		seen++
	}
	if seen == 0 {
		r.ok(area, "mcp.hosts", "no agent host MCP configuration here (git context-tree mcp config <host> prints one)")
	}
}
