//go:build linux || darwin

// Command git-context-tree keeps Context Trees. Git runs it as
// `git context-tree`.
package main

import (
	"bufio"
	"fmt"
	"io"
	"os"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/cli"
)

func main() {
	wd, _ := os.Getwd() // "": cli.Main says it cannot be determined
	os.Exit(run(cli.Process{Dir: wd, Env: os.Environ(), Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr}, os.Args[1:]))
}

// run is the command line with stdout buffered: a result of a thousand
// lines is a few writes, not a thousand. Anything written to stderr first
// flushes what stdout holds, so the two stay in order on a terminal.
func run(proc cli.Process, args []string) int {
	stdout, stderr := proc.Stdout, proc.Stderr
	out := bufio.NewWriterSize(stdout, 64<<10)
	proc.Stdout, proc.Stderr = buffered{out, stdout}, flushFirst{out, stderr}
	code := cli.Main(proc, args)
	if err := out.Flush(); err != nil && code == contracts.ExitOK {
		fmt.Fprintf(stderr, "fatal: write output: %v\n", err)
		return contracts.ExitFatal
	}
	return code
}

// buffered is stdout's buffer; Fd names the file under it, so the
// command can tell a terminal from a pipe.
type buffered struct {
	*bufio.Writer
	file io.Writer
}

func (b buffered) Fd() uintptr { return fd(b.file) }

// flushFirst is stderr, flushing stdout's buffer before each write.
type flushFirst struct {
	stdout *bufio.Writer
	stderr io.Writer
}

func (f flushFirst) Write(p []byte) (int, error) {
	f.stdout.Flush()
	return f.stderr.Write(p)
}

func (f flushFirst) Fd() uintptr { return fd(f.stderr) }

// fd is a file's descriptor, or one that is no terminal (^uintptr(0))
// for any other writer.
func fd(w io.Writer) uintptr {
	if f, ok := w.(interface{ Fd() uintptr }); ok {
		return f.Fd()
	}
	return ^uintptr(0)
}
