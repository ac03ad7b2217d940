package cli

import (
	"fmt"
	"io"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/mcp"
	"github.com/git-context-tree/git-context-tree/internal/operations"
	"github.com/git-context-tree/git-context-tree/internal/redact"
)

type mcpCmd struct {
	Serve  mcpServeCmd  `cmd:"" default:"withargs" help:"Serve MCP over stdio (the default), or with --http over Streamable HTTP on loopback."`
	Config mcpConfigCmd `cmd:"" help:"Print (or --write) a host's MCP configuration for this server."`
}

func (cmd *mcpCmd) Help() string {
	return `A read-only Model Context Protocol server over stdio, for agent hosts that
cannot run this command in a shell. Tools: list_trees, read_node, outline,
search, verify, resolve, cited_by (argument and result schemas: git context-tree schema
mcp-<tool>-input, mcp-<tool>); every node is also a resource
(context-tree://tree/<exact selector>/<path>). Trees are the project's
declared sources, read with the rules of read and verify; git sources are
read from their snapshots only (run sync in a shell to refresh them).
With --http 127.0.0.1:<port> the same tools are served over Streamable
HTTP at http://127.0.0.1:<port>/mcp, loopback only, each request with the
bearer token (made once, kept in ~/.context-tree/mcp/http-token, 0600).`
}

type mcpServeCmd struct {
	HTTP string `name:"http" placeholder:"<host:port>" help:"Serve over MCP's Streamable HTTP transport at http://<host:port>/mcp instead of stdio: loopback only, every request with the bearer token (kept in the state directory, mode 0600; printed when first made)."`
}

// endsOnSignal: the HTTP server runs until interrupted (over stdio the
// host ends the server by closing its input, and a signal is an
// interruption).
func (cmd *mcpServeCmd) endsOnSignal() bool { return cmd.HTTP != "" }

func (cmd *mcpServeCmd) Run(c *Context) error {
	if cmd.HTTP != "" {
		return cmd.serveHTTP(c)
	}
	out := flushingWriter{redact.Raw(c.Stdout)} // tool results are redacted per string
	return mcp.Serve(c, c.Env, BuildVersion().Version, c.Stdin, out)
}

func (cmd *mcpServeCmd) serveHTTP(c *Context) error {
	ln, err := mcp.ListenLoopback(cmd.HTTP)
	if err != nil {
		return err
	}
	defer ln.Close()
	token, file, created, err := operations.MCPHTTPToken(c.Env)
	if err != nil {
		return err
	}
	res := contracts.MCPHTTPServing{SchemaVersion: contracts.CLIVersion, URL: "http://" + ln.Addr().String() + mcp.HTTPPath, TokenFile: file, TokenEnv: operations.MCPTokenEnv}
	if c.JSON {
		if err := c.writeJSON(res); err != nil {
			return err
		}
	} else {
		fmt.Fprintln(c.Stdout, res.URL)
	}
	flush(c.Stdout)
	if created {
		// Shown once, to whoever started the server; it stays in the file.
		fmt.Fprintf(c.Stderr, "bearer token (made now, kept in %s, mode 0600): %s\n", file, token)
	} else {
		fmt.Fprintf(c.Stderr, "bearer token: in %s\n", file)
	}
	fmt.Fprintf(c.Stderr, "hosts configured with git context-tree mcp config <host> --http %s read it from $%s; press Ctrl-C to stop.\n", res.URL, operations.MCPTokenEnv)
	return mcp.ServeHTTP(c, c.Env, BuildVersion().Version, ln, token)
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
	HTTP  string `name:"http" placeholder:"<url>" help:"Configure the Streamable HTTP endpoint git context-tree mcp --http prints (claude-code, cursor) instead of stdio; the host reads the token from $CONTEXT_TREE_MCP_TOKEN."`
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
again changes nothing. Instruction files are never touched. With --http
<url> the entry names the HTTP endpoint of a running git context-tree mcp
--http instead, its Authorization header read from $CONTEXT_TREE_MCP_TOKEN
by the host (claude-code and cursor): the token never enters the file.`
}

func (cmd *mcpConfigCmd) Run(c *Context) error {
	res, err := operations.MCPConfig(c, c.Env, cmd.Host, cmd.Write, cmd.HTTP)
	if err != nil {
		return err
	}
	warn(c, res.Warnings)
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
