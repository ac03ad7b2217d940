package operations

import (
	"context"
	"net"
	"net/url"
	"strings"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/adapters/hostconfig"
)

// MCPConfig returns a host's MCP configuration snippet for the server and
// the file it belongs in (the project's for Claude Code, Cursor and
// Gemini CLI; the user's for Codex) and, with write, adds or updates the
// context-tree entry there, keeping every other entry. Instruction files
// (AGENTS.md, CLAUDE.md, GEMINI.md) are never touched.
func MCPConfig(ctx context.Context, env Env, host string, write bool, httpURL string) (*contracts.MCPConfigResult, error) {
	h, ok := hostconfig.Lookup(host)
	if !ok {
		return nil, contracts.Errorf(contracts.CodeUsage, "unknown host %q: choose one of %s", host, strings.Join(hostconfig.Names(), ", ")).
			WithDetails(map[string]any{"hosts": hostconfig.Names()})
	}
	if httpURL != "" {
		if err := checkLoopbackURL(httpURL); err != nil {
			return nil, err
		}
		if h, ok = h.HTTP(httpURL); !ok {
			return nil, contracts.Errorf(contracts.CodeUsage, "--http: %s's configuration of an HTTP server with a bearer token from the environment is not supported here; use claude-code or cursor, or the stdio form", host)
		}
	}
	p, _, err := OpenProject(ctx, env)
	if err != nil {
		return nil, err
	}
	home, err := env.Vars.HomeDir()
	if err != nil && h.Format == "toml" {
		return nil, contracts.Errorf(contracts.CodeIO, "cannot find the home directory for %s's configuration: %v", host, err)
	}
	res := &contracts.MCPConfigResult{SchemaVersion: contracts.CLIVersion, Host: h.Name, File: env.Abs(h.File(p.Root, home, env.Vars.Get)), Format: h.Format, Snippet: h.Snippet()}
	if write {
		res.Written = true
		if res.Changed, err = h.Write(res.File); err != nil {
			return nil, err
		}
	}
	return res, nil
}

// checkLoopbackURL accepts the endpoint `mcp --http` prints:
// http://<loopback host>:<port>/mcp.
func checkLoopbackURL(raw string) error {
	u, err := url.Parse(raw)
	bad := err != nil || u.Scheme != "http" || u.Path != "/mcp" || u.Port() == "" || u.User != nil || u.RawQuery != "" || u.Fragment != ""
	if !bad {
		ip := net.ParseIP(u.Hostname())
		bad = u.Hostname() != "localhost" && (ip == nil || !ip.IsLoopback())
	}
	if bad {
		return contracts.Errorf(contracts.CodeUsage, "--http %q is not the URL git context-tree mcp --http prints (http://127.0.0.1:<port>/mcp)", raw)
	}
	return nil
}
