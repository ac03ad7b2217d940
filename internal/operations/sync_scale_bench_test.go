package operations

import (
	"context"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/adapters/git"
	"github.com/git-context-tree/git-context-tree/internal/adapters/state"
	"github.com/git-context-tree/git-context-tree/internal/sources"
	"github.com/git-context-tree/git-context-tree/internal/testutil/fakegithub"
	"github.com/git-context-tree/git-context-tree/internal/testutil/fastimport"
)

// BenchmarkSyncAtScale measures sync of a ~1 MB tree in a large repository
// (issue 14): a generated history of GCT_BENCH_SCALE_MB megabytes of
// incompressible binary assets and many commits outside the subtree,
// served from a local bare repository with uploadpack.allowFilter through
// url.<base>.insteadOf. Side by side in one run: a full `git clone --bare`
// of the repository and the first sync of the subtree (disk under
// CONTEXT_TREE_HOME and wall time); then what a second sync after a
// one-line upstream change adds. Generating the data is slow, so the
// benchmark runs only when asked:
//
//	GCT_BENCH_SCALE_MB=1024 go test -run '^$' -bench SyncAtScale -benchtime 1x ./internal/operations
//
// Every figure is reported as a metric; the data is deleted afterwards.
func BenchmarkSyncAtScale(b *testing.B) {
	mb, err := strconv.Atoi(os.Getenv("GCT_BENCH_SCALE_MB"))
	if err != nil || mb <= 0 {
		b.Skip("set GCT_BENCH_SCALE_MB (e.g. 1024) to generate a repository of that many megabytes of assets")
	}
	gh := fakegithub.New(b)
	bare := gh.Bare("acme/big")
	gh.Git(bare, "config", "uploadpack.allowFilter", "true")
	start := time.Now()
	generateBigRepo(b, bare, mb)
	b.Logf("generated %d MB of assets in %s; bare repository %s", mb, time.Since(start).Round(time.Second), mib(diskUsage(b, bare)))

	scratch := b.TempDir()
	project := filepath.Join(scratch, "project")
	cfg := &contracts.Config{SchemaVersion: contracts.CLIVersion, Trees: []contracts.Source{
		{Kind: contracts.SourceGit, Repository: "acme/big", Path: "teams/platform", Ref: "main"}}}
	if err := os.MkdirAll(project, 0o755); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(project, contracts.ConfigFile), sources.MarshalConfig(cfg), 0o644); err != nil {
		b.Fatal(err)
	}
	home := filepath.Join(scratch, "state")
	env := Env{Dir: project, Vars: os.Environ(), Git: git.New(os.Environ()), Home: &state.Home{Root: home}, LockWait: time.Second}
	ctx := context.Background()

	b.ResetTimer()
	for b.Loop() {
		os.RemoveAll(home)
		clone := filepath.Join(scratch, "clone.git")
		os.RemoveAll(clone)
		start := time.Now()
		gh.Git(scratch, "clone", "-q", "--bare", "https://github.com/acme/big.git", clone)
		cloneTime := time.Since(start)
		cloneDisk := diskUsage(b, clone)
		os.RemoveAll(clone)

		start = time.Now()
		if res, err := Sync(ctx, env, nil, false); err != nil || !allOK(res) {
			b.Fatalf("first sync: %+v %v", res, err)
		}
		syncTime := time.Since(start)
		syncDisk := diskUsage(b, home)

		b.StopTimer()
		oneLineChange(b, bare)
		b.StartTimer()
		start = time.Now()
		res, err := Sync(ctx, env, nil, false)
		if err != nil || !allOK(res) || !res.Connections[0].Changed {
			b.Fatalf("second sync: %+v %v", res, err)
		}
		secondTime := time.Since(start)
		added := diskUsage(b, home) - syncDisk

		// gc with no grace period: the first commit's snapshot is old now.
		b.StopTimer()
		b.Setenv(PruneGraceVar, "0s")
		gc, err := GC(ctx, env)
		if err != nil || gc.SnapshotsRemoved != 1 {
			b.Fatalf("gc: %+v %v", gc, err)
		}
		left := env.Managed().SnapshotCount("acme/big")
		afterPrune := diskUsage(b, home)
		b.StartTimer()

		b.ReportMetric(float64(cloneDisk)/1e6, "clone-MB")
		b.ReportMetric(float64(syncDisk)/1e6, "sync-MB")
		b.ReportMetric(100*float64(syncDisk)/float64(cloneDisk), "disk-%")
		b.ReportMetric(cloneTime.Seconds(), "clone-s")
		b.ReportMetric(syncTime.Seconds(), "sync-s")
		b.ReportMetric(syncTime.Seconds()/cloneTime.Seconds(), "time-ratio")
		b.ReportMetric(secondTime.Seconds(), "second-sync-s")
		b.ReportMetric(float64(added)/1e6, "second-sync-added-MB")
		b.ReportMetric(float64(left), "snapshots-after-gc")
		b.ReportMetric(float64(afterPrune)/1e6, "after-gc-MB")
		b.Logf("full clone --bare: %s in %s | first sync: %s in %s (%.1f%% of the disk, %.2fx the time) | second sync after a one-line change: +%s in %s | gc: %d snapshot left, %s",
			mib(cloneDisk), cloneTime.Round(time.Millisecond), mib(syncDisk), syncTime.Round(time.Millisecond),
			100*float64(syncDisk)/float64(cloneDisk), syncTime.Seconds()/cloneTime.Seconds(), mib(added), secondTime.Round(time.Millisecond), left, mib(afterPrune))
	}
}

// generateBigRepo writes the history with git fast-import: a ~1 MB tree
// of 200 documents in teams/platform, then 1,000 commits that each edit a
// source file, every tenth also adding an incompressible asset, mb
// megabytes of assets in all.
func generateBigRepo(b *testing.B, bare string, mb int) {
	w, done := fastimport.Start(b, bare)
	rng := rand.NewChaCha8([32]byte{14})
	when := int64(1700000000)
	commit := func(i int, files map[string][]byte) {
		fmt.Fprintf(w, "commit refs/heads/main\ncommitter T <t@example.com> %d +0000\ndata <<EOF\ncommit %d\nEOF\n", when+int64(i)*60, i)
		for name, data := range files {
			fmt.Fprintf(w, "M 100644 inline %s\ndata %d\n", name, len(data))
			w.Write(data)
			w.WriteString("\n")
		}
		w.WriteString("\n")
	}
	tree := map[string][]byte{"teams/platform/NODE.md": []byte(benchRoot)}
	for j := range 200 {
		tree[fmt.Sprintf("teams/platform/doc%03d.md", j)] = []byte(fmt.Sprintf("---\ntitle: Doc %d\n---\n\n%s\n", j, strings.Repeat("Platform notes, line after line. ", 150)))
	}
	tree["README.md"] = []byte("A big repository.\n")
	commit(0, tree)
	const commits, every = 1000, 10
	asset := int64(mb) << 20 / (commits / every)
	buf := make([]byte, asset)
	for i := 1; i <= commits; i++ {
		files := map[string][]byte{fmt.Sprintf("src/file%02d.txt", i%50): []byte(fmt.Sprintf("revision %d\n", i))}
		if i%every == 0 {
			rng.Read(buf)
			files[fmt.Sprintf("assets/asset%04d.bin", i)] = buf
		}
		commit(i, files)
	}
	done()
}

// oneLineChange commits a one-line edit of one document upstream.
func oneLineChange(b *testing.B, bare string) {
	cmd := exec.Command("git", "fast-import", "--quiet")
	cmd.Dir = bare
	doc := fmt.Sprintf("---\ntitle: Doc 0\n---\n\nOne line changed.\n%s\n", strings.Repeat("Platform notes, line after line. ", 150))
	cmd.Stdin = strings.NewReader(fmt.Sprintf("commit refs/heads/main\ncommitter T <t@example.com> 1800000000 +0000\ndata 7\nchange\nfrom refs/heads/main^0\nM 100644 inline teams/platform/doc000.md\ndata %d\n%s\n\n", len(doc), doc))
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("git fast-import: %v\n%s", err, out)
	}
}

// diskUsage is the disk a directory tree takes (allocated blocks).
func diskUsage(b *testing.B, root string) int64 {
	var n int64
	err := filepath.WalkDir(root, func(_ string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		if st, ok := fi.Sys().(*syscall.Stat_t); ok {
			n += st.Blocks * 512
		} else {
			n += fi.Size()
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	return n
}

func mib(n int64) string { return fmt.Sprintf("%.1f MB", float64(n)/1e6) }
