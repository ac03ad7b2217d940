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

const benchRoot = "---\nschemaVersion: 1\ntitle: T\n---\n\nBody.\n"

// BenchmarkSyncOffline10 measures `sync --offline` of a project with ten git
// sources (ten repositories) when nothing changed: the cost of checking ten
// caches and snapshots without network or snapshot work.
func BenchmarkSyncOffline10(b *testing.B) {
	gh := fakegithub.New(b)
	project := b.TempDir()
	cfg := &contracts.Config{SchemaVersion: contracts.CLIVersion}
	for i := range 10 {
		repo := fmt.Sprintf("acme/tree%d", i)
		files := map[string]string{"NODE.md": benchRoot}
		for j := range 20 {
			files[fmt.Sprintf("doc%d.md", j)] = fmt.Sprintf("---\ntitle: Doc %d\n---\n\nText.\n", j)
		}
		gh.Publish(repo, "main", files)
		cfg.Trees = append(cfg.Trees, contracts.Source{Kind: contracts.SourceGit, Repository: repo, Path: ".", Ref: "main"})
	}
	if err := os.WriteFile(filepath.Join(project, contracts.ConfigFile), sources.MarshalConfig(cfg), 0o644); err != nil {
		b.Fatal(err)
	}
	env := Env{Dir: project, Vars: os.Environ(), Git: git.New(os.Environ()), Home: &state.Home{Root: filepath.Join(b.TempDir(), "state")}, LockWait: time.Second}
	ctx := context.Background()
	if res, err := Sync(ctx, env, nil, false); err != nil || !allOK(res) {
		b.Fatalf("first sync: %+v %v", res, err)
	}
	b.ResetTimer()
	for b.Loop() {
		res, err := Sync(ctx, env, nil, true)
		if err != nil || !allOK(res) {
			b.Fatalf("offline sync: %+v %v", res, err)
		}
	}
}

func allOK(res *contracts.SyncResult) bool {
	for _, e := range res.Connections {
		if !e.OK {
			return false
		}
	}
	return res != nil
}
