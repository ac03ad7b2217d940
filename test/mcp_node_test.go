package test

// The MCP server against the official TypeScript SDK's client
// (test/mcpclient/client.mjs). The client's modules come from
// GCT_MCP_NODE_MODULES (a node_modules directory holding
// @modelcontextprotocol/sdk, which .ci/run installs from the npm registry,
// pinned); without it the test is skipped, or fails when
// GCT_REQUIRE_MCP_CLIENT=1. With -short it is skipped.

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

func TestMCPTypeScriptClient(t *testing.T) {
	skipRealClientInShort(t)
	modules := os.Getenv("GCT_MCP_NODE_MODULES")
	node, _ := exec.LookPath("node")
	if modules == "" || node == "" {
		why := "set GCT_MCP_NODE_MODULES to a node_modules with @modelcontextprotocol/sdk, and put node on PATH"
		if os.Getenv("GCT_REQUIRE_MCP_CLIENT") == "1" {
			t.Fatalf("GCT_REQUIRE_MCP_CLIENT=1 but %s", why)
		}
		t.Skip("skipping the TypeScript MCP client: " + why)
	}
	e, repo, prog := mcpProject(t)
	// ES modules resolve packages from node_modules beside the script.
	dir := t.TempDir()
	script, err := os.ReadFile("mcpclient/client.mjs")
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "client.mjs"), string(script))
	if err := os.Symlink(modules, filepath.Join(dir, "node_modules")); err != nil {
		t.Fatal(err)
	}
	out, err := e.run(dir, node, filepath.Join(dir, "client.mjs"), prog, repo)
	t.Log(out)
	if err != nil {
		t.Fatalf("the TypeScript client failed: %v", err)
	}
}
