package test

// The MCP server as a host starts it: the built binary, `git-context-tree
// mcp`, a subprocess spoken to over its stdin and stdout, by the official
// Go SDK's client (CommandTransport) and, for malformed input, by hand.

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/git-context-tree/git-context-tree/contracts"
)

// mcpProject is a committed repository declaring docs/ctx, with one
// document besides the root.
func mcpProject(t *testing.T) (*clientEnv, string, string) {
	bin := buildProduct(t)
	e := newClientEnv(t, bin)
	repo := newTreeRepo(t, e, map[string]string{"docs/ctx/deploy.md": "---\ntitle: Deploy\n---\n\nWe ship canaries first.\n",
		"docs/ctx/release.md": "---\ntitle: Release script\nsources:\n  - path: deploy.sh\n---\n\nWhat deploy.sh does.\n"})
	writeFile(t, filepath.Join(repo, "deploy.sh"), "#!/bin/sh\necho canary\n")
	e.must(repo, "git", "add", "-A")
	e.must(repo, "git", "commit", "-q", "-m", "tree")
	return e, repo, filepath.Join(bin, "git-context-tree")
}

func mcpCommand(e *clientEnv, repo, prog string) *exec.Cmd {
	cmd := exec.Command(prog, "mcp")
	cmd.Dir, cmd.Env = repo, e.env
	return cmd
}

func TestMCPSubprocessServesTheSDKClient(t *testing.T) {
	e, repo, prog := mcpProject(t)
	cmd := mcpCommand(e, repo, prog)
	ctx := context.Background()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "e2e", Version: "1"}, nil).Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	tools, err := cs.ListTools(ctx, nil)
	if err != nil || len(tools.Tools) != 7 {
		t.Fatalf("tools: %v %v", tools, err)
	}
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "search", Arguments: map[string]any{"query": "canaries"}})
	if err != nil || res.IsError {
		t.Fatalf("search: %+v %v", res, err)
	}
	raw, _ := json.Marshal(res.StructuredContent)
	if err := validateJSON("mcp-search", raw); err != nil {
		t.Error(err)
	}
	var found contracts.SearchResult
	if err := json.Unmarshal(raw, &found); err != nil {
		t.Fatal(err)
	}
	if len(found.Hits) != 1 || found.Hits[0].Path != "deploy.md" || found.Hits[0].Snippets[0].Line != 5 ||
		len(found.Trees) != 1 || len(found.Trees[0].Head) != 40 || found.Trees[0].Dirty == nil || *found.Trees[0].Dirty {
		t.Errorf("search: %s", raw)
	}
	read, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "read_node", Arguments: map[string]any{"node": "deploy.md"}})
	if err != nil || read.IsError {
		t.Fatalf("read_node: %+v %v", read, err)
	}
	raw, _ = json.Marshal(read.StructuredContent)
	if err := validateJSON("mcp-read-node", raw); err != nil {
		t.Error(err)
	}
	var uris []string
	for r, err := range cs.Resources(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		uris = append(uris, r.URI)
	}
	if len(uris) != 3 {
		t.Errorf("resources: %v", uris)
	}
	// Closing stdin ends the server, cleanly.
	if err := cs.Close(); err != nil {
		t.Errorf("close: %v", err)
	}
	if code := cmd.ProcessState.ExitCode(); code != 0 {
		t.Errorf("exit code %d after EOF", code)
	}
}

func TestMCPSubprocessStopsOnSIGTERM(t *testing.T) {
	e, repo, prog := mcpProject(t)
	cmd := mcpCommand(e, repo, prog)
	ctx := context.Background()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "e2e", Version: "1"}, nil).Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	_ = cs.Wait()
	_ = cs.Close()
	if code := cmd.ProcessState.ExitCode(); code != contracts.ExitSignal {
		t.Errorf("exit code %d after SIGTERM, want %d", code, contracts.ExitSignal)
	}
}

func TestMCPSubprocessAnswersMalformedInput(t *testing.T) {
	e, repo, prog := mcpProject(t)
	cmd := mcpCommand(e, repo, prog)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := bufio.NewScanner(stdout)
	lines.Buffer(nil, 1<<20)
	next := func() map[string]any {
		t.Helper()
		if !lines.Scan() {
			t.Fatalf("no response: %v\n%s", lines.Err(), stderr.String())
		}
		var m map[string]any
		if err := json.Unmarshal(lines.Bytes(), &m); err != nil {
			t.Fatalf("%s: %v", lines.Bytes(), err)
		}
		return m
	}
	send := func(s string) {
		t.Helper()
		if _, err := io.WriteString(stdin, s+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	errCode := func(m map[string]any) float64 {
		e, _ := m["error"].(map[string]any)
		c, _ := e["code"].(float64)
		return c
	}
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	if m := next(); m["result"] == nil {
		t.Fatalf("initialize: %v", m)
	}
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	send(`{"jsonrpc":"2.0","id":2,"method":"tools/call"` + strings.Repeat(" ", 2<<20) + `}`)
	if m := next(); errCode(m) != -32600 {
		t.Errorf("oversized message: %v", m)
	}
	send(`this is not json`)
	if m := next(); errCode(m) != -32700 {
		t.Errorf("malformed JSON: %v", m)
	}
	send(`[{"jsonrpc":"2.0","id":6,"method":"tools/list"},{"jsonrpc":"2.0","id":7,"method":"ping"}]`)
	if m := next(); errCode(m) != -32600 {
		t.Errorf("a batch: %v", m)
	}
	send(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"no_such_tool"}}`)
	if m := next(); errCode(m) == 0 || m["id"] != float64(3) {
		t.Errorf("unknown tool: %v", m)
	}
	send(`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"search","arguments":{"query":"x","extra":true}}}`)
	if m := next(); m["result"].(map[string]any)["isError"] != true {
		t.Errorf("unknown argument: %v", m)
	}
	// Still serving after all that.
	send(`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"list_trees"}}`)
	if m := next(); m["id"] != float64(5) || m["result"] == nil {
		t.Errorf("list_trees: %v", m)
	}
	stdin.Close()
	err = cmd.Wait()
	var exit *exec.ExitError
	if errors.As(err, &exit) || err != nil {
		t.Errorf("exit after EOF: %v\n%s", err, stderr.String())
	}
	if strings.Contains(stderr.String(), "panic") {
		t.Errorf("stderr: %s", stderr.String())
	}
}

// validateJSON checks a document against a contract's schema.
func validateJSON(schema string, doc []byte) error {
	v, err := validator()
	if err != nil {
		return err
	}
	return v.Validate(schema, doc)
}
