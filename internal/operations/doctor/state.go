package doctor

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/adapters/lock"
	"github.com/git-context-tree/git-context-tree/internal/adapters/state"
	"github.com/git-context-tree/git-context-tree/internal/operations"
	"github.com/git-context-tree/git-context-tree/internal/operations/session"
	"github.com/git-context-tree/git-context-tree/internal/sources"
)

// checkState reports the state directory: private permissions, locks left
// by processes that have exited, sessions that lost their parts, and the
// disk caches and snapshots use.
func checkState(ctx context.Context, env operations.Env, missing bool, r *doctorReport) {
	const area = "state"
	root := env.Home.Root
	if fi, err := os.Lstat(root); missing || errors.Is(err, fs.ErrNotExist) {
		r.ok(area, "state.permissions", root+" does not exist yet (nothing synced or written)")
		return
	} else if why := unusableRoot(fi, err); why != "" {
		r.fail(area, "state.permissions", root+" "+why+": every command that keeps state refuses it (STATE_INVALID)",
			"mv "+shellArg(root)+" "+shellArg(root+".old")+"  # or point "+state.HomeVar+" at a private directory", root)
		return
	}
	open := openPermissions(root)
	if len(open) > 0 {
		r.fail(area, "state.permissions", fmt.Sprintf("%d path(s) in %s can be read or written by other users (want directories 0700, files 0600)", len(open), root),
			"git context-tree doctor --fix  # or: chmod -R go-rwx "+shellArg(root), open...)
	} else {
		r.ok(area, "state.permissions", root+" is private to you (0700 directories, 0600 files)")
	}
	if stale := staleLocks(ctx, env); len(stale) > 0 {
		r.warn(area, "state.locks", fmt.Sprintf("%d lock(s) left by processes that have exited (the next command that needs them reclaims them)", len(stale)),
			"git context-tree doctor --fix", stale...)
	} else {
		r.ok(area, "state.locks", "no locks left by exited processes")
	}
	checkSessions(ctx, env, r)
	caches, snaps, worktrees := sources.DirSize(filepath.Join(root, "repos")), sources.DirSize(filepath.Join(root, "snapshots")), sources.DirSize(filepath.Join(root, "worktrees"))
	msg := fmt.Sprintf("caches %s, snapshots %s, session worktrees %s", operations.HumanBytes(caches), operations.HumanBytes(snaps), operations.HumanBytes(worktrees))
	if repos, err := env.Managed().CachedRepositories(); err == nil {
		n := 0
		for _, repo := range repos {
			n += env.Managed().SnapshotCount(repo)
		}
		if n > len(repos) {
			msg += fmt.Sprintf("; %d snapshots of %d repositories: `git context-tree gc` removes the old ones no session uses", n, len(repos))
		}
	}
	r.ok(area, "state.disk", msg)
}

// unusableRoot says why the state root cannot be used: the tool refuses a
// root that is a symlink or not a directory, and doctor --fix must not
// change the mode of whatever it is.
func unusableRoot(fi fs.FileInfo, err error) string {
	switch {
	case err != nil:
		return "cannot be read: " + err.Error()
	case fi.Mode()&fs.ModeSymlink != 0:
		return "is a symlink (the tool never follows symlinks in its state)"
	case !fi.IsDir():
		return "is not a directory"
	}
	return ""
}

// checkSessions reports sessions whose worktree or branch was removed by
// hand (their records stay until aborted or pruned) and records that
// cannot be read.
func checkSessions(ctx context.Context, env operations.Env, r *doctorReport) {
	list, err := session.List(ctx, env)
	if err != nil {
		r.warn("state", "state.sessions", "cannot read the session records: "+errorText(err), "git context-tree write list")
		return
	}
	broken := 0
	for _, s := range list.Sessions {
		if len(s.Missing) == 0 {
			continue
		}
		broken++
		if s.Status == contracts.StatusBroken {
			r.warn("state", "state.sessions", fmt.Sprintf("session %s (%s) is broken: its branch and its newest commit are gone from %s, so it cannot be finished; its files are kept", s.ID, s.Connection.Selector, s.Repository.CommonDir),
				"copy what you need from "+s.Worktree+", delete that folder, then git context-tree write prune", s.Worktree)
			continue
		}
		r.warn("state", "state.sessions", fmt.Sprintf("session %s (%s) has lost its %s", s.ID, s.Connection.Selector, strings.Join(s.Missing, " and ")),
			"git context-tree write abort "+s.ID, s.Worktree)
	}
	for _, u := range list.Unreadable {
		broken++
		fix := "repair " + u.Record + " by hand, or remove it"
		if u.Worktree != "" {
			fix += " (copy what you need from " + u.Worktree + " first, then remove that folder too)"
		}
		r.warn("state", "state.sessions", fmt.Sprintf("session %s cannot be read (%s): %s", u.ID, u.Error.Code, u.Error.Message), fix, u.Record)
	}
	if len(list.Unknown) > 0 {
		broken++
		r.warn("state", "state.sessions", fmt.Sprintf("%d folder(s) among the session worktrees that no session record names (they may hold an agent's edits), such as %s", len(list.Unknown), list.Unknown[0]),
			"git context-tree write prune --force  # removes those that hold nothing of their own; empty the others by hand", list.Unknown[0])
	}
	if broken == 0 {
		r.ok("state", "state.sessions", fmt.Sprintf("%d session(s), none missing its worktree or branch", len(list.Sessions)))
	}
}

// opaque says whether a state directory is a repository or a checkout the
// tool hands to git whole (a cache, a snapshot, a session worktree): git
// creates it and what it holds with the user's umask; the tool's private
// directories above it keep other users out.
func opaque(rel string) bool {
	segs := strings.Split(rel, string(filepath.Separator))
	switch segs[0] {
	case "repos":
		return len(segs) == 3
	case "snapshots":
		return len(segs) == 4
	case "worktrees":
		return len(segs) == 2
	}
	return false
}

// openPermissions lists state paths with any group or other permission.
func openPermissions(root string) []string {
	var open []string
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		if d.IsDir() && rel != "." && opaque(rel) {
			return filepath.SkipDir // git's; the private directory above guards it
		}
		fi, err := d.Info()
		if err != nil || fi.Mode()&fs.ModeSymlink != 0 {
			return nil
		}
		if fi.Mode().Perm()&0o077 != 0 {
			open = append(open, p)
		}
		return nil
	})
	return open
}

// staleLocks lists the tool's lock files whose owner has exited: the
// state's locks and the project's configuration lock.
func staleLocks(ctx context.Context, env operations.Env) []string {
	paths, _ := filepath.Glob(filepath.Join(env.Home.Root, "locks", "*.lock"))
	if p, err := sources.Discover(ctx, env.Git, env.Dir); err == nil && p.ConfigFile != "" {
		paths = append(paths, p.ConfigFile+".lock")
	}
	var stale []string
	for _, p := range paths {
		if _, err := os.Lstat(p); err != nil {
			continue
		}
		if _, dead := lock.Stale(p); dead {
			stale = append(stale, p)
		}
	}
	return stale
}

// doctorFix makes the safe, local repairs: removes group and other
// permissions in the state directory and reclaims stale locks. Nothing
// else is touched.
func doctorFix(ctx context.Context, env operations.Env) ([]contracts.DoctorFix, error) {
	fixed := []contracts.DoctorFix{}
	if fi, err := os.Lstat(env.Home.Root); err != nil || unusableRoot(fi, nil) != "" {
		return fixed, nil // nothing of ours to repair (a missing root, or a path that is not our directory)
	}
	for _, p := range openPermissions(env.Home.Root) {
		fi, err := os.Lstat(p)
		if err != nil {
			continue
		}
		mode := fi.Mode().Perm() &^ 0o077
		if err := os.Chmod(p, mode); err != nil {
			return fixed, contracts.Errorf(contracts.CodeIO, "cannot change the permissions of %s: %v", p, err)
		}
		fixed = append(fixed, contracts.DoctorFix{Check: "state.permissions", Action: fmt.Sprintf("chmod %04o", mode), Path: p})
	}
	for _, p := range staleLocks(ctx, env) {
		removed, err := lock.ReclaimStale(p)
		if err != nil {
			return fixed, err
		}
		if removed {
			fixed = append(fixed, contracts.DoctorFix{Check: "state.locks", Action: "removed stale lock", Path: p})
		}
	}
	return fixed, nil
}
