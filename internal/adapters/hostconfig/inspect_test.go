package hostconfig

import (
	"os"
	"path/filepath"
	"testing"
)

func TestInspect(t *testing.T) {
	dir := t.TempDir()
	codex, _ := Lookup("codex")
	cursor, _ := Lookup("cursor")
	for _, tc := range []struct {
		host Host
		data string // "" for no file
		want string
	}{
		{cursor, "", NoFile},
		{cursor, `{"mcpServers": {"x": {"command": "y"}}}`, Absent},
		{cursor, `{"mcpServers": {"context-tree": {"command": "git", "args": ["context-tree", "mcp"]}}}`, Current},
		{cursor, `{"mcpServers": {"context-tree": {"command": "git", "args": ["mcp"]}}}`, Differs},
		{cursor, `{"mcpServers": {"context-tree": {"env": {"A": "1"}, "command": "git", "args": ["context-tree", "mcp"]}}}`, Current},
		{cursor, `{"mcpServers": `, Invalid},
		{codex, "model = \"x\"\n", Absent},
		{codex, "[mcp_servers.context-tree]\ncommand = \"git\"\nargs = [\"context-tree\", \"mcp\"]\n", Current},
		{codex, "[mcp_servers.context-tree]\ncommand = \"other\"\n", Differs},
		{codex, "[mcp_servers.context-tree]\ncommand = \"git\"\nargs = [\"context-tree\", \"mcp\"]\n[mcp_servers.context-tree.env]\nA = \"1\"\n", Current},
		{codex, "[mcp_servers\n", Invalid},
	} {
		file := filepath.Join(dir, "absent")
		if tc.data != "" {
			file = filepath.Join(dir, tc.want+"."+tc.host.Format)
			if err := os.WriteFile(file, []byte(tc.data), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		got, _ := tc.host.Inspect(file)
		if got != tc.want {
			t.Errorf("%s %q: Inspect = %s, want %s", tc.host.Name, tc.data, got, tc.want)
		}
	}
}
