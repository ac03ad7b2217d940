//go:build linux || darwin

package main

// BenchmarkStart measures the fixed cost of starting the tool, the part of
// every hook and agent call that no command avoids: `git-context-tree
// version` as a whole process against a hello-world Go program built the
// same way (`go build`, default flags), run in turns so that load from other
// work falls on both alike. Run it with
//
//	go test -run '^$' -bench BenchmarkStart -benchtime 300x ./cmd/git-context-tree/
//
// Reported: the median wall time of one process (ms) of each, the ratio
// version/hello (goal: <= 2), and the median CPU time (user and system) of
// each. GCT_BENCH_BASELINE=<binary> adds another build's `version` (say,
// one of an earlier commit) to the turns, reported as base-version.

import (
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

func BenchmarkStart(b *testing.B) {
	if f := flag.Lookup("test.bench"); f == nil || f.Value.String() == "" {
		b.Skip("run with -bench")
	}
	tmp := b.TempDir()
	bin := filepath.Join(tmp, "git-context-tree")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	helloSrc := filepath.Join(tmp, "hello.go")
	if err := os.WriteFile(helloSrc, []byte("package main\n\nimport \"fmt\"\n\nfunc main() { fmt.Println(\"hello\") }\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	hello := filepath.Join(tmp, "hello")
	build := exec.Command("go", "build", "-o", hello, helloSrc)
	build.Dir = tmp
	if out, err := build.CombinedOutput(); err != nil {
		b.Fatalf("go build hello: %v\n%s", err, out)
	}
	home := filepath.Join(tmp, "home")
	if err := os.Mkdir(home, 0o700); err != nil {
		b.Fatal(err)
	}

	type command struct {
		name string
		argv []string
	}
	cmds := []command{{"version", []string{bin, "version"}}, {"hello", []string{hello}}}
	if base := os.Getenv("GCT_BENCH_BASELINE"); base != "" {
		cmds = append(cmds, command{"base-version", []string{base, "version"}})
	}
	env := append(os.Environ(), "HOME="+home, "CONTEXT_TREE_HOME="+filepath.Join(home, ".context-tree"))
	walls, cpus := inTurns(b, len(cmds), func(j int) (time.Duration, time.Duration) {
		return timeProcess(b, tmp, env, cmds[j].argv...)
	})
	for j, c := range cmds {
		b.ReportMetric(medianMs(walls[j]), c.name+"-ms")
		b.ReportMetric(medianMs(cpus[j]), c.name+"-cpu-ms")
	}
	b.ReportMetric(medianMs(walls[0])/medianMs(walls[1]), "version-x-hello")
	b.ReportMetric(0, "ns/op")
}
