package sources

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/adapters/git"
	"github.com/git-context-tree/git-context-tree/internal/tree"
)

// Snapshot is a detached checkout of one commit of a repository, with the
// content root of one connection inside it.
type Snapshot struct {
	Repository string // lowercased owner/repo
	Branch     string
	Commit     string
	Cache      string // the bare cache
	Path       string // snapshots/<owner>/<repo>/<commit>
	TreeRoot   string // Path joined with the connection's subtree

	// What a sync saw, for its report.
	Previous     string    // the branch's cached commit before the sync ("" for none)
	ChangedFiles int       // files of the subtree that differ from Previous (-1 unknown)
	FetchedAt    time.Time // the branch's last successful fetch (zero unknown)
	FullClone    bool      // the cache was just cloned and the server refused the filter
	Rebuilt      bool      // the snapshot was damaged (edited, added to, replaced) and was rebuilt
	Discarded    []string  // with Rebuilt: its paths whose changes were thrown away
}

// snapshotPath is where the snapshot of a commit lives (its parent created).
// The path of a commit never changes, so it is stable across later syncs.
func (m *Managed) snapshotPath(repository, commit string) (string, error) {
	owner, name := splitRepository(repository)
	dir, err := m.Home.Dir("snapshots", owner, name)
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, commit), nil
}

// A snapshot is a plain checkout (see git.CheckoutPlain): the files of
// the directories it holds and nothing else, no .git of any kind, so git
// run inside it by an agent finds no repository of the tool's. Beside it,
// named after it and out of the agent's reach, the tool keeps the index
// git reads it through (<commit>.index, with the cache as git directory)
// and the directories it holds (<commit>.dirs, one per line; "." for the
// whole commit), written last: a snapshot without them is not intact.

// snapshotIndex and snapshotDirs are the records beside a snapshot.
func snapshotIndex(path string) string { return path + ".index" }
func snapshotDirs(path string) string  { return path + ".dirs" }

// snapshotTree is how git reaches the snapshot at path.
func snapshotTree(cache, path string) git.WorkTree {
	return git.WorkTree{GitDir: cache, Dir: path, Index: snapshotIndex(path)}
}

// readSnapshotDirs reads the directories a snapshot holds; ok is false
// when the record is missing, unreadable or reached through a symlink.
func (m *Managed) readSnapshotDirs(path string) (dirs []string, ok bool) {
	data, err := m.Home.ReadFile(snapshotDirs(path))
	if err != nil {
		return nil, false
	}
	for _, line := range strings.Split(string(data), "\n") {
		if line != "" {
			dirs = append(dirs, line)
		}
	}
	return dirs, len(dirs) > 0
}

// writeSnapshotDirs records the directories a snapshot holds.
func (m *Managed) writeSnapshotDirs(path string, dirs []string) error {
	if err := m.Home.WriteFile(filepath.Dir(path), filepath.Base(snapshotDirs(path)), []byte(strings.Join(dirs, "\n")+"\n")); err != nil {
		return contracts.Errorf(contracts.CodeIO, "cannot record the directories of snapshot %s: %v", path, err)
	}
	return nil
}

// snapshotState says whether the directory at path is an intact snapshot
// of commit from cache: a plain checkout with its records beside it, its
// index holding commit's tree (its identity: another commit's files and
// index put in its place are not it), and nothing changed, added or
// ignored, inside the directories it holds or outside them (a .git put
// there by anyone included). dirs are the
// directories it holds (["."] for the whole commit). A symlink is never
// followed. A snapshot made by an earlier version (a worktree of the
// cache) has no record of its directories and is not intact.
func (m *Managed) snapshotState(ctx context.Context, path, cache, commit string) (exists, intact bool, dirs []string) {
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return false, false, nil
	}
	if err != nil || fi.Mode()&fs.ModeSymlink != 0 || !fi.IsDir() {
		return true, false, nil
	}
	// git never lists a .git as untracked: one put here would make the
	// snapshot a repository for git run inside it.
	if _, err := os.Lstat(filepath.Join(path, ".git")); !errors.Is(err, fs.ErrNotExist) {
		return true, false, nil
	}
	dirs, ok := m.readSnapshotDirs(path)
	if !ok {
		return true, false, nil
	}
	if ix, err := os.Lstat(snapshotIndex(path)); err != nil || !ix.Mode().IsRegular() {
		return true, false, nil
	}
	// Identity beside cleanliness, in parallel: the files are compared
	// with the index, and the index with the commit.
	identity := make(chan bool, 1)
	go func() {
		same, err := m.Git.IndexHolds(ctx, snapshotTree(cache, path), commit)
		identity <- err == nil && same
	}()
	pending, err := m.Git.Pending(ctx, snapshotTree(cache, path))
	if same := <-identity; !same || err != nil || len(pending) > 0 {
		return true, false, dirs
	}
	if covers(dirs, []string{"."}) {
		return true, true, dirs
	}
	// git looks at no path its index marks skip-worktree: a file put
	// there (or one of the commit's, restored by hand) is found here.
	stray, err := StrayOutside(path, dirs)
	return true, err == nil && len(stray) == 0, dirs
}

// ensureSnapshot returns the snapshot of commit holding at least the
// directories want, building it when missing, widening it in place when
// it lacks one, and rebuilding it when it was tampered with: a new one is
// made in a staging path and swapped in, so the canonical path never holds
// a half-made checkout. A new snapshot also holds the directories of the
// snapshot of carry (the branch's previous commit), so that a subtree that
// another project declared stays readable after this project's sync.
// Offline, blobs not in the cache fail it with CACHE_MISSING.
func (m *Managed) ensureSnapshot(ctx context.Context, cache, repository, commit string, want []string, carry string, offline bool) (string, error) {
	path, _, err := m.ensureSnapshotRebuilt(ctx, cache, repository, commit, want, carry, offline)
	return path, err
}

// rebuild says whether ensureSnapshotRebuilt replaced a damaged snapshot
// and which of its files differed from the commit (their changes are gone).
type rebuild struct {
	done      bool
	discarded []string
}

// changedPaths lists what differs in a plain snapshot from its commit,
// for the warning when it is replaced; nothing for one that cannot be
// read that way (a symlink, an earlier version's worktree).
func (m *Managed) changedPaths(ctx context.Context, cache, path string) []string {
	if fi, err := os.Lstat(path); err != nil || !fi.IsDir() {
		return nil
	}
	if _, ok := m.readSnapshotDirs(path); !ok {
		return nil
	}
	pending, _ := m.Git.Pending(ctx, snapshotTree(cache, path))
	return pending
}

// ensureSnapshotRebuilt is ensureSnapshot also saying whether a damaged
// snapshot was replaced.
func (m *Managed) ensureSnapshotRebuilt(ctx context.Context, cache, repository, commit string, want []string, carry string, offline bool) (path string, r rebuild, err error) {
	path, err = m.snapshotPath(repository, commit)
	if err != nil {
		return "", r, err
	}
	exists, intact, have := m.snapshotState(ctx, path, cache, commit)
	if intact && covers(have, want) {
		return path, r, nil
	}
	if intact && !covers(want, []string{"."}) && !covers(have, []string{"."}) {
		dirs := normaliseDirs(append(slices.Clone(have), want...))
		if err := m.fetchBlobs(ctx, cache, repository, commit, dirs, offline); err != nil {
			return "", r, err
		}
		err := m.Git.WidenPlain(ctx, snapshotTree(cache, path), dirs)
		m.sealSnapshot(ctx, cache, path)
		if err != nil {
			return "", r, gitError(err)
		}
		privateIndex(path)
		return path, r, m.writeSnapshotDirs(path, dirs)
	}
	dirs := append(slices.Clone(want), m.carriedDirs(repository, commit, carry)...)
	if intact {
		dirs = append(dirs, have...)
	}
	dirs = normaliseDirs(dirs)
	if covers(dirs, []string{"."}) {
		dirs = []string{"."}
	}
	if err := m.fetchBlobs(ctx, cache, repository, commit, dirs, offline); err != nil {
		return "", r, err
	}
	dir := filepath.Dir(path)
	staging, err := os.MkdirTemp(dir, ".staging-"+commit+"-")
	if err != nil {
		return "", r, contracts.Errorf(contracts.CodeIO, "cannot create a staging directory in %s: %v", dir, err)
	}
	// The staging index is named after the staging directory, so the
	// leftovers of a killed run go with it.
	if err := m.Git.CheckoutPlain(ctx, snapshotTree(cache, staging), commit, dirs); err != nil {
		removeStaging(staging)
		return "", r, gitError(err)
	}
	privateIndex(staging)
	if exists {
		r.done, r.discarded = !intact, m.changedPaths(ctx, cache, path)
	}
	// The records go first: a snapshot without them is never intact.
	os.Remove(snapshotDirs(path))
	if exists {
		if err := m.discard(ctx, cache, path, dir); err != nil {
			removeStaging(staging)
			return "", r, err
		}
	}
	if err := os.Rename(snapshotIndex(staging), snapshotIndex(path)); err != nil {
		removeStaging(staging)
		return "", r, contracts.Errorf(contracts.CodeIO, "cannot move the index of the rebuilt snapshot into place: %v", err)
	}
	if err := os.Rename(staging, path); err != nil {
		removeStaging(staging)
		return "", r, contracts.Errorf(contracts.CodeSnapshotCorrupt, "cannot move the rebuilt snapshot into %s: %v", path, err)
	}
	m.sealSnapshot(ctx, cache, path)
	return path, r, m.writeSnapshotDirs(path, dirs)
}

// privateIndex makes a snapshot's index private, as all of the tool's
// state is (git writes an index readable by all). Failing leaves it for
// doctor to report.
func privateIndex(path string) { _ = os.Chmod(snapshotIndex(path), 0o600) }

// removeStaging deletes a staging checkout and its index.
func removeStaging(staging string) {
	os.RemoveAll(staging)
	os.Remove(snapshotIndex(staging))
}

// carriedDirs are the directories of the snapshot of the commit the
// branch was at before (none when it is a whole checkout: a whole
// snapshot is not carried whole).
func (m *Managed) carriedDirs(repository, commit, carry string) []string {
	if carry == "" || carry == commit {
		return nil
	}
	path, err := m.snapshotPath(repository, carry)
	if err != nil {
		return nil
	}
	dirs, ok := m.readSnapshotDirs(path)
	if !ok || covers(dirs, []string{"."}) {
		return nil
	}
	return dirs
}

// discard moves a damaged snapshot (or a symlink standing in for one) out
// of the canonical path and deletes it. A symlink is removed itself; its
// target is never touched.
func (m *Managed) discard(ctx context.Context, cache, path, dir string) error {
	trash, err := os.MkdirTemp(dir, ".trash-")
	if err != nil {
		return contracts.Errorf(contracts.CodeIO, "cannot create %s: %v", dir, err)
	}
	aside := filepath.Join(trash, "snapshot")
	_, gitErr := os.Lstat(filepath.Join(path, ".git"))
	if err := os.Rename(path, aside); err != nil {
		return contracts.Errorf(contracts.CodeSnapshotCorrupt, "snapshot %s is damaged and cannot be moved aside: %v", path, err)
	}
	if err := os.RemoveAll(trash); err != nil {
		return contracts.Errorf(contracts.CodeIO, "cannot delete damaged snapshot %s: %v", aside, err)
	}
	if gitErr != nil {
		return nil
	}
	// Snapshots made by earlier versions were worktrees of the cache:
	// drop git's record of one (a .git put in a snapshot by hand only
	// makes this prune find nothing).
	return gitError(m.Git.WorktreePrune(ctx, cache))
}

// removeBrokenWorktreeRecords deletes the records (worktrees/<id> in the
// cache, gitrepository-layout(5)) of worktrees whose creation was killed:
// a record without its gitdir file, or one for a staging or trash
// directory. git itself cannot list a repository with such a record, and
// `worktree prune` skips it while `worktree add` has it locked. Callers
// hold the repository lock, which every worktree creation in a cache takes.
func removeBrokenWorktreeRecords(cache string) int {
	n := 0
	admin := filepath.Join(cache, "worktrees")
	entries, _ := os.ReadDir(admin)
	for _, e := range entries {
		rec := filepath.Join(admin, e.Name())
		gitdir, err := os.ReadFile(filepath.Join(rec, "gitdir"))
		base := filepath.Base(filepath.Dir(strings.TrimSpace(string(gitdir))))
		if err != nil || len(strings.TrimSpace(string(gitdir))) == 0 ||
			strings.HasPrefix(base, ".staging-") || strings.HasPrefix(base, ".trash-") {
			os.RemoveAll(rec)
			n++
		}
	}
	return n
}

// removeLeftoverWorktrees deletes the staging and trash directories an
// interrupted run left among a repository's snapshots, and git's records of
// them. The caller holds the repository lock.
func (m *Managed) removeLeftoverWorktrees(ctx context.Context, cache, repository string) error {
	owner, name := splitRepository(repository)
	dir, err := m.Home.Dir("snapshots", owner, name)
	if err != nil {
		return err
	}
	removed := removeBrokenWorktreeRecords(cache)
	removed += m.removeLeftovers(dir, ".staging-")
	removed += m.removeLeftovers(dir, ".trash-")
	if removed == 0 {
		return nil // nothing left over: spare the git call
	}
	return gitError(m.Git.WorktreePrune(ctx, cache))
}

// Resolution is directory resolution of a snapshot's tree: its commit,
// detached, and clean (a snapshot is only handed out intact), with the
// branch it was taken from (S7: the source's declared branch). A snapshot
// has no .git, so git cannot be asked.
func (s *Snapshot) Resolution() *DirectoryResolution {
	subtree, _ := tree.Inside(s.Path, s.TreeRoot)
	return &DirectoryResolution{ContentRoot: s.TreeRoot, RepositoryRoot: s.Path, Subtree: filepath.ToSlash(subtree),
		Branch: s.Branch, Detached: true, Head: s.Commit}
}
