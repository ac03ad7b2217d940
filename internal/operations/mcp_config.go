package operations

import (
	"context"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/adapters/hostconfig"
	"github.com/git-context-tree/git-context-tree/internal/buildinfo"
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
	if httpURL == "" {
		if w := hostPathWarning(env); w != "" {
			res.Warnings = append(res.Warnings, w)
		}
	}
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

// GUIPath is the PATH a program started outside a shell (a desktop app, an
// IDE or agent host launched from the dock) typically gets.
var GUIPath = []string{"/usr/local/bin", "/usr/bin", "/bin", "/opt/homebrew/bin"}

// hostPathWarning says when an agent host may not start the stdio server:
// the entry runs `git context-tree mcp`, and git finds git-context-tree on
// the host's PATH, which for a host started outside a shell is often only
// GUIPath. The entry stays portable (the project's file is shared, an
// absolute path would be one person's); the warning names the fix, as
// doctor does for hooks.
func hostPathWarning(env Env) string {
	found, err := env.Vars.LookPath("git-context-tree", env.Dir)
	if err != nil {
		return "git-context-tree is not on PATH, so the host cannot start `git context-tree mcp`: install it (" + buildinfo.InstallCommand + ") and put its directory on PATH"
	}
	for _, d := range GUIPath {
		if _, err := os.Stat(filepath.Join(d, "git-context-tree")); err == nil {
			return ""
		}
	}
	exe := env.Abs(found)
	return "the entry runs `git context-tree mcp`, so the host must find git-context-tree on its PATH; a host started outside a shell (from the desktop or a dock) often gets only " +
		strings.Join(GUIPath, ":") + ", where it is not (it is " + exe + "): run sudo ln -s '" + exe + "' /usr/local/bin/git-context-tree, or start the host from a shell"
}
