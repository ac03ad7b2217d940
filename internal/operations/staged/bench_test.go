package staged

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/treegen"
)

// BenchmarkVerifyStaged measures the pre-commit check as git runs it (the
// built binary, exec'd) against what git itself needs, on a repository
// whose declared tree (docs/ctx) has 100,000 documents (5,000 with
// -short), all committed. Each sub-benchmark runs its pair side by side,
// alternating, so load from other work falls on both alike, and reports
// the median of each (ms) and their ratio, and the same of CPU time
// (cpu-ms, cpu-ratio: user and system time of the process and of the git
// processes it ran, the figure load changes least):
//
//   - ColdLoose, ColdPacked: `verify --staged` with one document staged
//     and no cache (the first run after install, upgrade or clone)
//     against `verify docs/ctx` of the same files on disk; first with
//     every object loose (just added), then packed (as after a clone).
//     Goal: at most 2x.
//   - OneStaged: one modified document staged on a HEAD the check
//     judged (the delta path), every result cached,
//     against `git status --porcelain`. Goal: at most 1.5x.
//   - OneStagedWhole: the same without the delta path (its records
//     dropped before each run): the whole tree walked, every result
//     from the staged cache.
//   - OneStagedNew: the same as OneStaged, the staged document new each
//     time (never seen before): what a commit's hook meets.
//   - OneAdded: one new document (never seen before) staged in a
//     directory HEAD holds, on a HEAD the check judged, against `git
//     status --porcelain`. Goal: at most 1.5x.
//   - NothingStaged: nothing under the tree staged (the fast path)
//     against `git diff --cached --quiet`. Goal: at most 1.3x.
//   - CodeOnlyCited: one code file staged that two documents cite (of
//     the 1,000 under docs/ctx/cites, 50 with -short, citing four of
//     2,000 files in src/ each), caches warm: the fast path plus the
//     evidence notes from the citations index, against `git diff
//     --cached --quiet`.
//   - CodeOnlyCitedNoIndex: the same with the citations index removed
//     before each run (the tree's index entries listed, the cited paths
//     taken from the staged cache): what a torn index costs once.
//
// Run it with
//
//	go test -run '^$' -bench BenchmarkVerifyStaged -benchtime 10x ./internal/operations/staged/
//
// GCT_BENCH_DOCS=<n> sets the tree's size (10000, 30000, 100000 are the
// sizes issue 35 measures).
//
// GCT_BENCH_BASELINE=<binary> runs another build's `verify --staged` in
// the same rotation (reported as base-ms and base-ratio): before and after
// side by side. It runs against a copy of the repository's .git (each
// build keeps its own cache there, GIT_DIR naming it), over the same work
// tree.
func BenchmarkVerifyStaged(b *testing.B) {
	if f := flag.Lookup("test.bench"); f == nil || f.Value.String() == "" {
		b.Skip("run with -bench")
	}
	docs := 100_000
	if testing.Short() {
		docs = 5_000
	}
	if n, err := strconv.Atoi(os.Getenv("GCT_BENCH_DOCS")); err == nil && n > 0 {
		docs = n
	}
	tmp := b.TempDir()
	bin := filepath.Join(tmp, "git-context-tree")
	if out, err := exec.Command("go", "build", "-o", bin, "../../../cmd/git-context-tree").CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	base := os.Getenv("GCT_BENCH_BASELINE")
	repo := filepath.Join(tmp, "repo")
	tree := filepath.Join(repo, "docs", "ctx")
	if err := treegen.Generate(tree, treegen.Options{Seed: 1, Docs: docs}); err != nil {
		b.Fatal(err)
	}
	if err := writeCitingDocs(repo, docs/100); err != nil {
		b.Fatal(err)
	}
	cfg := `{"schemaVersion": 3, "trees": [{"kind": "directory", "path": "docs/ctx"}]}` + "\n"
	if err := os.WriteFile(filepath.Join(repo, contracts.ConfigFile), []byte(cfg), 0o644); err != nil {
		b.Fatal(err)
	}
	baseGit := filepath.Join(tmp, "base.git")
	baseEnv := append(os.Environ(), "GIT_DIR="+baseGit, "GIT_WORK_TREE="+repo)
	copied := false // whether baseGit exists
	git := func(args ...string) {
		b.Helper()
		envs := [][]string{nil}
		if copied {
			envs = append(envs, baseEnv)
		}
		for _, env := range envs {
			cmd := exec.Command("git", append([]string{"-c", "user.name=Bench", "-c", "user.email=bench@example.com", "-c", "core.hooksPath=/dev/null", "-c", "gc.auto=0", "-c", "maintenance.auto=false"}, args...)...)
			cmd.Dir, cmd.Env = repo, env
			if out, err := cmd.CombinedOutput(); err != nil {
				b.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
			}
		}
	}
	git("init", "-q")
	git("config", "gc.auto", "0")
	git("add", "-A")
	git("commit", "-q", "-m", "tree")
	git("status", "--porcelain") // a warm index, as a user's would be
	if base != "" {
		if out, err := exec.Command("cp", "-a", filepath.Join(repo, ".git"), baseGit).CombinedOutput(); err != nil {
			b.Fatalf("cp: %v\n%s", err, out)
		}
		copied = true
	}

	// command runs a command in the repository; ok lists the exit codes that
	// are not failures.
	command := func(env []string, name string, args []string, ok ...int) func() {
		return func() {
			cmd := exec.Command(name, args...)
			cmd.Dir, cmd.Env = repo, env
			out, err := cmd.CombinedOutput()
			if ee, isExit := err.(*exec.ExitError); isExit && slices.Contains(ok, ee.ExitCode()) {
				err = nil
			}
			if err != nil {
				b.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
			}
		}
	}
	staged := command(nil, bin, []string{"verify", "--staged"})
	var baseStaged func()
	if base != "" {
		baseStaged = command(baseEnv, base, []string{"verify", "--staged"})
	}
	// judge runs the check as the hook of a commit would, for each build
	// in its own git directory: HEAD judged for the delta path.
	judge := func() {
		staged()
		if baseStaged != nil {
			baseStaged()
		}
	}
	dropCache := func() {
		for _, gitDir := range []string{filepath.Join(repo, ".git"), baseGit} {
			if err := os.RemoveAll(filepath.Join(gitDir, cacheDir)); err != nil {
				b.Fatal(err)
			}
		}
	}
	// side runs ours, the baseline's (if any) and the reference in turn,
	// before each of them prepare (not timed), and reports the medians.
	side := func(b *testing.B, prepare func(), reference func(), refName string) {
		var ours, theirs, ref []time.Duration
		var oursCPU, theirsCPU, refCPU []time.Duration
		timed := func(f func(), into, cpuInto *[]time.Duration) {
			b.StopTimer()
			prepare()
			b.StartTimer()
			cpu := childrenCPU()
			start := time.Now()
			f()
			*into = append(*into, time.Since(start))
			*cpuInto = append(*cpuInto, childrenCPU()-cpu)
		}
		for b.Loop() {
			timed(staged, &ours, &oursCPU)
			if baseStaged != nil {
				timed(baseStaged, &theirs, &theirsCPU)
			}
			timed(reference, &ref, &refCPU)
		}
		b.ReportMetric(median(ours), "ms")
		b.ReportMetric(median(ref), refName+"-ms")
		b.ReportMetric(median(ours)/median(ref), "ratio")
		b.ReportMetric(median(oursCPU), "cpu-ms")
		b.ReportMetric(median(refCPU), refName+"-cpu-ms")
		b.ReportMetric(median(oursCPU)/median(refCPU), "cpu-ratio")
		if baseStaged != nil {
			b.ReportMetric(median(theirs), "base-ms")
			b.ReportMetric(median(theirs)/median(ref), "base-ratio")
			b.ReportMetric(median(theirsCPU), "base-cpu-ms")
			b.ReportMetric(median(theirsCPU)/median(refCPU), "base-cpu-ratio")
		}
		b.ReportMetric(0, "ns/op")
	}
	nothing := func() {}

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
	git("add", "docs/ctx/NODE.md")
	disk := command(nil, bin, []string{"verify", "docs/ctx"})

	b.Run("ColdLoose", func(b *testing.B) { side(b, dropCache, disk, "disk-verify") })
	git("repack", "-adq")
	git("prune-packed")
	b.Run("ColdPacked", func(b *testing.B) { side(b, dropCache, disk, "disk-verify") })
	status := command(nil, "git", []string{"status", "--porcelain"})
	// HEAD judged, as the hook of the commit that made it judged it: the
	// delta path (delta.go) applies.
	git("reset", "-q")
	judge()
	git("add", "docs/ctx/NODE.md")
	b.Run("OneStaged", func(b *testing.B) { side(b, nothing, status, "git-status") })
	// The same without the delta path's records: the whole tree walked,
	// every result from the staged cache.
	dropStates := func() {
		for _, gitDir := range []string{filepath.Join(repo, ".git"), baseGit} {
			if err := os.Remove(filepath.Join(gitDir, cacheDir, statesName)); err != nil && !os.IsNotExist(err) {
				b.Fatal(err)
			}
		}
	}
	b.Run("OneStagedWhole", func(b *testing.B) { side(b, dropStates, status, "git-status") })
	git("reset", "-q")
	judge()
	git("add", "docs/ctx/NODE.md")
	// What a hook meets: a document staged with content never verified
	// before (one cache miss, and the journal written).
	n := 0
	stageNew := func() {
		n++
		if err := os.WriteFile(doc, fmt.Appendf(append([]byte(nil), edited...), "Edit %d.\n", n), 0o644); err != nil {
			b.Fatal(err)
		}
		git("add", "docs/ctx/NODE.md")
	}
	b.Run("OneStagedNew", func(b *testing.B) { side(b, stageNew, status, "git-status") })
	// A commit that adds one document, new each time, to a directory HEAD
	// holds (the first subdirectory of the tree): the previous one
	// unstaged and removed before.
	git("reset", "-q")
	addDir, err := firstSubdir(tree)
	if err != nil {
		b.Fatal(err)
	}
	added := ""
	addNew := func() {
		if added != "" {
			git("reset", "-q", "--", added)
			if err := os.Remove(filepath.Join(repo, added)); err != nil {
				b.Fatal(err)
			}
		}
		n++
		added = fmt.Sprintf("docs/ctx/%s/added-%d.md", addDir, n)
		if err := os.WriteFile(filepath.Join(repo, added), fmt.Appendf(nil, "---\ntitle: Added %d\nsoft_links:\n  - %s\n---\n\nA new document.\n", n, addDir), 0o644); err != nil {
			b.Fatal(err)
		}
		git("add", added)
	}
	b.Run("OneAdded", func(b *testing.B) { side(b, addNew, status, "git-status") })
	if added != "" {
		git("reset", "-q", "--", added)
		if err := os.Remove(filepath.Join(repo, added)); err != nil {
			b.Fatal(err)
		}
	}
	git("reset", "-q") // leaves the cache tree of docs/ctx invalid: hashed
	diff := command(nil, "git", []string{"diff", "--cached", "--quiet"}, 1)
	b.Run("NothingStaged", func(b *testing.B) { side(b, nothing, diff, "git-diff-cached") })
	// A commit of code alone, cited by two documents: two notes.
	code := filepath.Join(repo, "src", "f0001.go")
	if err := os.WriteFile(code, []byte("package src\n\n// edited\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	git("add", "src/f0001.go")
	staged() // the citations index warm (the run before filled it)
	b.Run("CodeOnlyCited", func(b *testing.B) { side(b, nothing, diff, "git-diff-cached") })
	// The same with the citations index lost (the staged cache warm):
	// what a torn index costs once.
	dropCitations := func() {
		if err := os.Remove(filepath.Join(repo, ".git", cacheDir, citationsName)); err != nil && !os.IsNotExist(err) {
			b.Fatal(err)
		}
	}
	b.Run("CodeOnlyCitedNoIndex", func(b *testing.B) { side(b, dropCitations, diff, "git-diff-cached") })
}

// firstSubdir names the first subdirectory of dir (in name order) that
// has a NODE.md.
func firstSubdir(dir string) (string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return "", err
	}
	for _, e := range entries {
		if _, err := os.Stat(filepath.Join(dir, e.Name(), "NODE.md")); e.IsDir() && err == nil {
			return e.Name(), nil
		}
	}
	return "", fmt.Errorf("%s has no subdirectory with a NODE.md", dir)
}

// citedFiles is the number of code files under src/ the citing documents
// cite.
const citedFiles = 2000

// writeCitingDocs adds src/ (citedFiles code files) and docs/ctx/cites/
// with n documents citing four of them each (document i cites files 2i
// to 2i+3, modulo citedFiles: every file is cited by two documents, the
// first by lines).
func writeCitingDocs(repo string, n int) error {
	src := filepath.Join(repo, "src")
	cites := filepath.Join(repo, "docs", "ctx", "cites")
	for _, d := range []string{src, cites} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
	}
	for i := range citedFiles {
		if err := os.WriteFile(filepath.Join(src, fmt.Sprintf("f%04d.go", i)), fmt.Appendf(nil, "package src\n\n// File %d.\n", i), 0o644); err != nil {
			return err
		}
	}
	if err := os.WriteFile(filepath.Join(cites, "NODE.md"), []byte("---\ntitle: Cited code\n---\n\nNotes on the code.\n"), 0o644); err != nil {
		return err
	}
	for i := range n {
		var doc strings.Builder
		fmt.Fprintf(&doc, "---\ntitle: Code note %d\nsources:\n", i)
		for k := range 4 {
			fmt.Fprintf(&doc, "  - path: src/f%04d.go\n", (2*i+k)%citedFiles)
			if k == 0 {
				doc.WriteString("    lines: 1-2\n")
			}
		}
		fmt.Fprintf(&doc, "---\n\nWhat files %d to %d do.\n", 2*i, 2*i+3)
		if err := os.WriteFile(filepath.Join(cites, fmt.Sprintf("c%04d.md", i)), []byte(doc.String()), 0o644); err != nil {
			return err
		}
	}
	return nil
}

func median(ds []time.Duration) float64 {
	s := slices.Clone(ds)
	slices.Sort(s)
	return float64(s[len(s)/2]) / float64(time.Millisecond)
}

// childrenCPU is the user and system CPU time of every child process
// waited for so far, and of the processes they waited for (a check's git
// processes): the figure load from other work changes least.
func childrenCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_CHILDREN, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
