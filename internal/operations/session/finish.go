package session

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/adapters/git"
	"github.com/git-context-tree/git-context-tree/internal/adapters/state"
	"github.com/git-context-tree/git-context-tree/internal/operations"
	"github.com/git-context-tree/git-context-tree/internal/redact"
	"github.com/git-context-tree/git-context-tree/internal/tree"
)

// FinishRequest is what `write finish` was asked to do.
type FinishRequest struct {
	ID             string
	Message        string
	Publish        bool
	IncludeIgnored bool
	// IncludeHidden commits new hidden or infrastructure files in the tree.
	IncludeHidden bool
	// Keep keeps a published session's worktree and branch.
	Keep bool
	// AllowSecretMessage commits a message the secret rules match.
	AllowSecretMessage bool
}

// sessionTrailer marks the commits finish makes, so a finish interrupted
// after committing recognises its own commit when run again.
const sessionTrailer = "Context-Tree-Session: "

// Finish completes a write session (S13, S14). It checks the pinned source
// and repository and the session's branch and HEAD; then it builds a tree
// object from the session's files through its private index, into a
// quarantine beside the home repository's objects, refuses any difference
// from the base outside the subtree (compared as tree objects), ignored
// files, symlinks and nested repositories, blobs over the session bounds,
// verifies the subtree's staged blobs, and only then moves the objects in
// and commits exactly that tree on the base with plumbing.
// With Publish it pushes the commit to the pinned branch without force.
// Every failure keeps the session and its work.
func Finish(ctx context.Context, env operations.Env, req FinishRequest) (*contracts.SessionResult, error) {
	if req.Message != "" && !req.AllowSecretMessage && redact.String(req.Message) != req.Message {
		// A commit message is published with the commit, past every
		// redacting output: refuse it rather than publish a secret.
		return nil, contracts.Errorf(contracts.CodeMessageSecret, "the commit message holds what looks like a secret (%s); nothing was committed: write another message, or pass --allow-secret-message if it is not one",
			redact.String(req.Message))
	}
	s, unlock, err := openSession(ctx, env, req.ID, func(s *contracts.Session) error {
		if req.Publish && s.Repository.Kind != contracts.SourceGit {
			return contracts.Errorf(contracts.CodePublishUnsupported,
				"only git sources are published; %s is a directory source: its commit %s stays on branch %s for you to merge",
				s.Connection.Exact, orNone(s.Commit), s.Branch).WithDetails(map[string]any{"session": s.ID})
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	defer unlock()
	if s.Update != nil {
		return nil, updateInProgress(s)
	}
	var paths []string
	reused := false
	switch s.State {
	case contracts.SessionOpen:
		res, err := commitSession(ctx, env, s, req)
		if err != nil || res.Result == contracts.ResultUnchanged {
			return res, err
		}
		paths, reused = res.Paths, res.MessageReused
	case contracts.SessionPublished:
		return finishPublished(ctx, env, s, req)
	default:
		if err := checkCommittedSession(ctx, env, s); err != nil {
			return nil, err
		}
		if paths, err = committedPaths(ctx, env, s); err != nil {
			return nil, err
		}
	}
	if !req.Publish {
		res := sessionResult(s, s.State)
		res.Paths, res.MessageReused = paths, reused
		return res, nil
	}
	if err := publish(ctx, env, s); err != nil {
		return nil, err
	}
	res := sessionResult(s, contracts.ResultPublished)
	res.Paths, res.MessageReused = paths, reused
	if req.Keep {
		return res, nil
	}
	if err := closeSession(ctx, env, s); err != nil {
		return nil, err
	}
	res.Closed = true
	return res, nil
}

// finishPublished reports a session already published; with --publish
// and without --keep it closes the session, completing a close that was
// interrupted.
func finishPublished(ctx context.Context, env operations.Env, s *contracts.Session, req FinishRequest) (*contracts.SessionResult, error) {
	paths, err := committedPaths(ctx, env, s)
	if err != nil {
		return nil, err
	}
	res := sessionResult(s, contracts.ResultPublished)
	res.Paths = paths
	if !req.Publish || req.Keep || s.ClosedAt != "" {
		return res, nil
	}
	if err := closeSession(ctx, env, s); err != nil {
		return nil, err
	}
	res.Closed = true
	return res, nil
}

// committedPaths lists the paths the session's commit changes.
func committedPaths(ctx context.Context, env operations.Env, s *contracts.Session) ([]string, error) {
	changes, err := env.Git.DiffTrees(ctx, s.Repository.CommonDir, s.Base, s.Commit, true)
	if err != nil {
		return nil, operations.GitError(err)
	}
	return changedPaths(changes), nil
}

func changedPaths(changes []git.TreeChange) []string {
	paths := make([]string, len(changes))
	for i, c := range changes {
		paths[i] = c.Path
	}
	return paths
}

func sessionResult(s *contracts.Session, result string) *contracts.SessionResult {
	s.Head = s.Base
	if s.Commit != "" {
		s.Head = s.Commit
	}
	return &contracts.SessionResult{SchemaVersion: contracts.CLIVersion, Session: s, Result: result, Commit: s.Commit}
}

// commitSession inspects the open session and makes its commit.
func commitSession(ctx context.Context, env operations.Env, s *contracts.Session, req FinishRequest) (*contracts.SessionResult, error) {
	ins, err := Inspect(ctx, env, s, InspectOptions{IncludeIgnored: req.IncludeIgnored})
	if err != nil {
		return nil, err
	}
	defer ins.Close()
	if err := finishRules(ctx, env, s, ins, req); err != nil {
		return nil, err
	}
	branch, baseTree, err := resolveHome(ctx, env, ins.objects, s)
	if err != nil {
		return nil, err
	}
	messageReused := false
	if branch != s.Base {
		// Only the tool moves the session branch of the home repository:
		// a finish was interrupted after committing. Its commit is adopted
		// only if it is exactly what was just verified.
		if err := adoptCommit(ctx, env, s, branch, ins.Tree); err != nil {
			return nil, err
		}
	} else {
		if ins.Tree == baseTree {
			return sessionResult(s, contracts.ResultUnchanged), nil
		}
		message, reused := req.Message, false
		if strings.TrimSpace(message) == "" && s.Message != "" {
			message, reused = s.Message, true
		}
		// Every check passed on exactly these objects: only now do they
		// enter the home repository.
		if err := ins.accept(s); err != nil {
			return nil, err
		}
		commit, err := env.Git.CommitTree(ctx, s.Repository.CommonDir, ins.Tree, s.Base, commitMessage(s, message))
		if err != nil {
			if !env.Git.IdentityKnown(ctx, s.Repository.CommonDir) {
				return nil, contracts.Errorf(contracts.CodeIdentityMissing,
					"git does not know who you are, so finish cannot commit; set `git config --global user.name \"Your Name\"` and `git config --global user.email you@example.com`, then finish again (the session is kept)").
					WithDetails(map[string]any{"session": s.ID})
			}
			return nil, operations.GitError(err)
		}
		if err := moveHome(ctx, env, s, commit, s.Base); err != nil {
			return nil, operations.GitError(err)
		}
		s.Commit, s.Message, messageReused = commit, message, reused
	}
	s.State = contracts.SessionCommitted
	if err := saveSession(env, s); err != nil {
		return nil, err
	}
	if err := settleSessionRepo(ctx, env, s, ins.capture, s.Base); err != nil {
		return nil, err
	}
	res := sessionResult(s, contracts.ResultCommitted)
	res.Paths, res.MessageReused = changedPaths(ins.Changes), messageReused
	return res, nil
}

// finishRules are what finish accepts of an inspected session: nothing
// outside the subtree, no nested repository, no ignored file left out
// unless asked, no new hidden file unless asked, and a subtree that
// verifies as it will be committed.
func finishRules(ctx context.Context, env operations.Env, s *contracts.Session, ins *Inspection, req FinishRequest) error {
	if ins.Nested != "" {
		return nestedRefusal(s, ins.Nested)
	}
	if len(ins.Outside) > 0 {
		return outsideRefusal(s, ins.Outside)
	}
	if len(ins.Ignored) > 0 && !req.IncludeIgnored {
		return refuse(s, contracts.CodeIgnoredContent,
			"files matched by .gitignore would silently be left out of the commit; remove them or pass --include-ignored", ins.Ignored)
	}
	if !req.IncludeHidden {
		if err := checkHidden(s, ins.Changes); err != nil {
			return err
		}
	}
	return checkCapturedTree(ctx, ins.quarantine, ins.objects, s, ins.Tree)
}

// resolveHome reads the session's branch and the base's tree in the home
// repository through its object reader; a deleted branch is recreated
// (restoreBranch).
func resolveHome(ctx context.Context, env operations.Env, objects *git.Batch, s *contracts.Session) (branch, baseTree string, err error) {
	ids := make([]string, 2)
	err = objects.Objects([]string{homeRef(s), s.Base + "^{tree}"}, func(i int, id string, _ []byte) error {
		ids[i] = id
		return nil
	})
	if err != nil {
		return "", "", operations.GitError(err)
	}
	if ids[0] == "" {
		ids[0], err = restoreBranch(ctx, env, s)
		if err != nil {
			return "", "", err
		}
	}
	if ids[1] == "" {
		return "", "", contracts.Errorf(contracts.CodeSessionStale, "the base commit %.12s is missing from %s; the session's work is kept in %s",
			s.Base, s.Repository.CommonDir, s.Worktree).WithDetails(map[string]any{"session": s.ID, "worktree": s.Worktree})
	}
	return ids[0], ids[1], nil
}

// adoptCommit accepts the home branch's commit left by an interrupted
// finish when it sits directly on the base and holds exactly the tree just
// captured and verified; anything else is refused.
func adoptCommit(ctx context.Context, env operations.Env, s *contracts.Session, commit, captured string) error {
	parents, err := env.Git.CommitParents(ctx, s.Repository.CommonDir, commit)
	if err != nil {
		return operations.GitError(err)
	}
	got, err := env.Git.ResolveTree(ctx, s.Repository.CommonDir, commit)
	if err != nil {
		return operations.GitError(err)
	}
	if len(parents) != 1 || parents[0] != s.Base || got != captured {
		return contracts.Errorf(contracts.CodeSessionMoved,
			"branch %s of %s is at %.12s, which is not this session's work on its base %.12s; nothing was committed",
			s.Branch, s.Repository.CommonDir, commit, s.Base).WithDetails(map[string]any{"session": s.ID, "head": commit})
	}
	s.Commit = commit
	return nil
}

// settleSessionRepo moves the session repository's branch to the commit
// and gives it the committed index, so the session shows no pending
// change; then it rechecks that the work tree is exactly the commit.
func settleSessionRepo(ctx context.Context, env operations.Env, s *contracts.Session, c *sessionCapture, head string) error {
	if head == s.Base {
		if err := git.SetLooseRef(sessionGitDir(s), "refs/heads/"+s.Branch, s.Commit, s.Base); err != nil {
			return contracts.Errorf(contracts.CodeIO, "cannot move the session's branch to %.12s: %v", s.Commit, err)
		}
	}
	if err := installIndex(env.Home, c.index, sessionGitDir(s)); err != nil {
		return err
	}
	pending, err := env.Git.Pending(ctx, c.wt)
	if err != nil {
		return operations.GitError(err)
	}
	if len(pending) > 0 {
		return refuse(s, contracts.CodeSessionMoved, fmt.Sprintf("the work tree changed while finish committed %.12s; those changes are not in the commit", s.Commit), pending)
	}
	return nil
}

// installIndex copies an index file of the state into a git directory,
// atomically.
func installIndex(home *state.Home, index, gitDir string) error {
	if err := copyFile(home, index, filepath.Join(gitDir, "index")); err != nil {
		return contracts.Errorf(contracts.CodeIO, "cannot update the session's index: %v", err)
	}
	return nil
}

// copyFile copies a file of the state (read through no symlink) through
// a temporary file beside dst.
func copyFile(home *state.Home, src, dst string) error {
	data, err := home.ReadFile(src)
	if err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(dst), filepath.Base(dst)+".*")
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), dst)
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}

// checkCommittedSession confirms a committed session is as finish left it:
// its branch on the commit in both repositories and its work tree exactly
// the commit, with nothing new that finish would silently drop. A finish
// interrupted before it settled the session repository completes that.
func checkCommittedSession(ctx context.Context, env operations.Env, s *contracts.Session) error {
	branch, err := homeBranch(ctx, env, s)
	if err != nil {
		return err
	}
	if branch != s.Commit {
		return contracts.Errorf(contracts.CodeSessionMoved, "branch %s of %s is at %.12s, not at the session's commit %.12s",
			s.Branch, s.Repository.CommonDir, branch, s.Commit).WithDetails(map[string]any{"session": s.ID, "head": branch})
	}
	head, _, err := git.ReadHead(sessionGitDir(s))
	want := s.Commit
	if err == nil && head == s.Base {
		want = s.Base // settled below
	}
	ins, err := Inspect(ctx, env, s, InspectOptions{Head: want, IncludeIgnored: true})
	if err != nil {
		return err
	}
	defer ins.Close()
	if ins.Nested != "" {
		return nestedRefusal(s, ins.Nested)
	}
	if len(ins.Outside) > 0 {
		return outsideRefusal(s, ins.Outside)
	}
	committed, err := env.Git.ResolveTree(ctx, s.Repository.CommonDir, s.Commit)
	if err != nil {
		return operations.GitError(err)
	}
	if ins.Tree != committed {
		changes, err := ins.quarantine.DiffTrees(ctx, committed, ins.Tree, true)
		if err != nil {
			return operations.GitError(err)
		}
		return refuse(s, contracts.CodeSessionMoved, fmt.Sprintf("the session was already committed as %.12s and its work tree has newer changes that finish will not commit (open a new session for them)", s.Commit), changedPaths(changes))
	}
	// A finish killed while settling the session repository left its
	// branch or its index behind: settling again is idempotent.
	return settleSessionRepo(ctx, env, s, ins.capture, want)
}

// homeBranch resolves the session's branch in the home repository; a
// deleted branch is recreated (restoreBranch).
func homeBranch(ctx context.Context, env operations.Env, s *contracts.Session) (string, error) {
	commit, err := env.Git.ResolveCommit(ctx, s.Repository.CommonDir, homeRef(s))
	if err != nil {
		return "", operations.GitError(err)
	}
	if commit == "" {
		return restoreBranch(ctx, env, s)
	}
	return commit, nil
}

func branchDeleted(s *contracts.Session) error {
	return contracts.Errorf(contracts.CodeSessionStale, "branch %s was deleted from %s; the session's work is kept in %s",
		s.Branch, s.Repository.CommonDir, s.Worktree).WithDetails(map[string]any{"session": s.ID, "worktree": s.Worktree})
}

func commitMessage(s *contracts.Session, msg string) string {
	if strings.TrimSpace(msg) == "" {
		msg = fmt.Sprintf("Update context tree %s", s.Subtree)
		if s.Subtree == "." {
			msg = "Update context tree"
		}
	}
	return strings.TrimRight(msg, "\n") + "\n\n" + sessionTrailer + s.ID + "\n"
}

// publish pushes the session commit to the pinned branch of the git
// source's origin: one normal, non-force push, after rechecking the stored
// origin. A rejection keeps the commit and the worktree.
func publish(ctx context.Context, env operations.Env, s *contracts.Session) error {
	// The cache's origin and configuration were checked by checkPinned at
	// the start of this finish, under the session lock; Publish checks
	// that its branch is where the tool last brought it (a moved ref is
	// CACHE_TAMPERED) and records the commit once the push lands.
	landed, err := env.Managed().Publish(ctx, s.Repository.CommonDir, originRepository(s.Repository.Origin), s.TargetBranch, s.Subtree, s.Commit,
		func() (bool, error) {
			res, err := env.Git.Push(ctx, s.Repository.CommonDir, "origin", s.Commit, s.TargetBranch)
			if err != nil {
				return false, contracts.Errorf(contracts.CodePushFailed, "cannot push %.12s to %s: %v; the commit is kept on %s", s.Commit, s.Connection.Exact, err, s.Branch).
					WithDetails(map[string]any{"session": s.ID, "commit": s.Commit})
			}
			return res != git.PushRejected, nil
		})
	if err != nil {
		return err
	}
	if !landed {
		s.Rejected = true
		if err := saveSession(env, s); err != nil {
			return err
		}
		return contracts.Errorf(contracts.CodePublishRejected,
			"%s moved on since the session began, so %.12s is not a fast-forward; the commit is kept on %s in %s: run `git context-tree write update %s` to move it onto the new tip, then finish --publish again",
			s.TargetBranch, s.Commit, s.Branch, s.Worktree, s.ID).WithDetails(map[string]any{"session": s.ID, "commit": s.Commit, "worktree": s.Worktree})
	}
	s.State, s.Rejected = contracts.SessionPublished, false
	return saveSession(env, s)
}

// originRepository turns a stored origin URL back into owner/repo.
func originRepository(origin string) string {
	return strings.TrimSuffix(strings.TrimPrefix(origin, "https://github.com/"), ".git")
}

func refuse(s *contracts.Session, code contracts.ErrorCode, why string, paths []string) error {
	return contracts.Errorf(code, "%s: %s; the session is kept in %s", why, strings.Join(paths, ", "), s.Worktree).
		WithDetails(map[string]any{"session": s.ID, "paths": paths})
}

// inSubtree reports whether a repository-relative path ("dir/" for a
// directory) lies in the subtree.
func inSubtree(p, subtree string) bool {
	_, ok := tree.Inside(subtree, strings.TrimSuffix(p, "/"))
	return ok
}

func orNone(s string) string {
	if s == "" {
		return "(none yet)"
	}
	return s
}

// outsideRefusal is PATH_OUTSIDE_TREE with how to undo the changes.
func outsideRefusal(s *contracts.Session, paths []string) error {
	undo := fmt.Sprintf("delete what was added there, and bring back what was changed or deleted with `git -C %s checkout %s -- <path>`", s.Worktree, s.Base)
	e := contracts.Errorf(contracts.CodePathOutsideTree, "the session changed paths outside the tree %s: %s; to undo, %s. The session is kept in %s",
		s.Subtree, strings.Join(paths, ", "), undo, s.Worktree)
	return e.WithDetails(map[string]any{"session": s.ID, "paths": paths})
}
