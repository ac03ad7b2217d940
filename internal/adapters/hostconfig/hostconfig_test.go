package hostconfig

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestUpsertJSONKeepsOtherEntriesInOrder(t *testing.T) {
	in := `{"theme": "dark", "mcpServers": {"zeta": {"command": "z", "env": {"A": "1"}}, "alpha": {"url": "https://x"}}, "last": [1, 2]}`
	out, changed, err := upsertJSON([]byte(in), stdioEntry)
	if err != nil || !changed {
		t.Fatalf("changed %v, err %v", changed, err)
	}
	want := `{
  "theme": "dark",
  "mcpServers": {
    "zeta": {
      "command": "z",
      "env": {
        "A": "1"
      }
    },
    "alpha": {
      "url": "https://x"
    },
    "context-tree": {
      "args": [
        "context-tree",
        "mcp"
      ],
      "command": "git"
    }
  },
  "last": [
    1,
    2
  ]
}
`
	if diff := cmp.Diff(want, string(out)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	// Keys the user added to our entry stay, in their place; only command
	// and args are ours to set.
	mine := `{"mcpServers": {"context-tree": {"env": {"CONTEXT_TREE_HOME": "/x"}, "command": "old", "timeout": 5}}}`
	merged, changed, err := upsertJSON([]byte(mine), stdioEntry)
	wantMerged := `{
  "mcpServers": {
    "context-tree": {
      "env": {
        "CONTEXT_TREE_HOME": "/x"
      },
      "command": "git",
      "timeout": 5,
      "args": [
        "context-tree",
        "mcp"
      ]
    }
  }
}
`
	if diff := cmp.Diff(wantMerged, string(merged)); err != nil || !changed || diff != "" {
		t.Errorf("merge into our entry: %v %v (-want +got):\n%s", changed, err, diff)
	}
	if _, changed, _ := upsertJSON(merged, stdioEntry); changed {
		t.Error("an entry with our command and args and more keys was rewritten")
	}
	if _, _, err := upsertJSON([]byte(`{"mcpServers": {"context-tree": "git"}}`), stdioEntry); err == nil {
		t.Error("an entry that is not an object was replaced")
	}
	again, changed, err := upsertJSON(out, stdioEntry)
	if err != nil || changed || string(again) != string(out) {
		t.Errorf("second write changed the file: %v %v", changed, err)
	}
	for _, bad := range []string{`[1]`, `{"a": 1} x`, `{"mcpServers": 3}`, `{"a": 1, "a": 2}`, `{// comment
}`} {
		if _, _, err := upsertJSON([]byte(bad), stdioEntry); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestUpsertTOMLEditsOnlyOurTable(t *testing.T) {
	in := `# my codex settings
model = "o4" # inline comment

[mcp_servers.context-tree]
command = "old"
args = []
env = { A = "1" }

[mcp_servers.context-tree.env2]
X = "y"

# the docs server
[mcp_servers.docs]
command = "docs-server"
`
	out, changed, err := upsertTOML([]byte(in))
	if err != nil || !changed {
		t.Fatalf("changed %v, err %v", changed, err)
	}
	want := `# my codex settings
model = "o4" # inline comment

[mcp_servers.context-tree]
command = "git"
args = ["context-tree", "mcp"]
env = { A = "1" }

[mcp_servers.context-tree.env2]
X = "y"

# the docs server
[mcp_servers.docs]
command = "docs-server"
`
	if diff := cmp.Diff(want, string(out)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if _, changed, _ := upsertTOML(out); changed {
		t.Error("second write changed the file")
	}
	// A multi-line args array is replaced whole; the keys after it stay.
	multi := "[mcp_servers.context-tree]\nargs = [\n  \"a\",\n  \"b\",\n]\nstartup_timeout_sec = 20\ncommand = \"old\"\n"
	out, _, err = upsertTOML([]byte(multi))
	if err != nil || string(out) != "[mcp_servers.context-tree]\n"+tomlKeys()+"startup_timeout_sec = 20\n" {
		t.Errorf("multi-line args: %q %v", out, err)
	}
	// Only a sub-table of ours: the table is appended, the sub-table kept.
	sub := "[mcp_servers.context-tree.env]\nA = \"1\"\n"
	if out, _, err = upsertTOML([]byte(sub)); err != nil || string(out) != sub+"\n"+tomlBlock() {
		t.Errorf("sub-table only: %q %v", out, err)
	}
	appended, _, err := upsertTOML([]byte("model = \"o4\""))
	if err != nil || string(appended) != "model = \"o4\"\n\n"+tomlBlock() {
		t.Errorf("append: %q %v", appended, err)
	}
	for _, bad := range []string{"mcp_servers = { context-tree = { command = \"x\" } }\n", "[mcp_servers]\ncontext-tree.command = \"x\"\n", "not toml ="} {
		if _, _, err := upsertTOML([]byte(bad)); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestWriteThroughSymlinkAndIdempotence(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "dotfiles", "mcp.json")
	if err := os.MkdirAll(filepath.Dir(real), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(real, []byte(`{"mcpServers":{}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, ".mcp.json")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	h, _ := Lookup("claude-code")
	if changed, err := h.Write(link); err != nil || !changed {
		t.Fatalf("changed %v, err %v", changed, err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Error("the symlink was replaced")
	}
	data, _ := os.ReadFile(real)
	if !strings.Contains(string(data), `"type": "stdio"`) {
		t.Errorf("not written through the link: %s", data)
	}
	if fi, _ := os.Stat(real); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want the file's own 0600", fi.Mode().Perm())
	}
	if changed, err := h.Write(link); err != nil || changed {
		t.Errorf("second write: changed %v, err %v", changed, err)
	}
}

func TestWriteThroughDanglingSymlinkCreatesItsTarget(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "dotfiles"), 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, ".mcp.json")
	if err := os.Symlink(filepath.Join("dotfiles", "mcp.json"), link); err != nil {
		t.Fatal(err)
	}
	h, _ := Lookup("cursor")
	if changed, err := h.Write(link); err != nil || !changed {
		t.Fatalf("changed %v, err %v", changed, err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Error("the dangling symlink was replaced by a file")
	}
	if data, err := os.ReadFile(filepath.Join(dir, "dotfiles", "mcp.json")); err != nil || !strings.Contains(string(data), `"context-tree"`) {
		t.Errorf("target not created: %s %v", data, err)
	}
	loop := filepath.Join(dir, "loop.json")
	if err := os.Symlink("loop.json", loop); err != nil {
		t.Fatal(err)
	}
	if _, err := h.Write(loop); err == nil || !strings.Contains(err.Error(), "too many levels") {
		t.Errorf("a symlink loop: %v", err)
	}
}

func TestHTTPEntrySwitchesTransportAndKeepsOthers(t *testing.T) {
	h, _ := Lookup("claude-code")
	file := filepath.Join(t.TempDir(), ".mcp.json")
	if err := os.WriteFile(file, []byte(`{"mcpServers": {"context-tree": {"type": "stdio", "command": "git", "args": ["context-tree", "mcp"], "env": {"A": "1"}}, "other": {"command": "x"}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	hh, ok := h.HTTP("http://127.0.0.1:8765/mcp")
	if !ok {
		t.Fatal("claude-code has an HTTP form")
	}
	if _, err := hh.Write(file); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Servers map[string]map[string]any `json:"mcpServers"`
	}
	data, _ := os.ReadFile(file)
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"type": "http", "url": "http://127.0.0.1:8765/mcp", "headers": map[string]any{"Authorization": "Bearer ${CONTEXT_TREE_MCP_TOKEN}"}, "env": map[string]any{"A": "1"}}
	if d := cmp.Diff(want, got.Servers["context-tree"]); d != "" {
		t.Errorf("HTTP entry (-want +got):\n%s", d)
	}
	if st, _ := h.Inspect(file); st != Current {
		t.Errorf("inspect of the HTTP form: %s, want current", st)
	}
	if _, err := h.Write(file); err != nil {
		t.Fatal(err)
	}
	data, _ = os.ReadFile(file)
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatal(err)
	}
	if _, has := got.Servers["context-tree"]["url"]; has || got.Servers["other"]["command"] != "x" {
		t.Errorf("back to stdio: %v", got.Servers)
	}
	codex, _ := Lookup("codex")
	if _, ok := codex.HTTP("http://127.0.0.1:1/mcp"); ok {
		t.Error("codex has no HTTP form here")
	}
}
