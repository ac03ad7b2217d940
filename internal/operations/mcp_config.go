package operations

import (
	"context"
	"os"
	"strings"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/adapters/hostconfig"
)

// MCPConfig returns a host's MCP configuration snippet for the server and
// the file it belongs in (the project's for Claude Code, Cursor and
// Gemini CLI; the user's for Codex) and, with write, adds or updates the
// context-tree entry there, keeping every other entry. Instruction files
// (AGENTS.md, CLAUDE.md, GEMINI.md) are never touched.
func MCPConfig(ctx context.Context, env Env, host string, write bool) (*contracts.MCPConfigResult, error) {
	h, ok := hostconfig.Lookup(host)
	if !ok {
		return nil, contracts.Errorf(contracts.CodeUsage, "unknown host %q: choose one of %s", host, strings.Join(hostconfig.Names(), ", ")).
			WithDetails(map[string]any{"hosts": hostconfig.Names()})
	}
	p, _, err := OpenProject(ctx, env)
	if err != nil {
		return nil, err
	}
	home, err := os.UserHomeDir()
	if err != nil && h.Format == "toml" {
		return nil, contracts.Errorf(contracts.CodeIO, "cannot find the home directory for %s's configuration: %v", host, err)
	}
	res := &contracts.MCPConfigResult{SchemaVersion: contracts.CLIVersion, Host: h.Name, File: h.File(p.Root, home), Format: h.Format, Snippet: h.Snippet()}
	if write {
		res.Written = true
		if res.Changed, err = h.Write(res.File); err != nil {
			return nil, err
		}
	}
	return res, nil
}
