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
	"bytes"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
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
	run := func(c command) (wall, cpu time.Duration) {
		cmd := exec.Command(c.bin, c.args...)
		cmd.Dir, cmd.Env = c.dir, env
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		start := time.Now()
		err := cmd.Run()
		d := time.Since(start)
		if err != nil || stdout.Len()+stderr.Len() == 0 {
			b.Fatalf("%s %v: %v\n%s", c.bin, c.args, err, stderr.Bytes())
		}
		return d, cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	}
	for _, c := range cmds {
		run(c) // warm the page cache
	}
	samples := make([][]time.Duration, len(cmds))
	cpus := make([][]time.Duration, len(cmds))
	i := 0
	for b.Loop() {
		for k := range cmds {
			j := (i + k) % len(cmds) // rotate who goes first
			wall, cpu := run(cmds[j])
			samples[j], cpus[j] = append(samples[j], wall), append(cpus[j], cpu)
		}
		i++
	}
	median := func(ds []time.Duration) float64 {
		s := slices.Clone(ds)
		slices.Sort(s)
		return float64(s[len(s)/2]) / float64(time.Millisecond)
	}
	floors := map[string]float64{}
	for j, c := range cmds {
		if c.name == "version" {
			floors[c.prefix] = median(samples[j])
		}
	}
	for j, c := range cmds {
		m := median(samples[j])
		b.ReportMetric(m, c.prefix+c.name+"-ms")
		b.ReportMetric(median(cpus[j]), c.prefix+c.name+"-cpu-ms")
		if c.name != "version" {
			b.ReportMetric(m/floors[c.prefix], c.prefix+c.name+"-x-floor")
		}
	}
	b.ReportMetric(0, "ns/op")
}
