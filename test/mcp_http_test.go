package test

// `git-context-tree mcp --http`: the Streamable HTTP transport on
// loopback, with the Go SDK's client always and the official TypeScript
// client when .ci/run installed it (GCT_MCP_NODE_MODULES).

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/git-context-tree/git-context-tree/contracts"
)

// bearer adds the token to every request of the Go client.
type bearer struct {
	token string
	next  http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.next.RoundTrip(r)
}

// startMCPHTTP starts the server on a free loopback port and returns its
// URL and token; the server is stopped (SIGTERM, exit 0) at the end.
func startMCPHTTP(t *testing.T) (url, token string, e *clientEnv) {
	e, repo, prog := mcpProject(t)
	cmd := exec.Command(prog, "--json", "mcp", "--http", "127.0.0.1:0")
	cmd.Dir, cmd.Env = repo, e.env
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		if err := cmd.Wait(); err != nil {
			t.Errorf("mcp --http after SIGTERM: %v", err)
		}
	})
	var line json.RawMessage // the object, once serving
	if err := json.NewDecoder(out).Decode(&line); err != nil {
		t.Fatalf("no serving object: %v", err)
	}
	if err := validateJSON("mcp-http", line); err != nil {
		t.Fatal(err)
	}
	var serving contracts.MCPHTTPServing
	if err := json.Unmarshal(line, &serving); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(serving.TokenFile)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("token file %s: %v %v", serving.TokenFile, fi, err)
	}
	data, _ := os.ReadFile(serving.TokenFile)
	return serving.URL, strings.TrimSpace(string(data)), e
}

func TestMCPOverHTTP(t *testing.T) {
	url, token, _ := startMCPHTTP(t)
	ctx := context.Background()
	transport := &sdk.StreamableClientTransport{Endpoint: url, HTTPClient: &http.Client{Transport: bearer{token, http.DefaultTransport}}, DisableStandaloneSSE: true}
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "go-http", Version: "1"}, nil).Connect(ctx, transport, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "cited_by", Arguments: map[string]any{"path": "deploy.sh"}})
	if err != nil || res.IsError {
		t.Fatalf("cited_by: %+v %v", res, err)
	}
	raw, _ := json.Marshal(res.StructuredContent)
	if err := validateJSON("cites", raw); err != nil {
		t.Error(err)
	}
	init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`
	for _, tc := range []struct {
		name, auth, origin, host string
		want                     int
	}{
		{"no token", "", "", "", http.StatusUnauthorized},
		{"wrong token", "Bearer nope", "", "", http.StatusUnauthorized},
		{"foreign Origin", "Bearer " + token, "http://evil.example", "", http.StatusForbidden},
		{"rebound Host", "Bearer " + token, "", "evil.example", http.StatusForbidden},
	} {
		req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(init))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if tc.auth != "" {
			req.Header.Set("Authorization", tc.auth)
		}
		if tc.origin != "" {
			req.Header.Set("Origin", tc.origin)
		}
		if tc.host != "" {
			req.Host = tc.host
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != tc.want {
			t.Errorf("%s: %d, want %d", tc.name, resp.StatusCode, tc.want)
		}
	}
}

func TestMCPOverHTTPTypeScriptClient(t *testing.T) {
	skipRealClientInShort(t)
	modules := os.Getenv("GCT_MCP_NODE_MODULES")
	node, _ := exec.LookPath("node")
	if modules == "" || node == "" {
		if os.Getenv("GCT_REQUIRE_MCP_CLIENT") == "1" {
			t.Fatal("GCT_REQUIRE_MCP_CLIENT=1 but the TypeScript client is not installed")
		}
		t.Skip("skipping the TypeScript MCP client over HTTP: set GCT_MCP_NODE_MODULES")
	}
	url, token, e := startMCPHTTP(t)
	dir := t.TempDir()
	script, err := os.ReadFile("mcpclient/http.mjs")
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "http.mjs"), string(script))
	if err := os.Symlink(modules, filepath.Join(dir, "node_modules")); err != nil {
		t.Fatal(err)
	}
	out, err := e.run(dir, node, filepath.Join(dir, "http.mjs"), url, token)
	t.Log(out)
	if err != nil {
		t.Fatalf("the TypeScript client over HTTP failed: %v", err)
	}
}
