//go:build linux || darwin

package main

// BenchmarkProcess measures the plumbing as agents and scripts meet it: the
// whole process, started with exec, its stdout a pipe read by the caller.
// It builds the binary once (not timed), generates its trees outside any
// git checkout, and runs the commands round-robin, so that load from other
// work on the machine falls on all of them alike. Run it with
//
//	go test -run '^$' -bench BenchmarkProcess -benchtime 200x ./cmd/git-context-tree/
//
// Reported, per command, the median wall time of one process (ms), its
// ratio to the process floor, `git-context-tree version`, and the median
// CPU time (user and system, of the process and the git processes it ran:
// the figure load from other work changes least):
//
//   - read-wide: `read` of a node with 1,000 children (goal: <= 50 ms);
//   - read-small: `read` of a small tree's root (goal: <= 2x the floor);
//   - verify-handbook: `verify examples/handbook`, the tree this repository
//     ships, in its git checkout (goal: <= 2x the floor).
//
// GCT_BENCH_BASELINE=<binary> adds the same commands run by another build
// (say, one of an earlier commit) to the rotation, reported with a "base-"
// prefix: before and after, side by side in one run.

import (
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/git-context-tree/git-context-tree/internal/treegen"
)

func BenchmarkProcess(b *testing.B) {
	if f := flag.Lookup("test.bench"); f == nil || f.Value.String() == "" {
		b.Skip("run with -bench")
	}
	tmp := b.TempDir()
	bin := filepath.Join(tmp, "git-context-tree")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	wide := filepath.Join(tmp, "wide")
	if err := treegen.Generate(wide, treegen.Options{Seed: 1, Docs: 1_100, WideChildren: 1_000}); err != nil {
		b.Fatal(err)
	}
	small := filepath.Join(tmp, "small")
	if err := treegen.Generate(small, treegen.Options{Seed: 2, Docs: 12}); err != nil {
		b.Fatal(err)
	}
	handbook, err := filepath.Abs(filepath.Join("..", "..", "examples", "handbook"))
	if err != nil {
		b.Fatal(err)
	}
	home := filepath.Join(tmp, "home")
	if err := os.Mkdir(home, 0o700); err != nil {
		b.Fatal(err)
	}

	type command struct {
		prefix, name string // prefix: "" or "base-"
		bin          string
		dir          string
		args         []string
	}
	var cmds []command
	add := func(prefix, bin string) {
		cmds = append(cmds,
			command{prefix, "version", bin, tmp, []string{"version"}},
			command{prefix, "read-wide", bin, wide, []string{"read", treegen.WideDir}},
			command{prefix, "read-small", bin, small, []string{"read"}},
			command{prefix, "verify-handbook", bin, tmp, []string{"verify", handbook}},
		)
	}
	add("", bin)
	if base := os.Getenv("GCT_BENCH_BASELINE"); base != "" {
		add("base-", base)
	}
	env := append(os.Environ(), "HOME="+home, "CONTEXT_TREE_HOME="+filepath.Join(home, ".context-tree"))
	samples, cpus := inTurns(b, len(cmds), func(j int) (time.Duration, time.Duration) {
		c := cmds[j]
		return timeProcess(b, c.dir, env, append([]string{c.bin}, c.args...)...)
	})
	floors := map[string]float64{}
	for j, c := range cmds {
		if c.name == "version" {
			floors[c.prefix] = medianMs(samples[j])
		}
	}
	for j, c := range cmds {
		m := medianMs(samples[j])
		b.ReportMetric(m, c.prefix+c.name+"-ms")
		b.ReportMetric(medianMs(cpus[j]), c.prefix+c.name+"-cpu-ms")
		if c.name != "version" {
			b.ReportMetric(m/floors[c.prefix], c.prefix+c.name+"-x-floor")
		}
	}
	b.ReportMetric(0, "ns/op")
}
