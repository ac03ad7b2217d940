package session

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/adapters/git"
	"github.com/git-context-tree/git-context-tree/internal/operations"
)

// DefaultGrace is how long prune leaves a session with no work alone after
// it was opened or last touched: an agent that opened it a moment ago has
// not written yet.
const DefaultGrace = 24 * time.Hour

// PruneRequest is what `write prune` was asked to do.
type PruneRequest struct {
	// Grace keeps a session with no work opened or touched more recently.
	Grace time.Duration
	// Force also removes the folders among the session worktrees that no
	// record knows and that hold nothing of their own (see unknown.go).
	Force bool
	// Now is the time the grace is measured to (zero: the clock).
	Now time.Time
}

// Prune removes every session whose work is safe: published or merged
// with nothing edited since, or holding no work at all and untouched for
// the grace period. Their worktrees, branches and records go; every
// other session is kept and reported with what moves it on (S14: work is
// never discarded by the CLI). What a session holds is judged by Inspect,
// as finish and abort judge it. Parts removed by hand are fine. A session
// in use (its lock held) is kept.
func Prune(ctx context.Context, env operations.Env, req PruneRequest) (*contracts.SessionPrune, error) {
	if req.Now.IsZero() {
		req.Now = time.Now()
	}
	ids, err := listSessionIDs(env)
	if err != nil {
		return nil, err
	}
	res := &contracts.SessionPrune{SchemaVersion: contracts.CLIVersion, Removed: []*contracts.Session{}, Kept: []contracts.SessionKept{}}
	for _, id := range ids {
		// A record that cannot be read keeps its session, named for the
		// user to repair or remove; the others are pruned.
		s, err := loadListed(env, id, &res.Unreadable)
		if err != nil {
			return nil, err
		}
		if s == nil {
			continue
		}
		why, err := pruneOne(ctx, env, s, req)
		if err != nil {
			return nil, err
		}
		if why != "" {
			res.Kept = append(res.Kept, contracts.SessionKept{ID: s.ID, Status: s.Status, Reason: why})
		} else {
			res.Removed = append(res.Removed, s)
		}
	}
	unknown, err := unknownWorktrees(env, ids)
	if err != nil {
		return nil, err
	}
	for _, dir := range unknown {
		why, err := pruneUnknown(ctx, env, dir, req.Force)
		switch {
		case err != nil:
			return nil, err
		case why == "" && req.Force:
			res.UnknownRemoved = append(res.UnknownRemoved, dir)
		case why != "":
			res.Unknown = append(res.Unknown, dir)
			res.UnknownKept = append(res.UnknownKept, contracts.SessionUnknown{Worktree: dir, Reason: why})
		}
	}
	return res, nil
}

// pruneOne removes one session if its work is safe, or says why not.
func pruneOne(ctx context.Context, env operations.Env, s *contracts.Session, req PruneRequest) (string, error) {
	unlock, err := lockSession(env, s.ID)
	var ce *contracts.Error
	if errors.As(err, &ce) && ce.Code == contracts.CodeLockHeld {
		describe(ctx, env, s)
		return "another git-context-tree command is using it", nil
	}
	if err != nil {
		return "", err
	}
	defer unlock()
	clearStaleRefLocks(s)
	describe(ctx, env, s)
	// A session whose .git reaches beyond it is kept, whatever its state,
	// for the user to look at (SESSION_TAMPERED names what and where).
	if gd, err := os.Lstat(sessionGitDir(s)); err == nil && gd.IsDir() {
		if err := checkSessionRepo(ctx, env, s); err != nil {
			return string(contracts.CodeSessionTampered) + ": " + err.Error(), nil
		}
	}
	switch s.Status {
	case contracts.StatusPublished, contracts.StatusMerged, contracts.StatusOpen:
	case contracts.StatusBroken:
		if _, err := os.Lstat(s.Worktree); err == nil {
			return "it is broken (its branch and newest commit are gone from " + s.Repository.CommonDir + "): copy what you need from " + s.Worktree + ", delete that folder, then prune again", nil
		}
		return "", deleteSession(env, s.ID)
	default:
		return holdsWork(s), nil
	}
	if s.Update != nil {
		return "an update is in progress: `git context-tree write update --continue " + s.ID + "` or `--abort`", nil
	}
	if why, err := sessionWork(ctx, env, s); err != nil || why != "" {
		return why, err
	}
	if _, err := os.Lstat(s.Worktree); err == nil && s.Status == contracts.StatusOpen {
		if at := lastTouched(s); req.Now.Sub(at) < req.Grace {
			return fmt.Sprintf("it holds no work yet but was opened or touched %s ago, within the grace period of %s (`write prune --grace` changes it)",
				req.Now.Sub(at).Round(time.Second), req.Grace), nil
		}
	}
	if err := removeSessionParts(ctx, env, s); err != nil {
		return "", err
	}
	if err := deleteSession(env, s.ID); err != nil {
		return "", err
	}
	return "", nil
}

// sessionWork says what a session holds that removing it would lose: a
// commit on its branch that finish did not record, or files that differ
// from its last commit (from its base when it has none), inside its tree
// or outside, ignored ones and nested repositories included; "" when it
// holds nothing. A session whose .git reaches beyond it is kept too.
func sessionWork(ctx context.Context, env operations.Env, s *contracts.Session) (string, error) {
	if s.Commit == "" {
		tip, err := env.Git.ResolveCommit(ctx, s.Repository.CommonDir, homeRef(s))
		if err != nil {
			return "", operations.GitError(err)
		}
		if tip != "" && tip != s.Base {
			return "its branch " + s.Branch + " has a commit: run `git context-tree write finish " + s.ID + "`", nil
		}
	}
	last := s.Base
	if s.Commit != "" {
		last = s.Commit
	}
	head := last
	if h, _, err := git.ReadHead(sessionGitDir(s)); err == nil && h == s.Base {
		head = s.Base // a finish killed before it settled the session
	}
	ins, err := Inspect(ctx, env, s, InspectOptions{Head: head})
	if err != nil {
		var ce *contracts.Error
		if errors.As(err, &ce) && ce.Code == contracts.CodeSessionStale && removedWorktreeOnly(s) == nil {
			return "", nil // the worktree was removed by hand: nothing is left in it
		}
		return "it cannot be judged empty: " + err.Error(), nil
	}
	defer ins.Close()
	lastTree, err := env.Git.ResolveTree(ctx, s.Repository.CommonDir, last)
	if err != nil {
		return "", operations.GitError(err)
	}
	if ins.Tree == lastTree && ins.Nested == "" && len(ins.Ignored) == 0 && len(ins.Outside) == 0 {
		return "", nil
	}
	if s.Commit != "" {
		return "it has edits made after its commit (" + describeWork(ins) + "): open a new session for them, or remove them and prune again", nil
	}
	return "it has edits (" + describeWork(ins) + "): run `git context-tree write finish " + s.ID + "`, or remove them and abort it", nil
}

// lastTouched is when the session was opened or anything in its work tree
// (its .git's HEAD and index included) last changed, whichever is later.
func lastTouched(s *contracts.Session) time.Time {
	at, _ := time.Parse(time.RFC3339, s.CreatedAt)
	newer := func(t time.Time) {
		if t.After(at) {
			at = t
		}
	}
	for _, p := range []string{filepath.Join(sessionGitDir(s), "HEAD"), filepath.Join(sessionGitDir(s), "index")} {
		if fi, err := os.Lstat(p); err == nil {
			newer(fi.ModTime())
		}
	}
	filepath.WalkDir(s.Worktree, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() && p == sessionGitDir(s) {
			return filepath.SkipDir
		}
		if fi, err := d.Info(); err == nil {
			newer(fi.ModTime())
		}
		return nil
	})
	return at
}

// holdsWork says what to do with a committed session whose commit exists
// only on its own branch.
func holdsWork(s *contracts.Session) string {
	switch {
	case s.Status == contracts.StatusRejected:
		return "its publication was refused because " + s.TargetBranch + " moved on; its commit " + s.Commit + " is only on " + s.Branch
	case s.Repository.Kind == contracts.SourceGit:
		return "its commit " + s.Commit + " is not published: run `git context-tree write finish --publish " + s.ID + "`"
	default:
		return "its commit " + s.Commit + " is only on branch " + s.Branch + ": merge it into " + orNone(s.TargetBranch) + ", then prune again"
	}
}
