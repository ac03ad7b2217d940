//go:build linux || darwin

package main

// What the process benchmarks share: timing one process, running several
// in turns, and the median of the samples.

import (
	"bytes"
	"os/exec"
	"slices"
	"testing"
	"time"
)

// timeProcess runs argv in dir with env and returns its wall time and its
// CPU time (user and system). A failure, or a process that prints
// nothing, fails the benchmark.
func timeProcess(b *testing.B, dir string, env []string, argv ...string) (wall, cpu time.Duration) {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir, cmd.Env = dir, env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	wall = time.Since(start)
	if err != nil || stdout.Len()+stderr.Len() == 0 {
		b.Fatalf("%v: %v\n%s", argv, err, stderr.Bytes())
	}
	return wall, cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
}

// inTurns runs each of n processes once to warm the page cache, then each
// once per iteration of b.Loop, rotating which goes first so that the
// machine's load falls on all of them alike. It returns each one's wall
// and CPU times.
func inTurns(b *testing.B, n int, run func(j int) (wall, cpu time.Duration)) (walls, cpus [][]time.Duration) {
	for j := range n {
		run(j)
	}
	walls, cpus = make([][]time.Duration, n), make([][]time.Duration, n)
	i := 0
	for b.Loop() {
		for k := range n {
			j := (i + k) % n
			wall, cpu := run(j)
			walls[j], cpus[j] = append(walls[j], wall), append(cpus[j], cpu)
		}
		i++
	}
	return walls, cpus
}

// medianMs is the median of samples, in milliseconds.
func medianMs(ds []time.Duration) float64 {
	s := slices.Clone(ds)
	slices.Sort(s)
	return float64(s[len(s)/2]) / float64(time.Millisecond)
}
