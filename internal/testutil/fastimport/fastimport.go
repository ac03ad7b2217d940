// Package fastimport writes generated git histories for benchmarks through
// git fast-import.
package fastimport

import (
	"bufio"
	"os"
	"os/exec"
	"testing"
)

// Start starts `git fast-import --quiet args…` in dir for a benchmark to
// write a generated history into; done flushes the stream and waits for git
// to have written it.
func Start(b *testing.B, dir string, args ...string) (w *bufio.Writer, done func()) {
	b.Helper()
	cmd := exec.Command("git", append([]string{"fast-import", "--quiet"}, args...)...)
	cmd.Dir = dir
	stdin, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	w = bufio.NewWriterSize(stdin, 1<<20)
	return w, func() {
		b.Helper()
		if err := w.Flush(); err != nil {
			b.Fatal(err)
		}
		stdin.Close()
		if err := cmd.Wait(); err != nil {
			b.Fatalf("git fast-import: %v", err)
		}
	}
}
