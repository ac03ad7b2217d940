package operations

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/adapters/git"
	"github.com/git-context-tree/git-context-tree/internal/adapters/state"
	"github.com/git-context-tree/git-context-tree/internal/sources"
	"github.com/git-context-tree/git-context-tree/internal/testutil/fakegithub"
)

// syncedTen is a project with ten git sources (ten repositories), synced
// once, each repository with `old` extra upstream commits synced too.
func syncedTen(b *testing.B, old int) Env {
	gh := fakegithub.New(b)
	project := b.TempDir()
	cfg := &contracts.Config{SchemaVersion: contracts.CLIVersion}
	for i := range 10 {
		repo := fmt.Sprintf("acme/tree%d", i)
		gh.Publish(repo, "main", map[string]string{"NODE.md": benchRoot})
		cfg.Trees = append(cfg.Trees, contracts.Source{Kind: contracts.SourceGit, Repository: repo, Path: ".", Ref: "main"})
	}
	if err := os.WriteFile(filepath.Join(project, contracts.ConfigFile), sources.MarshalConfig(cfg), 0o644); err != nil {
		b.Fatal(err)
	}
	env := Env{Dir: project, Vars: os.Environ(), Git: git.New(os.Environ()), Home: &state.Home{Root: filepath.Join(b.TempDir(), "state")}, LockWait: time.Second}
	for n := range old + 1 {
		if n > 0 {
			for i := range 10 {
				gh.Publish(fmt.Sprintf("acme/tree%d", i), "main", map[string]string{"NODE.md": benchRoot, "v.md": fmt.Sprintf("---\ntitle: V%d\n---\n", n)})
			}
		}
		if res, err := Sync(context.Background(), env, nil, false); err != nil || !allOK(res) {
			b.Fatalf("sync: %+v %v", res, err)
		}
	}
	return env
}

// BenchmarkGC10Unchanged measures `gc` of ten cached repositories with
// nothing to remove: per repository the lock, one for-each-ref, the
// snapshot listing and git gc --auto.
func BenchmarkGC10Unchanged(b *testing.B) {
	env := syncedTen(b, 0)
	b.ResetTimer()
	for b.Loop() {
		if _, err := GC(context.Background(), env); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSyncOffline10AutoPrune is BenchmarkSyncOffline10's work with
// automatic pruning on and each repository holding two old snapshots,
// under the limit of 3: the price of the check alone.
func BenchmarkSyncOffline10AutoPrune(b *testing.B) {
	env := syncedTen(b, 2)
	b.Setenv(AutoPruneVar, "3")
	b.ResetTimer()
	for b.Loop() {
		res, err := Sync(context.Background(), env, nil, true)
		if err != nil || !allOK(res) || res.Prune != nil {
			b.Fatalf("offline sync: %+v %v", res, err)
		}
	}
}
