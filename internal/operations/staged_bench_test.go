package operations

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/adapters/git"
	"github.com/git-context-tree/git-context-tree/internal/treegen"
)

// BenchmarkVerifyStaged measures the pre-commit check on a repository whose
// declared tree (docs/ctx) has 100,000 documents (5,000 with -short), all
// committed:
//
//   - OneStaged: `verify --staged` with one modified document staged
//     (after the first run, every document's result is in the cache);
//   - OneStagedNew: the same, the staged document new each time (one
//     cache miss, the cache rewritten): what a commit's hook meets;
//   - NothingStaged: with nothing under the tree staged (the fast path);
//   - GitStatus: the baseline, `git status --porcelain` on the same
//     repository in the OneStaged state.
//
// Run it with
//
//	go test -run '^$' -bench BenchmarkVerifyStaged -benchtime 20x ./internal/operations/
//
// The bounds: OneStaged at most 2x GitStatus; NothingStaged under
// 30 ms.
func BenchmarkVerifyStaged(b *testing.B) {
	if f := flag.Lookup("test.bench"); f == nil || f.Value.String() == "" {
		b.Skip("run with -bench")
	}
	docs := 100_000
	if testing.Short() {
		docs = 5_000
	}
	repo := b.TempDir()
	tree := filepath.Join(repo, "docs", "ctx")
	if err := treegen.Generate(tree, treegen.Options{Seed: 1, Docs: docs}); err != nil {
		b.Fatal(err)
	}
	cfg := `{"schemaVersion": 3, "trees": [{"kind": "directory", "path": "docs/ctx"}]}` + "\n"
	if err := os.WriteFile(filepath.Join(repo, contracts.ConfigFile), []byte(cfg), 0o644); err != nil {
		b.Fatal(err)
	}
	run := func(args ...string) string {
		b.Helper()
		cmd := exec.Command("git", append([]string{"-c", "user.name=Bench", "-c", "user.email=bench@example.com", "-c", "core.hooksPath=/dev/null", "-c", "gc.auto=0", "-c", "maintenance.auto=false"}, args...)...)
		cmd.Dir = repo
		out, err := cmd.CombinedOutput()
		if err != nil {
			b.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	run("init", "-q")
	run("add", "-A")
	run("commit", "-q", "-m", "tree")
	run("status", "--porcelain") // a warm index, as a user's would be

	// One document, modified validly.
	doc := filepath.Join(tree, "NODE.md")
	orig, err := os.ReadFile(doc)
	if err != nil {
		b.Fatal(err)
	}
	edited := append(append([]byte(nil), orig...), "\nOne more line.\n"...)
	if err := os.WriteFile(doc, edited, 0o644); err != nil {
		b.Fatal(err)
	}
	env := Env{Dir: repo, Git: git.New()}
	ctx := context.Background()

	b.Run("OneStaged", func(b *testing.B) {
		run("add", "docs/ctx/NODE.md")
		rep, err := VerifyStaged(ctx, env)
		if err != nil || !rep.OK || len(rep.Trees) != 1 || rep.Trees[0].Scanned.Documents != docs {
			b.Fatalf("VerifyStaged: %+v, %v", rep, err)
		}
		b.ResetTimer()
		for b.Loop() {
			if rep, err := VerifyStaged(ctx, env); err != nil || !rep.OK || len(rep.Trees) != 1 {
				b.Fatalf("VerifyStaged: %+v, %v", rep, err)
			}
		}
	})
	// What a hook meets: a document staged with content never verified
	// before (one cache miss, and the cache rewritten).
	b.Run("OneStagedNew", func(b *testing.B) {
		for i := range b.N {
			b.StopTimer()
			if err := os.WriteFile(doc, fmt.Appendf(append([]byte(nil), edited...), "Edit %d.\n", i), 0o644); err != nil {
				b.Fatal(err)
			}
			run("add", "docs/ctx/NODE.md")
			b.StartTimer()
			if rep, err := VerifyStaged(ctx, env); err != nil || !rep.OK || len(rep.Trees) != 1 {
				b.Fatalf("VerifyStaged: %+v, %v", rep, err)
			}
		}
	})
	b.Run("NothingStaged", func(b *testing.B) {
		run("reset", "-q") // leaves the cache tree of docs/ctx invalid: hashed
		rep, err := VerifyStaged(ctx, env)
		if err != nil || !rep.OK || len(rep.Trees) != 0 || rep.Note == "" {
			b.Fatalf("VerifyStaged: %+v, %v", rep, err)
		}
		b.ResetTimer()
		for b.Loop() {
			if rep, err := VerifyStaged(ctx, env); err != nil || len(rep.Trees) != 0 {
				b.Fatalf("VerifyStaged: %+v, %v", rep, err)
			}
		}
	})
	b.Run("GitStatus", func(b *testing.B) {
		run("add", "docs/ctx/NODE.md")
		b.ResetTimer()
		for b.Loop() {
			cmd := exec.Command("git", "status", "--porcelain")
			cmd.Dir = repo
			if out, err := cmd.Output(); err != nil || !strings.Contains(string(out), "docs/ctx/NODE.md") {
				b.Fatalf("git status: %v: %s", err, out)
			}
		}
	})
}
