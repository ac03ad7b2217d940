package agent

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
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
	res := Run(context.Background(), Request{Args: []string{script(t, "pwd; cat; exit 4\n")}, Dir: dir, Prompt: "hello prompt", Timeout: 5 * time.Second, Output: &out})
	if res.ExitCode != 4 || res.TimedOut || res.Cancelled || res.Err != nil {
		t.Fatalf("result %+v", res)
	}
	real, _ := filepath.EvalSymlinks(dir)
	if got := out.String(); got != real+"\nhello prompt" {
		t.Errorf("output %q", got)
	}
}

// groupGone waits for a process to be gone (or a zombie nobody reaps).
func groupGone(pid int) bool {
	for i := 0; i < 50; i++ {
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

func TestTimeoutKillsTheProcessGroup(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "child")
	var out bytes.Buffer
	start := time.Now()
	res := Run(context.Background(), Request{Args: []string{script(t, "sleep 30 & echo $! > "+pidFile+"; wait\n")}, Dir: t.TempDir(), Timeout: 300 * time.Millisecond, Output: &out})
	if !res.TimedOut || res.Cancelled || time.Since(start) > 5*time.Second {
		t.Fatalf("result %+v after %v", res, time.Since(start))
	}
	data, _ := os.ReadFile(pidFile)
	pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil {
		t.Fatal(err)
	}
	if !groupGone(pid) {
		t.Errorf("the agent's child %d survived the timeout", pid)
	}
}

func TestCancelStopsTheAgent(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(200*time.Millisecond, cancel)
	var out bytes.Buffer
	res := Run(ctx, Request{Args: []string{script(t, "sleep 30\n")}, Dir: t.TempDir(), Timeout: time.Minute, Output: &out})
	if !res.Cancelled || res.TimedOut {
		t.Fatalf("result %+v", res)
	}
}

func TestCommandLine(t *testing.T) {
	if _, err := CommandLine("nope", ""); err == nil {
		t.Error("unknown agent accepted")
	}
	args, err := CommandLine("", "sh -c true")
	if err != nil || !filepath.IsAbs(args[0]) || len(args) != 3 {
		t.Errorf("CommandLine = %v, %v", args, err)
	}
	if _, err := CommandLine("", "/no/such/agent"); err == nil {
		t.Error("missing executable accepted")
	}
}
