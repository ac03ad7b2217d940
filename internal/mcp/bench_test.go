package mcp

// The goal: on a 10,000-document tree a warm server answers search
// in < 100 ms and read_node in < 10 ms. Measured through a real client on
// the in-memory transport, so every figure includes JSON-RPC, project
// discovery, git's view of the tree (commit and dirtiness) and the result's
// encoding:
//
//	go test -run='^$' -bench=. -benchtime=20x ./internal/mcp/
//
// The tree is committed in a git repository, as a project's would be.

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/git-context-tree/git-context-tree/internal/adapters/git"
	"github.com/git-context-tree/git-context-tree/internal/adapters/state"
	"github.com/git-context-tree/git-context-tree/internal/operations"
	"github.com/git-context-tree/git-context-tree/internal/treegen"
)

func benchSession(b *testing.B) *sdk.ClientSession {
	b.Helper()
	project := b.TempDir()
	b.Setenv("CONTEXT_TREE_HOME", filepath.Join(b.TempDir(), "state"))
	b.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	if err := treegen.Generate(filepath.Join(project, "docs"), treegen.Options{Seed: 17, Docs: 10000}); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(project, ".context-tree.json"), []byte(`{"schemaVersion":3,"trees":[{"kind":"directory","path":"docs"}]}`), 0o644); err != nil {
		b.Fatal(err)
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"-c", "user.name=B", "-c", "user.email=b@example.com", "commit", "-q", "-m", "tree"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = project
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	home, err := state.Locate(os.Environ(), "")
	if err != nil {
		b.Fatal(err)
	}
	srv, err := New(operations.Env{Dir: project, Vars: os.Environ(), Git: git.New(os.Environ()), Home: home}, "bench")
	if err != nil {
		b.Fatal(err)
	}
	ct, st := sdk.NewInMemoryTransports()
	ctx := context.Background()
	if _, err := srv.Connect(ctx, st, nil); err != nil {
		b.Fatal(err)
	}
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "bench", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { cs.Close() })
	return cs
}

func benchCall(b *testing.B, cs *sdk.ClientSession, tool string, args map[string]any) {
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: tool, Arguments: args})
	if err != nil || res.IsError {
		b.Fatalf("%s: %v %v", tool, err, res)
	}
}

func BenchmarkWarm10k(b *testing.B) {
	cs := benchSession(b)
	search := map[string]any{"query": "storage latency budget"}
	benchCall(b, cs, "search", search) // builds the index: the server is warm from here on
	b.Run("search", func(b *testing.B) {
		for b.Loop() {
			benchCall(b, cs, "search", search)
		}
	})
	b.Run("read_node", func(b *testing.B) {
		for b.Loop() {
			benchCall(b, cs, "read_node", map[string]any{"path": "NODE.md"})
		}
	})
}
