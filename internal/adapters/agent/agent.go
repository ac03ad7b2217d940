// Package agent runs the cleanup agent: a coding agent's CLI,
// non-interactively, with the prompt on stdin, in the session worktree, in
// its own process group that is killed on timeout or cancellation (and
// after it exits, so nothing it started outlives the run).
package agent

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"syscall"
	"time"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/environ"
)

// builtins are the agents' non-interactive command lines; each reads the
// prompt from stdin and may edit files in its working directory.
var builtins = map[string][]string{
	// Print mode; edits accepted without a prompt (no shell commands).
	"claude": {"claude", "-p", "--permission-mode", "acceptEdits"},
	// "-" reads the instructions from stdin; the sandbox allows edits in
	// the working directory only.
	"codex": {"codex", "exec", "--sandbox", "workspace-write", "-"},
	// Print mode; piped stdin becomes the prompt.
	"pi": {"pi", "--print"},
}

// Names are the built-in agents.
func Names() []string { return []string{"claude", "codex", "pi"} }

// CommandLine returns the agent's command line with its executable
// resolved to an absolute path (along env's PATH, or from dir, the
// command's directory): a built-in agent by name, or command (split on
// spaces, no shell; use a wrapper script for anything more).
func CommandLine(name, command string, env environ.Vars, dir string) ([]string, error) {
	var args []string
	if command != "" {
		args = strings.Fields(command)
	} else if b, ok := builtins[name]; ok {
		args = append([]string(nil), b...)
	} else {
		return nil, contracts.Errorf(contracts.CodeUsage, "unknown agent %q: use %s or --agent-command", name, strings.Join(Names(), ", "))
	}
	if len(args) == 0 {
		return nil, contracts.Errorf(contracts.CodeUsage, "--agent-command is empty")
	}
	exe, err := env.LookPath(args[0], dir)
	if err != nil {
		return nil, contracts.Errorf(contracts.CodeAgentNotFound, "cannot find the agent executable %q: %v", args[0], err).
			WithDetails(map[string]any{"agent": args[0]})
	}
	args[0] = exe
	return args, nil
}

// Request is one agent run.
type Request struct {
	Args    []string
	Dir     string
	Env     []string
	Prompt  string
	Timeout time.Duration
	// Output receives the agent's stdout, and its stderr unless Stderr
	// is set.
	Output interface{ Write([]byte) (int, error) }
	Stderr interface{ Write([]byte) (int, error) }
	// Started, when set, is called with the agent's pid (which is also its
	// process group id) once it runs.
	Started func(pid int)
}

// Result is how the agent run ended.
type Result struct {
	ExitCode  int // -1 when killed or not started
	TimedOut  bool
	Cancelled bool
	Err       error // the agent could not be started
}

// KillGroup kills the whole process group led by pid.
func KillGroup(pid int) { killGroup(pid) }

// killGroup kills the whole process group led by pid.
func killGroup(pid int) {
	syscall.Kill(-pid, syscall.SIGKILL)
}

// Run runs the agent and waits for it. Cancelling ctx kills it (Cancelled);
// so does the timeout (TimedOut).
func Run(ctx context.Context, req Request) Result {
	tctx, cancel := context.WithTimeout(ctx, req.Timeout)
	defer cancel()
	cmd := exec.Command(req.Args[0], req.Args[1:]...)
	cmd.Dir = req.Dir
	cmd.Env = req.Env
	cmd.Stdin = strings.NewReader(req.Prompt)
	cmd.Stdout, cmd.Stderr = req.Output, req.Output
	if req.Stderr != nil {
		cmd.Stderr = req.Stderr
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	// A child that keeps our output pipe open must not hold Wait forever.
	cmd.WaitDelay = time.Second
	if err := cmd.Start(); err != nil {
		return Result{ExitCode: -1, Err: fmt.Errorf("cannot start the agent %s: %w", req.Args[0], err)}
	}
	pid := cmd.Process.Pid
	if req.Started != nil {
		req.Started(pid)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var err error
	res := Result{}
	select {
	case err = <-done:
		killGroup(pid) // anything it left running
	case <-tctx.Done():
		killGroup(pid)
		err = <-done
		res.Cancelled = ctx.Err() != nil
		res.TimedOut = !res.Cancelled
	}
	res.ExitCode = 0
	var xe *exec.ExitError
	switch {
	case errors.As(err, &xe):
		res.ExitCode = xe.ExitCode()
	case err != nil:
		res.ExitCode, res.Err = -1, err
	}
	return res
}

// Environment is the agent's environment: the command's (base) without
// the variables that would redirect git to another repository, plus
// extra.
func Environment(base environ.Vars, extra ...string) []string {
	env := []string{}
	for _, kv := range base {
		name, _, _ := strings.Cut(kv, "=")
		switch name {
		case "GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_COMMON_DIR", "GIT_OBJECT_DIRECTORY", "GIT_ALTERNATE_OBJECT_DIRECTORIES":
			continue
		}
		env = append(env, kv)
	}
	return append(env, extra...)
}
