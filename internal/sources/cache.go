package sources

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/adapters/git"
	"github.com/git-context-tree/git-context-tree/internal/adapters/lock"
	"github.com/git-context-tree/git-context-tree/internal/adapters/state"
	"github.com/git-context-tree/git-context-tree/internal/redact"
)

// Managed maintains git sources on this machine (S8): one bare cache per
// repository under repos/<owner>/<repo>.git, shared by every subtree and
// branch of it, and detached snapshots keyed by repository and commit under
// snapshots/<owner>/<repo>/<commit>.
type Managed struct {
	Home *state.Home
	Git  *git.Git
	// LockWait is how long to wait for another process's work on the
	// same repository.
	LockWait time.Duration
	// LockWaiting, when set, is told who holds a repository's lock when
	// the wait for it lasts (lock.Wait).
	LockWaiting func(lock.Holder)
	// Progress, when set, returns where git's progress for a repository's
	// fetches goes (a terminal); nil fetches quietly.
	Progress func(repository string) io.Writer
}

func (m *Managed) progress(repository string) io.Writer {
	if m.Progress == nil {
		return nil
	}
	return m.Progress(repository)
}

// OriginURL is the stored identity of a repository's cache: what
// remote.origin.url must say, before any insteadOf rewrite (S9).
func OriginURL(repository string) string {
	return "https://github.com/" + strings.ToLower(repository) + ".git"
}

// cacheRef is where a cache keeps the fetched tip of a branch.
func cacheRef(branch string) string { return "refs/remotes/origin/" + branch }

// CacheRef is the ref of a cache holding the fetched tip of branch.
func CacheRef(branch string) string { return cacheRef(branch) }

func splitRepository(repository string) (owner, name string) {
	owner, name, _ = strings.Cut(strings.ToLower(repository), "/")
	return owner, name
}

// LockRepository serialises cache and snapshot work on one repository
// (and any update of its remote-tracking refs). An owner never contains a
// dot, so "owner.name" cannot collide.
func (m *Managed) LockRepository(repository string) (func(), error) {
	owner, name := splitRepository(repository)
	l, err := m.Home.LockWaiting("repo."+owner+"."+name, "git-context-tree sync of "+owner+"/"+name, lock.Wait{Max: m.LockWait, Waiting: m.LockWaiting})
	if err != nil {
		return nil, err
	}
	return func() { l.Release() }, nil
}

// cachePath is the canonical cache of a repository (its parent created).
func (m *Managed) cachePath(repository string) (string, error) {
	owner, name := splitRepository(repository)
	dir, err := m.Home.Dir("repos", owner)
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, name+".git"), nil
}

// openCache returns the existing cache of a repository after checking its
// stored origin, or "" when there is none yet.
func (m *Managed) openCache(ctx context.Context, repository string) (string, error) {
	path, _, err := m.openCacheKind(ctx, repository)
	return path, err
}

// openCacheKind is openCache also saying whether the cache is partial.
func (m *Managed) openCacheKind(ctx context.Context, repository string) (path string, partial bool, err error) {
	path, err = m.cachePath(repository)
	if err != nil {
		return "", false, err
	}
	fi, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", false, nil
	case err != nil:
		return "", false, contracts.Errorf(contracts.CodeIO, "cannot read cache %s: %v", path, err)
	case fi.Mode()&fs.ModeSymlink != 0 || !fi.IsDir():
		return "", false, contracts.Errorf(contracts.CodeStateInvalid, "cache %s is not a directory (a symlink or file replaced it); remove it and sync again", path).
			WithDetails(map[string]any{"path": path})
	}
	if partial, err = m.checkOrigin(ctx, path, repository); err != nil {
		return "", false, err
	}
	return path, partial, nil
}

// checkOrigin compares the cache's locally stored origin URL with the
// repository identity, and refuses a cache whose own configuration holds
// anything the tool did not write: a push URL, an insteadOf rewrite or a
// fetch refspec there (set by git run in a snapshot, say) would send sync
// and publication elsewhere while the origin still looked right. Host
// insteadOf rewrites (the user's configuration) do apply, by design (S9).
//
// partial reports a partial cache: its promisor settings are exactly the
// ones createCache writes.
func (m *Managed) checkOrigin(ctx context.Context, cache, repository string) (partial bool, err error) {
	entries, err := m.Git.LocalConfig(ctx, cache)
	if err != nil {
		return false, contracts.Errorf(contracts.CodeStateInvalid, "cache %s is not a usable git repository: %v", cache, err)
	}
	want := OriginURL(repository)
	url, foreign := "", ""
	promisor := map[string]bool{}
	for _, e := range entries {
		switch key := strings.ToLower(e[0]); {
		case key == "remote.origin.url" && url == "":
			url = e[1]
		case cacheConfigKeys[key]:
		case partialConfig[key] != "" && partialConfig[key] == e[1] && !promisor[key]:
			promisor[key] = true
		default:
			foreign = e[0]
		}
	}
	if url != want {
		return false, contracts.Errorf(contracts.CodeOriginMismatch,
			"cache %s has origin %q, not %s; it is not used (remove it to let sync clone afresh)", cache, redact.String(url), want).
			WithDetails(map[string]any{"cache": cache, "origin": redact.String(url), "expected": want})
	}
	if foreign != "" {
		return false, contracts.Errorf(contracts.CodeOriginMismatch,
			"cache %s has configuration %s that git-context-tree never writes; it is not used (remove it to let sync clone afresh)", cache, foreign).
			WithDetails(map[string]any{"cache": cache, "key": foreign, "expected": want})
	}
	return len(promisor) == len(partialConfig), nil
}

// CheckCache is checkOrigin for callers outside sources (publication).
func (m *Managed) CheckCache(ctx context.Context, cache, repository string) error {
	_, err := m.checkOrigin(ctx, cache, repository)
	return err
}

// cacheConfigKeys are the keys a cache's own configuration may hold
// besides its origin URL: what git init writes on any platform.
var cacheConfigKeys = map[string]bool{
	"core.repositoryformatversion": true, "core.filemode": true, "core.bare": true,
	"core.ignorecase": true, "core.precomposeunicode": true, "core.symlinks": true,
	"core.logallrefupdates": true, "extensions.objectformat": true,
}

// partialConfig is what makes a cache a partial clone of its origin
// (gitpartial-clone(7)), key and exact value; createCache writes it, and
// removes it again when the server sent every object anyway.
var partialConfig = map[string]string{
	"remote.origin.promisor":           "true",
	"remote.origin.partialclonefilter": git.PartialFilter,
}

// createCache clones a new cache: a bare repository made in a staging
// directory, fetched, and renamed into place only when complete, so an
// interrupted clone never leaves a canonical cache. The cache is a partial
// clone (no blobs until a snapshot asks for them); full reports that the
// server refused the filter and sent everything.
func (m *Managed) createCache(ctx context.Context, repository, branch string) (path string, full bool, err error) {
	path, err = m.cachePath(repository)
	if err != nil {
		return "", false, err
	}
	dir := filepath.Dir(path)
	m.removeLeftovers(dir, ".staging-"+filepath.Base(path)+"-")
	staging, err := os.MkdirTemp(dir, ".staging-"+filepath.Base(path)+"-")
	if err != nil {
		return "", false, contracts.Errorf(contracts.CodeIO, "cannot create a staging directory in %s: %v", dir, err)
	}
	fail := func(err error) (string, bool, error) {
		os.RemoveAll(staging)
		return "", false, err
	}
	if err := m.Git.InitBare(ctx, staging); err != nil {
		return fail(gitError(err))
	}
	if err := m.Git.ConfigSet(ctx, staging, "remote.origin.url", OriginURL(repository)); err != nil {
		return fail(gitError(err))
	}
	for _, key := range []string{"remote.origin.promisor", "remote.origin.partialclonefilter"} {
		if err := m.Git.ConfigSet(ctx, staging, key, partialConfig[key]); err != nil {
			return fail(gitError(err))
		}
	}
	if err := m.fetch(ctx, staging, repository, branch, true); err != nil {
		return fail(err)
	}
	// A server that does not support filters ignores them and sends every
	// object (git warns, and exits 0): the tip's tree is then complete. The
	// cache becomes an ordinary one, so later fetches ask for no filter.
	tip, err := m.Git.ResolveCommit(ctx, staging, cacheRef(branch))
	if err != nil {
		return fail(gitError(err))
	}
	full = false
	if tip != "" {
		partial, err := m.Git.HasMissingObjects(ctx, staging, tip)
		if err != nil {
			return fail(gitError(err))
		}
		if !partial {
			full = true
			for key := range partialConfig {
				if err := m.Git.UnsetConfig(ctx, staging, key); err != nil {
					return fail(gitError(err))
				}
			}
		}
	}
	if err := os.Rename(staging, path); err != nil {
		return fail(contracts.Errorf(contracts.CodeIO, "cannot move the new cache into place: %v", err))
	}
	return path, full, nil
}

// fetch fetches exactly the declared branch into the cache (without blobs
// into a partial cache), telling a missing branch from an unreachable
// repository by ls-remote's exit code. The caller holds the repository
// lock.
func (m *Managed) fetch(ctx context.Context, cache, repository, branch string, partial bool) error {
	removeStaleRefLocks(cache, branch)
	opt := git.FetchOptions{Progress: m.progress(repository)}
	if partial {
		opt.Filter = git.PartialFilter
	}
	err := m.Git.FetchBranch(ctx, cache, "origin", branch, cacheRef(branch), opt)
	if err == nil {
		return nil
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	has, lsErr := m.Git.RemoteHasBranch(ctx, cache, "origin", branch)
	if lsErr == nil && !has {
		return contracts.Errorf(contracts.CodeBranchNotFound, "%s has no branch %q", repository, branch).
			WithDetails(map[string]any{"repository": repository, "branch": branch})
	}
	return contracts.Errorf(contracts.CodeFetchFailed, "cannot fetch %s branch %q: %s", repository, branch, redact.String(git.Summary(err))).
		WithDetails(map[string]any{"repository": repository, "branch": branch})
}

// removeStaleRefLocks deletes the ref lock files a killed fetch can leave
// in a cache. Only git-context-tree writes these refs, always under the
// repository lock the caller holds, so any such file is abandoned.
func removeStaleRefLocks(cache, branch string) {
	for _, name := range []string{
		filepath.Join(cache, filepath.FromSlash(cacheRef(branch))+".lock"),
		filepath.Join(cache, "packed-refs.lock"),
		filepath.Join(cache, "shallow.lock"),
		filepath.Join(cache, "config.lock"),
	} {
		os.Remove(name)
	}
}

// removeLeftovers deletes staging directories an interrupted run left in dir.
// It reports how many it removed.
func (m *Managed) removeLeftovers(dir, prefix string) int {
	n := 0
	entries, _ := m.Home.ReadDir(dir)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), prefix) {
			os.RemoveAll(filepath.Join(dir, e.Name()))
			n++
		}
	}
	return n
}

func describeSource(c Connection) string {
	return fmt.Sprintf("%s (branch %s, path %s)", strings.ToLower(c.Source.Repository), c.Source.Ref, c.Source.Path)
}
