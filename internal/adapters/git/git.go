// Package git is the only package that runs git. Every repository operation
// of git-context-tree goes through host git here, parsing only machine
// formats and branching on exit codes, never on message text.
package git

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
)

// Git runs the host git executable.
type Git struct {
	// Path is the git executable; "git" looks it up on PATH.
	Path string

	localVarsOnce sync.Once
	localVars     []string
	localVarsErr  error
}

// New returns a Git that runs "git" from PATH.
func New() *Git { return &Git{Path: "git"} }

// ExitError is git exiting non-zero.
type ExitError struct {
	Args   []string
	Code   int
	Stderr string
}

func (e *ExitError) Error() string {
	msg := strings.TrimSpace(e.Stderr)
	if i := strings.IndexByte(msg, '\n'); i >= 0 {
		msg = msg[:i]
	}
	return fmt.Sprintf("git %s: exit %d: %s", strings.Join(e.Args, " "), e.Code, msg)
}

// ExitCode returns git's exit code if err is an *ExitError, else -1.
func ExitCode(err error) int {
	var ee *ExitError
	if errors.As(err, &ee) {
		return ee.Code
	}
	return -1
}

// Scope says whose repository a command runs against.
type Scope int

const (
	// Invoking runs against the repository git-context-tree was started in,
	// keeping the inherited GIT_* variables (a hook's GIT_INDEX_FILE).
	Invoking Scope = iota
	// Isolated runs against another repository (a cache, snapshot, session
	// worktree or a directory source): the inherited repository variables
	// are scrubbed so they cannot redirect git.
	Isolated
)

// Run runs git in dir and returns its stdout.
func (g *Git) Run(ctx context.Context, scope Scope, dir string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, g.Path, args...)
	cmd.Dir = dir
	env, err := g.env(ctx, scope)
	if err != nil {
		return nil, err
	}
	cmd.Env = env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		var xe *exec.ExitError
		if errors.As(err, &xe) {
			return stdout.Bytes(), &ExitError{Args: args, Code: xe.ExitCode(), Stderr: stderr.String()}
		}
		return nil, fmt.Errorf("run git %s: %w", strings.Join(args, " "), err)
	}
	return stdout.Bytes(), nil
}

// env builds the environment: always no terminal prompts and the C locale
// for parsed output; for Isolated, without the repository-local variables
// git itself lists (GIT_DIR, GIT_INDEX_FILE, GIT_WORK_TREE, …).
func (g *Git) env(ctx context.Context, scope Scope) ([]string, error) {
	env := os.Environ()
	if scope == Isolated {
		vars, err := g.repositoryVars(ctx)
		if err != nil {
			return nil, err
		}
		drop := make(map[string]bool, len(vars))
		for _, v := range vars {
			drop[v] = true
		}
		kept := env[:0:0]
		for _, kv := range env {
			name, _, _ := strings.Cut(kv, "=")
			if !drop[name] {
				kept = append(kept, kv)
			}
		}
		env = kept
	}
	return append(env, "GIT_TERMINAL_PROMPT=0", "LC_ALL=C"), nil
}

// repositoryVars asks git which environment variables are local to a
// repository (`git rev-parse --local-env-vars`), once per Git.
func (g *Git) repositoryVars(ctx context.Context) ([]string, error) {
	g.localVarsOnce.Do(func() {
		cmd := exec.CommandContext(ctx, g.Path, "rev-parse", "--local-env-vars")
		out, err := cmd.Output()
		if err != nil {
			g.localVarsErr = fmt.Errorf("list git's repository variables: %w", err)
			return
		}
		g.localVars = strings.Fields(string(out))
	})
	return g.localVars, g.localVarsErr
}

// Summary is what git said about a failure, without the command line (which
// may name internal paths): the first line of its stderr, or the error.
func Summary(err error) string {
	var ee *ExitError
	if errors.As(err, &ee) {
		msg := strings.TrimSpace(ee.Stderr)
		if i := strings.IndexByte(msg, '\n'); i >= 0 {
			msg = msg[:i]
		}
		if msg != "" {
			return msg
		}
		return fmt.Sprintf("git exited with %d", ee.Code)
	}
	return err.Error()
}
