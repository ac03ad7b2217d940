package sources

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/git-context-tree/git-context-tree/internal/adapters/git"
	"github.com/git-context-tree/git-context-tree/internal/adapters/state"
	"github.com/git-context-tree/git-context-tree/internal/testutil/fakegithub"
)

// syncHelperVar makes the test binary a one-shot sync process (see TestMain).
const syncHelperVar = "GCT_TEST_SYNC_HELPER"

func TestMain(m *testing.M) {
	if spec := os.Getenv(syncHelperVar); spec != "" {
		os.Exit(runSyncHelper(spec))
	}
	os.Exit(m.Run())
}

// runSyncHelper syncs "<state-dir>|<repo>|<branch>" and exits.
func runSyncHelper(spec string) int {
	parts := strings.Split(spec, "|")
	m := &Managed{Home: &state.Home{Root: parts[0]}, Git: git.New(os.Environ()), LockWait: 10 * time.Second}
	if _, err := m.Sync(context.Background(), gitConn(parts[1], parts[2], "."), false); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// TestKilledSyncNeverLeavesHalfWrittenState kills a sync process with
// SIGKILL at random points, 50 times (5 under -short: a clone, a fetch of
// a new commit and a sync after kills; CI runs the full loop on its own),
// across clones, fetches and snapshot builds, and checks after each kill
// that no canonical cache or snapshot is half-written and that the next
// sync succeeds.
func TestKilledSyncNeverLeavesHalfWrittenState(t *testing.T) {
	if testing.Short() {
		t.Skip("a kill -9 loop: run without -short (CI's long-loops step does)")
	}
	kills := 50
	gh := fakegithub.New(t)
	files := map[string]string{"NODE.md": validRoot}
	for i := range 60 {
		files[fmt.Sprintf("d%d/NODE.md", i)] = fmt.Sprintf("---\ntitle: D%d\n---\n\n%s\n", i, strings.Repeat("text ", 200))
	}
	gh.Publish("acme/big", "main", files)
	m := newManaged(t)
	conn := gitConn("acme/big", "main", ".")
	rng := rand.New(rand.NewPCG(1, 2))

	for i := range kills {
		switch {
		case i%10 == 0:
			os.RemoveAll(m.Home.Root) // exercise the clone
		case i%3 == 0:
			gh.Publish("acme/big", "main", map[string]string{"NODE.md": validRoot + fmt.Sprintf("\nRevision %d.\n", i)})
		}
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), syncHelperVar+"="+m.Home.Root+"|acme/big|main")
		// Its own process group, so the kill takes its git children too.
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Duration(rng.IntN(80)) * time.Millisecond)
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		cmd.Wait()
		checkNoHalfWrittenState(t, m, "acme", "big")
		if i%5 == 4 {
			if _, err := m.Sync(context.Background(), conn, false); err != nil {
				t.Fatalf("iteration %d: sync after a kill: %v", i, err)
			}
		}
	}
	snap, err := m.Sync(context.Background(), conn, false)
	if err != nil {
		t.Fatalf("final sync: %v", err)
	}
	if _, err := m.Current(context.Background(), conn); err != nil {
		t.Fatalf("final snapshot not intact: %v", err)
	}
	if _, err := os.Stat(filepath.Join(snap.TreeRoot, "d59", "NODE.md")); err != nil {
		t.Fatal(err)
	}
}

// checkNoHalfWrittenState asserts every canonical cache is a repository with
// the right origin and every canonical snapshot is intact.
func checkNoHalfWrittenState(t *testing.T, m *Managed, owner, name string) {
	t.Helper()
	ctx := context.Background()
	cache := m.Home.Path("repos", owner, name+".git")
	if _, err := os.Lstat(cache); err != nil {
		return
	}
	if _, err := m.checkOrigin(ctx, cache, owner+"/"+name); err != nil {
		t.Fatalf("canonical cache is half-written: %v", err)
	}
	entries, _ := os.ReadDir(m.Home.Path("snapshots", owner, name))
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") {
			continue // staging and trash: never read
		}
		path := m.Home.Path("snapshots", owner, name, e.Name())
		if _, intact, _ := m.snapshotState(ctx, path, cache, e.Name()); !intact {
			// A snapshot whose commit the cache no longer has cannot be
			// judged; every other canonical snapshot must be intact.
			if c, _ := m.Git.ResolveCommit(ctx, cache, e.Name()); c != "" {
				t.Fatalf("canonical snapshot %s is not intact after a kill", e.Name())
			}
		}
	}
}
