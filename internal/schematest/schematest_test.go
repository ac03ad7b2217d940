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
	want := []string{"agent-hooks", "cites", "cleanup-list", "cleanup-logs", "cleanup-run", "cleanup-schedule", "completion", "config", "connection", "connection-change", "ctxfile", "doctor", "document", "document-root", "drift", "error", "eval-freeze", "eval-grade", "eval-report", "eval-run", "eval-set", "evidence-stamp", "export-ctxfile", "export-llms", "export-site", "finding", "fix", "gc", "hooks", "init", "list", "man", "mcp-cited-by-input", "mcp-config", "mcp-http", "mcp-list-trees", "mcp-list-trees-input", "mcp-outline", "mcp-outline-input", "mcp-read-node", "mcp-read-node-input", "mcp-resolve-input", "mcp-search", "mcp-search-input", "mcp-verify", "mcp-verify-input", "read", "resolve", "schema-list", "serve", "session", "session-list", "session-prune", "skills-install", "skills-list", "skills-uninstall", "sync", "verify", "version"}
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

// TestDocumentSourcesSchema: the document schemas describe sources as the
// parser reads them (the order of a range's ends is the parser's alone).
func TestDocumentSourcesSchema(t *testing.T) {
	v, err := New()
	if err != nil {
		t.Fatal(err)
	}
	entry := func(e map[string]any) map[string]any {
		return map[string]any{"title": "T", "sources": []any{e}}
	}
	for _, name := range []string{"document", "document-root"} {
		ok := entry(map[string]any{"path": "src/a.go", "lines": "12-40", "commit": "abcdef0", "sha256": "0123456789abcdef", "repository": "tools", "note": "kept"})
		if name == "document-root" {
			ok["schemaVersion"] = 1
		}
		if err := v.ValidateValue(name, ok); err != nil {
			t.Errorf("%s: a good entry: %v", name, err)
		}
		for _, bad := range []any{
			"src/a.go",
			[]any{},
			[]any{map[string]any{"lines": "1"}},
			[]any{map[string]any{"path": "../x.go"}},
			[]any{map[string]any{"path": "/etc/x"}},
			[]any{map[string]any{"path": "a.go", "lines": "1-"}},
			[]any{map[string]any{"path": "a.go", "sha256": "abc"}},
			[]any{map[string]any{"path": "a.go", "commit": "xyz"}},
		} {
			doc := map[string]any{"title": "T", "schemaVersion": 1, "sources": bad}
			if name == "document" {
				delete(doc, "schemaVersion")
			}
			if err := v.ValidateValue(name, doc); err == nil {
				t.Errorf("%s accepts sources %v", name, bad)
			}
		}
	}
}
