package hostconfig

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/git-context-tree/git-context-tree/contracts"
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

func TestWriteRefusesSymlinksAndIsIdempotent(t *testing.T) {
	dir := t.TempDir()
	gitconfig := filepath.Join(dir, "home", ".gitconfig")
	if err := os.MkdirAll(filepath.Dir(gitconfig), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(gitconfig, []byte("[user]\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	h, _ := Lookup("claude-code")
	for name, target := range map[string]string{".mcp.json": gitconfig, "dangling.json": filepath.Join(dir, "nowhere.json"), "loop.json": "loop.json"} {
		link := filepath.Join(dir, name)
		if err := os.Symlink(target, link); err != nil {
			t.Fatal(err)
		}
		var ce *contracts.Error
		if _, err := h.Write(link); !errors.As(err, &ce) || ce.Code != contracts.CodeHostConfigInvalid || !strings.Contains(err.Error(), "symbolic link") {
			t.Errorf("%s: %v, want HOST_CONFIG_INVALID naming the link", name, err)
		}
	}
	if data, _ := os.ReadFile(gitconfig); string(data) != "[user]\n" {
		t.Errorf("written through the link: %q", data)
	}
	if _, err := os.Lstat(filepath.Join(dir, "nowhere.json")); err == nil {
		t.Error("a dangling link's target was created")
	}
	cursor, _ := Lookup("cursor")
	linkedDir := filepath.Join(dir, "project", ".cursor")
	if err := os.MkdirAll(filepath.Dir(linkedDir), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Dir(gitconfig), linkedDir); err != nil {
		t.Fatal(err)
	}
	if _, err := cursor.Write(filepath.Join(linkedDir, "mcp.json")); err == nil {
		t.Error("written into a symlinked directory")
	}
	file := filepath.Join(dir, "real.json")
	if changed, err := h.Write(file); err != nil || !changed {
		t.Fatalf("changed %v, err %v", changed, err)
	}
	if changed, err := h.Write(file); err != nil || changed {
		t.Errorf("second write: changed %v, err %v", changed, err)
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
