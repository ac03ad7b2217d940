// Package operations carries out the product's commands: verification,
// reads, initialization and, later, connections, sync, write sessions and
// cleanup. The CLI calls these; they call sources, tree and adapters.
// Feature families live in packages below it (exports, hooks, doctor,
// evidence, staged); they may import this core, which imports none of them.
package operations

import (
	"context"
	"errors"
	"io"
	"path/filepath"
	"time"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/adapters/git"
	"github.com/git-context-tree/git-context-tree/internal/adapters/lock"
	"github.com/git-context-tree/git-context-tree/internal/adapters/state"
	"github.com/git-context-tree/git-context-tree/internal/environ"
	"github.com/git-context-tree/git-context-tree/internal/sources"
)

// Env is what every operation runs with: the directory the command runs in
// (the process's working directory, or -C), its environment variables and
// host git.
type Env struct {
	Dir string
	// Vars is the command's environment (cli.Main's, never the
	// process's): what operations read of it, and Git's (git.New(Vars)).
	Vars environ.Vars
	Git  *git.Git
	Home *state.Home
	// LockWait is how long to wait for a lock held by a live process
	// before failing with LOCK_HELD.
	LockWait time.Duration
	// LockWaiting, when set, is told who holds a lock the command has
	// been waiting for a moment (lock.NoticeAfter): the CLI says so on
	// stderr. nil waits in silence.
	LockWaiting func(lock.Holder)
	// Progress, when set, is where git's fetch progress for a repository
	// goes (sync on a terminal); nil fetches quietly.
	Progress func(repository string) io.Writer
	// Resolved, when set, keeps what git said about a tree's checkout
	// (commit, dirtiness) until something it depends on changes: for a
	// long-running reader (the MCP server). nil asks git every time.
	Resolved *sources.ResolveCache
}

// resolveDirectory resolves a tree's directory: branch, commit and
// dirtiness, from the cache when there is one.
func (e Env) resolveDirectory(ctx context.Context, dir string) (*sources.DirectoryResolution, error) {
	return e.Resolved.Resolve(ctx, e.Git, dir)
}

// ConfigLockWait is how the project configuration's lock is waited for.
func (e Env) ConfigLockWait() lock.Wait {
	return lock.Wait{Max: e.LockWait, Waiting: e.LockWaiting}
}

// HomeLock takes the named lock of the state directory (sessions,
// schedules, skills), telling LockWaiting who holds it when the wait
// lasts.
func (e Env) HomeLock(name, purpose string) (*lock.Lock, error) {
	return e.Home.LockWaiting(name, purpose, lock.Wait{Max: e.LockWait, Waiting: e.LockWaiting})
}

// Managed is the machine's git source maintenance.
func (e Env) Managed() *sources.Managed {
	return &sources.Managed{Home: e.Home, Git: e.Git, LockWait: e.LockWait, LockWaiting: e.LockWaiting, Progress: e.Progress}
}

// Abs resolves a user-supplied path against the command's directory.
func (e Env) Abs(p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(e.Dir, p)
}

// GitError is a command's error for a failed git call: a *contracts.Error
// passes through unchanged, any other error becomes CodeGit.
func GitError(err error) error {
	if err == nil {
		return nil
	}
	var ce *contracts.Error
	if errors.As(err, &ce) {
		return err
	}
	return contracts.Errorf(contracts.CodeGit, "%v", err)
}
