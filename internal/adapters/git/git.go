// Package git is the only package that runs git. Every repository operation
// of git-context-tree goes through host git here, parsing only machine
// formats and branching on exit codes, never on message text.
package git

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"

	"github.com/git-context-tree/git-context-tree/internal/environ"
)

// Git runs the host git executable.
type Git struct {
	// Path is the git executable; "git" looks it up on Env's PATH.
	Path string
	// Env is the environment of the command (cli.Main's), the base of
	// every git process's environment; the process's own is never read.
	Env environ.Vars

	pathOnce sync.Once
	path     string
	pathErr  error

	localVarsOnce sync.Once
	localVars     []string
	localVarsErr  error

	// locations remembers where directories' repositories are (location):
	// a command asks the same of the same directory from several places
	// (discovery, the tree root search, directory resolution, the index,
	// the hooks).
	locationsMu sync.Mutex
	locations   map[locationKey]locationEntry
}

// New returns a Git that runs "git" from env's PATH, in env.
func New(env environ.Vars) *Git { return &Git{Path: "git", Env: env} }

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
	cmd, err := g.command(ctx, scope, dir, args...)
	if err != nil {
		return nil, err
	}
	return runCmd(cmd, args)
}

// runCmd runs a built git command and returns its stdout; a non-zero exit
// is an *ExitError naming args (the caller's arguments, without the
// hardening flags).
func runCmd(cmd *exec.Cmd, args []string) ([]byte, error) {
	return runCmdTee(cmd, args, nil)
}

// runCmdTee is runCmd also copying git's stderr to tee as it comes (nil:
// nowhere).
func runCmdTee(cmd *exec.Cmd, args []string, tee io.Writer) ([]byte, error) {
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if tee != nil {
		cmd.Stderr = io.MultiWriter(&stderr, tee)
	}
	return result(cmd.Run(), args, &stdout, &stderr)
}

// result is a finished git command's stdout, or its error.
func result(err error, args []string, stdout, stderr *bytes.Buffer) ([]byte, error) {
	if err != nil {
		var xe *exec.ExitError
		if errors.As(err, &xe) {
			return stdout.Bytes(), &ExitError{Args: args, Code: xe.ExitCode(), Stderr: stderr.String()}
		}
		return nil, fmt.Errorf("run git %s: %w", strings.Join(args, " "), err)
	}
	return stdout.Bytes(), nil
}

// Started is a git command started by Start.
type Started struct {
	cmd            *exec.Cmd
	args           []string
	stdout, stderr bytes.Buffer
}

// Start starts git in dir as Run runs it, without waiting for it: a caller
// that needs several answers at once starts the slowest first (processes
// start one after another). Wait gives the result; a started command must
// be waited for.
func (g *Git) Start(ctx context.Context, scope Scope, dir string, args ...string) (*Started, error) {
	cmd, err := g.command(ctx, scope, dir, args...)
	if err != nil {
		return nil, err
	}
	s := &Started{cmd: cmd, args: args}
	cmd.Stdout, cmd.Stderr = &s.stdout, &s.stderr
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("run git %s: %w", strings.Join(args, " "), err)
	}
	return s, nil
}

// Wait waits for the command and returns its stdout, as Run does.
func (s *Started) Wait() ([]byte, error) {
	return result(s.cmd.Wait(), s.args, &s.stdout, &s.stderr)
}

// hardening is prepended to every git command line: git-context-tree never
// runs anyone's hooks or file-system monitor inside its own git commands
// (caches, snapshots and sessions are the tool's, and a hook of the
// invoking repository must not re-enter it), never splits an index it
// writes into shared files beside it, and never starts git's automatic
// maintenance: a fetch into a cache would otherwise run `gc --auto`
// detached, outliving the lock the tool holds, while the tool compacts its
// repositories itself in the foreground (GCAuto), and each command it
// would follow costs one more process.
var hardening = []string{
	"-c", "core.hooksPath=" + os.DevNull, // first: HooksDir drops these two
	"-c", "core.fsmonitor=false",
	"-c", "core.splitIndex=false",
	"-c", "maintenance.auto=false",
	"-c", "advice.graftFileDeprecated=false", // GIT_GRAFT_FILE=/dev/null below
}

// command builds a git command run in dir with the scope's environment.
func (g *Git) command(ctx context.Context, scope Scope, dir string, args ...string) (*exec.Cmd, error) {
	return g.commandWith(ctx, scope, dir, hardening, args)
}

// commandWith builds a git command with the given leading options.
func (g *Git) commandWith(ctx context.Context, scope Scope, dir string, opts, args []string) (*exec.Cmd, error) {
	env, err := g.env(ctx, scope, dir)
	if err != nil {
		return nil, err
	}
	cmd := g.exec(ctx, append(slices.Clip(opts), args...))
	cmd.Dir = dir
	if dir == "" {
		// A command that names its paths itself (init, version) runs from
		// the root, never from the process's working directory.
		cmd.Dir = "/"
	}
	cmd.Env = env
	return cmd, nil
}

// exec is the git command line args, git found along Env's PATH (once per
// Git), not the process's: exec.Command would look it up there. A git
// that cannot be found fails the command when it runs, with exec's error.
func (g *Git) exec(ctx context.Context, args []string) *exec.Cmd {
	g.pathOnce.Do(func() {
		g.path = g.Path // a path: exec runs it (a relative one from the command's Dir)
		if !strings.Contains(g.Path, "/") {
			g.path, g.pathErr = g.Env.LookPath(g.Path, "")
		}
	})
	if g.pathErr != nil {
		return &exec.Cmd{Path: g.Path, Args: append([]string{g.Path}, args...), Err: g.pathErr}
	}
	cmd := exec.CommandContext(ctx, g.path, args...)
	cmd.Args[0] = g.Path
	return cmd
}

// env builds the environment: always no terminal prompts, the C locale
// for parsed output, and object replacement off; for Isolated, without the repository-local variables
// git itself lists (GIT_DIR, GIT_INDEX_FILE, GIT_WORK_TREE, …).
func (g *Git) env(ctx context.Context, scope Scope, dir string) ([]string, error) {
	env := g.Env.List()
	if scope == Isolated && hasGitVars(env) {
		vars, err := g.repositoryVars(ctx, dir)
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
	// Objects are what they are: no replace refs and no grafts may make a
	// commit or tree look different to the tool than its bytes say, in any
	// repository (S13: finish trusts only objects it can name by id).
	// No command may download an object behind the tool's back: a partial
	// cache fetches exactly the blobs of declared subtrees (FetchObjects).
	return append(env, "GIT_TERMINAL_PROMPT=0", "LC_ALL=C", "GIT_NO_REPLACE_OBJECTS=1", "GIT_GRAFT_FILE="+os.DevNull, "GIT_NO_LAZY_FETCH=1"), nil
}

// hasGitVars reports whether a GIT_* variable is set that may be local to
// a repository: every variable git lists as local is a GIT_* one, so
// without any (variables that only configure git for the user, as
// GIT_SSL_CAINFO or GIT_AUTHOR_NAME, do not count), Isolated has nothing
// to scrub and git need not be asked which they are.
func hasGitVars(env []string) bool {
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		if len(name) > 4 && strings.EqualFold(name[:4], "GIT_") && !userVar(name) {
			return true
		}
	}
	return false
}

// userVar reports a variable that configures git for the user or the
// process, never naming a repository or its parts.
func userVar(name string) bool {
	for _, prefix := range []string{"GIT_SSL_", "GIT_SSH", "GIT_AUTHOR_", "GIT_COMMITTER_", "GIT_TRACE", "GIT_HTTP_", "GIT_PROXY_"} {
		if strings.HasPrefix(name, prefix) {
			return true
		}
	}
	switch name {
	case "GIT_TERMINAL_PROMPT", "GIT_ASKPASS", "GIT_EDITOR", "GIT_SEQUENCE_EDITOR", "GIT_PAGER",
		"GIT_CONFIG_NOSYSTEM", "GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM", "GIT_CEILING_DIRECTORIES",
		"GIT_EXEC_PATH", "GIT_CURL_VERBOSE", "GIT_MERGE_VERBOSITY", "GIT_FLUSH", "GIT_OPTIONAL_LOCKS",
		"GIT_TEMPLATE_DIR", "GIT_ALLOW_PROTOCOL", "GIT_PROTOCOL_FROM_USER", "GIT_DEFAULT_HASH":
		return true
	}
	return false
}

// repositoryVars asks git which environment variables are local to a
// repository (`git rev-parse --local-env-vars`), once per Git (run in
// the directory of the first command that needs them: the list is git's,
// the same everywhere).
func (g *Git) repositoryVars(ctx context.Context, dir string) ([]string, error) {
	g.localVarsOnce.Do(func() {
		cmd := g.exec(ctx, []string{"rev-parse", "--local-env-vars"})
		cmd.Dir, cmd.Env = dir, g.Env.List()
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
