package contracts_test

import (
	"encoding/json"
	"testing"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/schematest"
)

// TestSyncEntryShape: a successful entry always has repository and dirty
// (null outside git), a failed one only its error, and the schema accepts
// exactly these shapes (S10).
func TestSyncEntryShape(t *testing.T) {
	v, err := schematest.New()
	if err != nil {
		t.Fatal(err)
	}
	conn := contracts.ConnectionRef{Selector: "ctx", Exact: "/p/ctx", Source: contracts.Source{Kind: contracts.SourceDirectory, Path: "ctx"}}
	dirty := true
	for _, tc := range []struct {
		name  string
		entry contracts.SyncEntry
		want  string
	}{
		{"directory outside git", contracts.SyncEntry{OK: true, Connection: conn, TreeRoot: "/p/ctx"},
			`{"ok":true,"connection":{"selector":"ctx","exact":"/p/ctx","source":{"kind":"directory","path":"ctx"}},"treeRoot":"/p/ctx","repository":null,"dirty":null}`},
		{"directory in a checkout", contracts.SyncEntry{OK: true, Connection: conn, TreeRoot: "/p/ctx", Dirty: &dirty,
			Repository: &contracts.RepositoryState{Root: "/p", Subtree: "ctx", Branch: "main"}},
			`{"ok":true,"connection":{"selector":"ctx","exact":"/p/ctx","source":{"kind":"directory","path":"ctx"}},"treeRoot":"/p/ctx","repository":{"root":"/p","subtree":"ctx","branch":"main"},"dirty":true}`},
		{"failed", contracts.SyncEntry{Connection: conn, Error: contracts.Errorf(contracts.CodeNotSynced, "not synced")},
			`{"ok":false,"connection":{"selector":"ctx","exact":"/p/ctx","source":{"kind":"directory","path":"ctx"}},"error":{"code":"NOT_SYNCED","message":"not synced"}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := json.Marshal(tc.entry)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
			doc, _ := json.Marshal(contracts.SyncResult{SchemaVersion: contracts.CLIVersion, Connections: []contracts.SyncEntry{tc.entry}})
			if err := v.Validate("sync", doc); err != nil {
				t.Errorf("schema refuses %s: %v", doc, err)
			}
		})
	}
	// Half of the pair, or a success without the keys, is not an entry.
	for _, bad := range []string{
		`{"ok":true,"connection":{"selector":"ctx","exact":"/p/ctx","source":{"kind":"directory","path":"ctx"}},"treeRoot":"/p/ctx"}`,
		`{"ok":true,"connection":{"selector":"ctx","exact":"/p/ctx","source":{"kind":"directory","path":"ctx"}},"treeRoot":"/p/ctx","repository":null,"dirty":false}`,
		`{"ok":true,"connection":{"selector":"ctx","exact":"/p/ctx","source":{"kind":"directory","path":"ctx"}},"treeRoot":"/p/ctx","repository":{"root":"/p","subtree":"ctx"},"dirty":null}`,
	} {
		if err := v.Validate("sync", []byte(`{"schemaVersion":3,"connections":[`+bad+`]}`)); err == nil {
			t.Errorf("schema accepts %s", bad)
		}
	}
}
