package hostconfig

import (
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
