// Package hostconfig writes the `context-tree` MCP server entry into an
// agent host's MCP configuration file (issue 17), changing nothing else
// in it: JSON files keep every other key in order, the Codex TOML file
// keeps every other byte. It never touches instruction files.
package hostconfig

import (
	"path/filepath"
	"slices"
)

// EntryName is the server's name in every host's configuration.
const EntryName = "context-tree"

// Command and Args start the server: git runs the plugin, in the
// directory the host starts it in (the project, for project files).
var (
	Command = "git"
	Args    = []string{"context-tree", "mcp"}
)

// Host is an agent host whose MCP configuration we know.
type Host struct {
	Name   string
	Format string // "json" or "toml"
	// file is where the host reads MCP servers, given the project root
	// and the user's home and environment.
	file func(project, home string, getenv func(string) string) string
	// entry is the JSON server entry (JSON hosts).
	entry map[string]any
}

// A nil value removes the key: switching an entry between stdio and HTTP
// leaves no key of the other transport behind.
var stdioEntry = map[string]any{"command": Command, "args": Args, "url": nil, "headers": nil}

// TokenEnv is the variable HTTP entries read the bearer token from; the
// token itself is never written into a (shared) configuration file.
const TokenEnv = "CONTEXT_TREE_MCP_TOKEN"

// Hosts, by name. Sources for each file and shape are in docs/decisions.md.
var hosts = []Host{
	{Name: "claude-code", Format: "json", entry: map[string]any{"type": "stdio", "command": Command, "args": Args, "url": nil, "headers": nil},
		file: func(project, _ string, _ func(string) string) string { return filepath.Join(project, ".mcp.json") }},
	{Name: "codex", Format: "toml",
		file: func(_, home string, getenv func(string) string) string {
			if dir := getenv("CODEX_HOME"); dir != "" {
				return filepath.Join(dir, "config.toml")
			}
			return filepath.Join(home, ".codex", "config.toml")
		}},
	{Name: "cursor", Format: "json", entry: stdioEntry,
		file: func(project, _ string, _ func(string) string) string {
			return filepath.Join(project, ".cursor", "mcp.json")
		}},
	{Name: "gemini", Format: "json", entry: stdioEntry,
		file: func(project, _ string, _ func(string) string) string {
			return filepath.Join(project, ".gemini", "settings.json")
		}},
}

// HTTP is the host with its entry for the Streamable HTTP endpoint at url
// instead of stdio, the token read from TokenEnv by the host's own
// variable expansion; false for hosts this tool cannot configure so.
func (h Host) HTTP(url string) (Host, bool) {
	var header string
	switch h.Name {
	case "claude-code":
		header = "Bearer ${" + TokenEnv + "}"
		h.entry = map[string]any{"type": "http", "url": url, "headers": map[string]any{"Authorization": header}, "command": nil, "args": nil}
	case "cursor":
		header = "Bearer ${env:" + TokenEnv + "}"
		h.entry = map[string]any{"url": url, "headers": map[string]any{"Authorization": header}, "command": nil, "args": nil}
	default:
		return h, false
	}
	return h, true
}

// Names lists the known hosts.
func Names() []string {
	var names []string
	for _, h := range hosts {
		names = append(names, h.Name)
	}
	return names
}

// Lookup finds a host by name.
func Lookup(name string) (Host, bool) {
	i := slices.IndexFunc(hosts, func(h Host) bool { return h.Name == name })
	if i < 0 {
		return Host{}, false
	}
	return hosts[i], true
}

// File is the configuration file of the host for a project, given the
// user's home and environment (CODEX_HOME).
func (h Host) File(project, home string, getenv func(string) string) string {
	return h.file(project, home, getenv)
}
