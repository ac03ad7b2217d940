package agent

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/git-context-tree/git-context-tree/internal/environ"
)

func script(t *testing.T, body string) string {
	p := filepath.Join(t.TempDir(), "agent")
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestRunPromptOnStdinInDir(t *testing.T) {
	dir := t.TempDir()
	var out bytes.Buffer
	res := Run(context.Background(), Request{Args: []string{script(t, "pwd; cat; exit 4\n")}, Dir: dir, Prompt: "hello prompt", Timeout: time.Hour, Output: &out})
	if res.ExitCode != 4 || res.TimedOut || res.Cancelled || res.Err != nil {
		t.Fatalf("result %+v", res)
	}
	real, _ := filepath.EvalSymlinks(dir)
	if got := out.String(); got != real+"\nhello prompt" {
		t.Errorf("output %q", got)
	}
}

// groupGone waits for a process to be gone (or a zombie nobody reaps). A
// killed process dies at once; one still alive after a minute was not
// killed.
func groupGone(pid int) bool {
	for range 3000 {
		data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if err != nil || strings.Fields(string(data))[2] == "Z" {
			return true
		}
		if syscall.Kill(pid, 0) != nil {
			return true
		}
		time.Sleep(20 * time.Millisecond)
	}
	return false
}

// waitFile waits until name exists or stop is closed.
func waitFile(name string, stop <-chan struct{}) bool {
	for {
		if _, err := os.Stat(name); err == nil {
			return true
		}
		select {
		case <-stop:
			return false
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// An agent that would run for an hour is stopped by its timeout.
func TestTimeoutStopsTheAgent(t *testing.T) {
	var out bytes.Buffer
	res := Run(context.Background(), Request{Args: []string{script(t, "exec sleep 3600\n")}, Dir: t.TempDir(), Timeout: 100 * time.Millisecond, Output: &out})
	if !res.TimedOut || res.Cancelled {
		t.Fatalf("result %+v", res)
	}
}

// Stopping the agent kills its whole process group: the child it left in
// the background dies too. The agent is stopped once it has written its
// child's pid (an event, not a delay); the timeout and cancellation stop it
// the same way.
func TestCancelKillsTheProcessGroup(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "child")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stop := make(chan struct{})
	go func() {
		if waitFile(pidFile, stop) {
			cancel()
		}
	}()
	var out bytes.Buffer
	res := Run(ctx, Request{Args: []string{script(t, "sleep 3600 & echo $! > "+pidFile+".tmp; mv "+pidFile+".tmp "+pidFile+"; wait\n")}, Dir: t.TempDir(), Timeout: time.Hour, Output: &out})
	close(stop)
	if !res.Cancelled || res.TimedOut {
		t.Fatalf("result %+v", res)
	}
	data, _ := os.ReadFile(pidFile)
	pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil {
		t.Fatal(err)
	}
	if !groupGone(pid) {
		t.Errorf("the agent's child %d survived", pid)
	}
}

func TestCommandLine(t *testing.T) {
	env := environ.Vars(os.Environ())
	if _, err := CommandLine("nope", "", env, t.TempDir()); err == nil {
		t.Error("unknown agent accepted")
	}
	args, err := CommandLine("", "sh -c true", env, t.TempDir())
	if err != nil || !filepath.IsAbs(args[0]) || len(args) != 3 {
		t.Errorf("CommandLine = %v, %v", args, err)
	}
	if _, err := CommandLine("", "/no/such/agent", env, t.TempDir()); err == nil {
		t.Error("missing executable accepted")
	}
}

// The agent is found along the command's PATH and from the command's
// directory, never the process's.
func TestCommandLineFromTheCommandsEnvironment(t *testing.T) {
	bin, dir := t.TempDir(), t.TempDir()
	for _, f := range []string{filepath.Join(bin, "my-agent"), filepath.Join(dir, "local-agent")} {
		if err := os.WriteFile(f, []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	env := environ.Vars{"PATH=" + bin}
	args, err := CommandLine("", "my-agent --flag", env, dir)
	if err != nil || args[0] != filepath.Join(bin, "my-agent") {
		t.Errorf("along PATH: %v, %v", args, err)
	}
	args, err = CommandLine("", "./local-agent", env, dir)
	if err != nil || args[0] != filepath.Join(dir, "local-agent") {
		t.Errorf("from the directory: %v, %v", args, err)
	}
	if _, err := CommandLine("", "sh", environ.Vars{"PATH=" + bin}, dir); err == nil {
		t.Error("sh found outside the command's PATH")
	}
	if got := Environment(environ.Vars{"A=1", "GIT_DIR=/x", "B=2"}, "C=3"); !slices.Equal(got, []string{"A=1", "B=2", "C=3"}) {
		t.Errorf("Environment = %q", got)
	}
}
