package evidence

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/git-context-tree/git-context-tree/internal/adapters/git"
	"github.com/git-context-tree/git-context-tree/internal/adapters/state"
	"github.com/git-context-tree/git-context-tree/internal/operations"
	"github.com/git-context-tree/git-context-tree/internal/testutil/fastimport"
)

// BenchmarkDrift is the issue 19 goal: drift over a tree of 5,000
// documents citing 20,000 entries (line ranges of 2,000 files, stamped at
// ten commits from the oldest on) in a repository with 10,000 commits
// since the oldest cited commit, each editing lines of two files (half of
// them cited ones). git runs through a wrapper that counts its processes.
// The history is written with git fast-import; the documents only on disk
// (drift reads the tree from disk and the code from git).
func BenchmarkDrift(b *testing.B) {
	dir := b.TempDir()
	repo := filepath.Join(dir, "repo")
	run(b, "", "git", "init", "-q", repo)
	stamps := generateDriftRepo(b, repo, 10000)
	writeDriftTree(b, filepath.Join(repo, "docs", "ctx"), stamps, 5000, 4)
	counter := filepath.Join(dir, "git-calls")
	wrapper := filepath.Join(dir, "git")
	gitPath, err := exec.LookPath("git")
	if err != nil {
		b.Fatal(err)
	}
	script := fmt.Sprintf("#!/bin/sh\necho >> %q\nexec %q \"$@\"\n", counter, gitPath)
	if err := os.WriteFile(wrapper, []byte(script), 0o755); err != nil {
		b.Fatal(err)
	}
	env := operations.Env{Dir: repo, Vars: os.Environ(), Git: &git.Git{Path: wrapper, Env: os.Environ()}, Home: &state.Home{Root: filepath.Join(dir, "home")}, LockWait: time.Second}
	b.ResetTimer()
	for b.Loop() {
		os.Remove(counter)
		rep, err := Drift(context.Background(), env, nil, "")
		if err != nil {
			b.Fatal(err)
		}
		if len(rep.Trees) != 1 || rep.Trees[0].Sources != 20000 || len(rep.Trees[0].Documents) == 0 {
			b.Fatalf("drift: %d trees, %+v", len(rep.Trees), rep.Trees[0].Sources)
		}
		drifted := 0
		for _, d := range rep.Trees[0].Documents {
			drifted += len(d.Sources)
		}
		calls, _ := os.ReadFile(counter)
		b.ReportMetric(float64(strings.Count(string(calls), "\n")), "git-processes")
		b.ReportMetric(float64(drifted), "drifted-entries")
	}
}

const driftFiles, driftLines = 2000, 200

// generateDriftRepo writes the code history with fast-import: 2,000 files
// of 200 lines, then commits more commits that each rewrite one line of
// two files, and returns the ids of ten commits spread from the first on.
func generateDriftRepo(b *testing.B, repo string, commits int) []string {
	marks := filepath.Join(repo, "marks")
	w, done := fastimport.Start(b, repo, "--export-marks="+marks)
	files := make([][]string, driftFiles)
	for i := range files {
		files[i] = make([]string, driftLines)
		for l := range files[i] {
			files[i][l] = fmt.Sprintf("func f%d_%d() { return %d }", i, l, l)
		}
	}
	put := func(i int) {
		data := strings.Join(files[i], "\n") + "\n"
		fmt.Fprintf(w, "M 100644 inline src/d%02d/f%04d.go\ndata %d\n%s\n", i%50, i, len(data), data)
	}
	rng := rand.New(rand.NewPCG(19, 1))
	for c := 0; c <= commits; c++ {
		fmt.Fprintf(w, "commit refs/heads/main\nmark :%d\ncommitter T <t@example.com> %d +0000\ndata 9\ncommit %d\n", c+1, 1700000000+c*60, c%10)
		if c == 0 {
			for i := range files {
				put(i)
			}
		} else {
			for range 2 {
				i := rng.IntN(driftFiles * 2) // half the edits in files no one cites
				if i >= driftFiles {
					fmt.Fprintf(w, "M 100644 inline other/o%04d.txt\ndata 12\nrevision %02d\n\n", i-driftFiles, c%100)
					continue
				}
				files[i][rng.IntN(driftLines)] = fmt.Sprintf("// edited in commit %d", c)
				put(i)
			}
		}
		w.WriteString("\n")
	}
	done()
	run(b, repo, "git", "symbolic-ref", "HEAD", "refs/heads/main")
	data, err := os.ReadFile(marks)
	if err != nil {
		b.Fatal(err)
	}
	ids := map[string]string{}
	for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		mark, id, _ := strings.Cut(l, " ")
		ids[mark] = id
	}
	var stamps []string
	for k := range 10 {
		stamps = append(stamps, ids[fmt.Sprintf(":%d", 1+k*commits/10)])
	}
	return stamps
}

// writeDriftTree writes docs documents in directories of 100, each citing
// per line ranges of random files at one of the stamp commits.
func writeDriftTree(b *testing.B, root string, stamps []string, docs, per int) {
	rng := rand.New(rand.NewPCG(19, 2))
	write := func(name, text string) {
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	write(filepath.Join(root, "NODE.md"), "---\nschemaVersion: 1\ntitle: Code notes\n---\n\nNotes on the code.\n")
	write(filepath.Join(filepath.Dir(filepath.Dir(root)), ".context-tree.json"), `{"schemaVersion": 3, "trees": [{"kind": "directory", "path": "docs/ctx"}]}`+"\n")
	for d := range docs {
		dir := filepath.Join(root, fmt.Sprintf("area%02d", d/100))
		if d%100 == 0 {
			write(filepath.Join(dir, "NODE.md"), fmt.Sprintf("---\ntitle: Area %d\n---\n\nAn area.\n", d/100))
		}
		var b strings.Builder
		fmt.Fprintf(&b, "---\ntitle: Note %d\ndescription: What file %d does.\nsources:\n", d, d)
		for range per {
			i, start := rng.IntN(driftFiles), 1+rng.IntN(driftLines-20)
			fmt.Fprintf(&b, "  - path: src/d%02d/f%04d.go\n    lines: %d-%d\n    commit: %s\n", i%50, i, start, start+19, stamps[rng.IntN(len(stamps))])
		}
		b.WriteString("---\n\nHow it works, in a few paragraphs of prose.\n")
		write(filepath.Join(dir, fmt.Sprintf("note%04d.md", d)), b.String())
	}
}

func run(b *testing.B, dir string, name string, args ...string) {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("%s %v: %v\n%s", name, args, err, out)
	}
}
