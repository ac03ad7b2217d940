//go:build linux || darwin

package main

import (
	"bufio"
	"bytes"
	"strings"
	"testing"

	"github.com/git-context-tree/git-context-tree/internal/cli"
)

// TestRunBuffersStdout: the whole result reaches stdout once run returns.
func TestRunBuffersStdout(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run(cli.Process{Dir: t.TempDir(), Stdout: &stdout, Stderr: &stderr}, []string{"version"}); code != 0 {
		t.Fatalf("version: exit %d: %s", code, stderr.String())
	}
	if !strings.HasPrefix(stdout.String(), "git-context-tree version ") {
		t.Errorf("stdout = %q", stdout.String())
	}
}

// TestFlushFirst: what stdout holds is written before anything on stderr,
// so both keep their order on one terminal.
func TestFlushFirst(t *testing.T) {
	var both bytes.Buffer
	out := bufio.NewWriter(&both)
	errw := flushFirst{out, &both}
	out.WriteString("data\n")
	errw.Write([]byte("message\n"))
	out.WriteString("more\n")
	out.Flush()
	if got := both.String(); got != "data\nmessage\nmore\n" {
		t.Errorf("output = %q", got)
	}
}
