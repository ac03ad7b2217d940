package cli

import (
	"fmt"
	"io"
	"os"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/mcp"
	"github.com/git-context-tree/git-context-tree/internal/operations"
	"github.com/git-context-tree/git-context-tree/internal/redact"
)

type mcpCmd struct {
	Serve  mcpServeCmd  `cmd:"" default:"1" help:"Serve MCP over stdio (the default)."`
	Config mcpConfigCmd `cmd:"" help:"Print (or --write) a host's MCP configuration for this server."`
}

func (cmd *mcpCmd) Help() string {
	return `A read-only Model Context Protocol server over stdio, for agent hosts that
cannot run this command in a shell. Tools: list_trees, read_node, outline,
search, verify, resolve (argument and result schemas: git context-tree schema
mcp-<tool>-input, mcp-<tool>); every node is also a resource
(context-tree://tree/<exact selector>/<path>). Trees are the project's
declared sources, read with the rules of read and verify; git sources are
read from their snapshots only (run sync in a shell to refresh them).`
}

type mcpServeCmd struct{}

func (cmd *mcpServeCmd) Run(c *Context) error {
	in := c.Stdin
	if in == nil {
		in = os.Stdin
	}
	out := flushingWriter{redact.Raw(c.Stdout)} // tool results are redacted per string
	return mcp.Serve(c, c.Env, BuildVersion().Version, in, out)
}

// flushingWriter hands each message to the client at once: the command
// line's stdout is buffered (cmd/git-context-tree), a conversation cannot
// wait for the buffer to fill.
type flushingWriter struct{ io.Writer }

func (f flushingWriter) Write(p []byte) (int, error) {
	n, err := f.Writer.Write(p)
	if fl, ok := f.Writer.(interface{ Flush() error }); ok && err == nil {
		err = fl.Flush()
	}
	return n, err
}

func (flushingWriter) Close() error { return nil }

type mcpConfigCmd struct {
	Host  string `arg:"" name:"host" enum:"claude-code,codex,cursor,gemini" help:"claude-code, codex, cursor or gemini."`
	Write bool   `name:"write" help:"Add or update the context-tree entry in the host's MCP configuration file (atomically, keeping every other entry)."`
}

func (cmd *mcpConfigCmd) Help() string {
	return `Prints the configuration that makes a host start this server, and the file it
belongs in:
  claude-code  <project>/.mcp.json              (mcpServers, JSON)
  cursor       <project>/.cursor/mcp.json       (mcpServers, JSON)
  gemini       <project>/.gemini/settings.json  (mcpServers, JSON)
  codex        ~/.codex/config.toml ($CODEX_HOME) ([mcp_servers.context-tree], TOML)
--write changes only the context-tree entry: other entries keep their order
and values (in config.toml, every other line is kept as it is); running it
again changes nothing. Instruction files are never touched.`
}

func (cmd *mcpConfigCmd) Run(c *Context) error {
	res, err := operations.MCPConfig(c, c.Env, cmd.Host, cmd.Write)
	if err != nil {
		return err
	}
	return c.emit(res, func() { c.printMCPConfig(res) })
}

func (c *Context) printMCPConfig(r *contracts.MCPConfigResult) {
	switch {
	case !r.Written:
		fmt.Fprintf(c.Stderr, "# add to %s:\n", c.display(r.File))
		fmt.Fprint(c.Stdout, r.Snippet)
	case r.Changed:
		fmt.Fprintf(c.Stdout, "added the context-tree server to %s\n", c.display(r.File))
	default:
		fmt.Fprintf(c.Stdout, "%s already starts the context-tree server\n", c.display(r.File))
	}
}
