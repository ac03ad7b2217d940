package schematest

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/git-context-tree/git-context-tree/contracts"
)

func TestEverySchemaCompiles(t *testing.T) {
	v, err := New()
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range contracts.SchemaNames() {
		if _, err := v.Compile(name); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func TestErrorEnvelopeMatchesSchema(t *testing.T) {
	v, err := New()
	if err != nil {
		t.Fatal(err)
	}
	env := contracts.ErrorEnvelope{SchemaVersion: contracts.CLIVersion,
		Error: contracts.Errorf(contracts.CodeNotATree, "x is not a tree").WithDetails(map[string]any{"path": "/x"})}
	if err := v.ValidateValue("error", env); err != nil {
		t.Fatal(err)
	}
	env.SchemaVersion = 2
	if err := v.ValidateValue("error", env); err == nil {
		t.Fatal("schemaVersion 2 accepted")
	}
}

func TestSchemaListMatchesFiles(t *testing.T) {
	want := []string{"cleanup-list", "cleanup-logs", "cleanup-run", "cleanup-schedule", "config", "connection", "connection-change", "ctxfile", "doctor", "document", "document-root", "error", "export-ctxfile", "export-llms", "export-site", "finding", "fix", "gc", "hooks", "init", "list", "man", "mcp-config", "mcp-list-trees", "mcp-list-trees-input", "mcp-outline", "mcp-outline-input", "mcp-read-node", "mcp-read-node-input", "mcp-resolve-input", "mcp-search", "mcp-search-input", "mcp-verify", "mcp-verify-input", "read", "resolve", "schema-list", "serve", "session", "session-list", "session-prune", "skills-install", "skills-list", "skills-uninstall", "sync", "verify", "version"}
	got := contracts.SchemaNames()
	for _, w := range want {
		if _, ok := contracts.Schema(w); !ok {
			t.Errorf("Schema(%q) missing", w)
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("SchemaNames() mismatch (-want +got):\n%s", diff)
	}
}
