package operations

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/adapters/git"
	"github.com/git-context-tree/git-context-tree/internal/tree"
)

// FinishRequest is what `write finish` was asked to do.
type FinishRequest struct {
	ID             string
	Message        string
	Publish        bool
	IncludeIgnored bool
}

// sessionTrailer marks the commits finish makes, so a finish interrupted
// after committing recognises its own commit when run again.
const sessionTrailer = "Context-Tree-Session: "

// Finish completes a write session (S13, S14): it checks the pinned source
// and repository, the branch and HEAD, rejects every pending path outside
// the tree, verifies the tree, stages only the subtree, commits and
// rechecks the commit; with Publish it pushes the commit to the pinned
// branch without force. Every failure keeps the session and its work.
func Finish(ctx context.Context, env Env, req FinishRequest) (*contracts.SessionResult, error) {
	s, err := loadSession(env, req.ID)
	if err != nil {
		return nil, err
	}
	if req.Publish && s.Repository.Kind != contracts.SourceGit {
		return nil, contracts.Errorf(contracts.CodePublishUnsupported,
			"only git sources are published; %s is a directory source: its commit %s stays on branch %s for you to merge",
			s.Connection.Exact, orNone(s.Commit), s.Branch).WithDetails(map[string]any{"session": s.ID})
	}
	unlock, err := lockSession(env, s.ID)
	if err != nil {
		return nil, err
	}
	defer unlock()
	if err := checkPinned(ctx, env, s); err != nil {
		return nil, err
	}
	if s.State == contracts.SessionOpen {
		if err := adoptInterruptedCommit(ctx, env, s); err != nil {
			return nil, err
		}
	}
	if s.State == contracts.SessionOpen {
		res, err := commitSession(ctx, env, s, req)
		if err != nil || res.Result == contracts.ResultUnchanged {
			return res, err
		}
	} else if err := checkCommittedWorktree(ctx, env, s); err != nil {
		return nil, err
	}
	if !req.Publish || s.State == contracts.SessionPublished {
		return sessionResult(s, s.State), nil
	}
	if err := publish(ctx, env, s); err != nil {
		return nil, err
	}
	return sessionResult(s, contracts.ResultPublished), nil
}

// checkCommittedWorktree confirms a committed session is as finish left it:
// on its commit, with nothing new pending that finish would silently drop.
func checkCommittedWorktree(ctx context.Context, env Env, s *contracts.Session) error {
	if _, err := checkWorktree(ctx, env, s, s.Commit); err != nil {
		return err
	}
	entries, err := env.Git.Status(ctx, s.Worktree)
	if err != nil {
		return gitErr(err)
	}
	if len(entries) > 0 {
		paths := make([]string, len(entries))
		for i, e := range entries {
			paths[i] = e.Path
		}
		return refuse(s, contracts.CodeSessionMoved, fmt.Sprintf("the session was already committed as %.12s and its worktree has newer changes that finish will not commit (open a new session for them)", s.Commit), paths)
	}
	return nil
}

func sessionResult(s *contracts.Session, result string) *contracts.SessionResult {
	s.Head = s.Base
	if s.Commit != "" {
		s.Head = s.Commit
	}
	return &contracts.SessionResult{SchemaVersion: contracts.CLIVersion, Session: s, Result: result, Commit: s.Commit}
}

// adoptInterruptedCommit recognises a commit that an interrupted finish
// made (marked with this session's trailer, directly on the base) and
// records it, so running finish again never makes a second commit.
func adoptInterruptedCommit(ctx context.Context, env Env, s *contracts.Session) error {
	st, err := checkWorktree(ctx, env, s, s.Base)
	var ce *contracts.Error
	if err == nil || !errors.As(err, &ce) || ce.Code != contracts.CodeSessionMoved || st == nil {
		return err
	}
	msg, merr := env.Git.CommitMessage(ctx, s.Worktree, st.Head)
	parents, perr := env.Git.CommitParents(ctx, s.Worktree, st.Head)
	if merr != nil || perr != nil || !strings.Contains(msg, sessionTrailer+s.ID) || len(parents) != 1 || parents[0] != s.Base {
		return err
	}
	if err := recheckCommit(ctx, env, s, st.Head); err != nil {
		return err
	}
	s.State, s.Commit = contracts.SessionCommitted, st.Head
	return saveSession(env, s)
}

// commitSession runs the checks and makes the session's commit.
func commitSession(ctx context.Context, env Env, s *contracts.Session, req FinishRequest) (*contracts.SessionResult, error) {
	if _, err := checkWorktree(ctx, env, s, s.Base); err != nil {
		return nil, err
	}
	entries, err := env.Git.Status(ctx, s.Worktree)
	if err != nil {
		return nil, gitErr(err)
	}
	var outside, ignored, nested []string
	for _, e := range entries {
		for _, p := range []string{e.Path, e.Orig} {
			if p != "" && !inSubtree(p, s.Subtree) {
				outside = append(outside, p)
			}
		}
		if strings.HasSuffix(e.Path, "/") && exists(filepath.Join(s.Worktree, e.Path, ".git")) {
			nested = append(nested, e.Path) // git shows a nested repository as one directory entry
		}
		if e.Kind == '!' && inSubtree(e.Path, s.Subtree) {
			ignored = append(ignored, e.Path)
		}
	}
	if len(outside) > 0 {
		return nil, refuse(s, contracts.CodePathOutsideTree, "the session changed paths outside the tree "+s.Subtree, outside)
	}
	if len(nested) > 0 || hasNestedGit(s.ContentRoot) {
		return nil, refuse(s, contracts.CodeNestedRepo, "the tree contains a nested git repository", nested)
	}
	if err := verifySessionTree(s); err != nil {
		return nil, err
	}
	if len(entries) == 0 {
		return sessionResult(s, contracts.ResultUnchanged), nil
	}
	if len(ignored) > 0 && !req.IncludeIgnored {
		return nil, refuse(s, contracts.CodeIgnoredContent,
			"files matched by .gitignore would silently be left out of the commit; remove them or pass --include-ignored", ignored)
	}
	if !req.IncludeIgnored {
		ignored = nil
	}
	if err := env.Git.StagePaths(ctx, s.Worktree, s.Subtree, ignored); err != nil {
		return nil, gitErr(err)
	}
	commit, err := env.Git.Commit(ctx, s.Worktree, commitMessage(s, req.Message))
	if err != nil {
		return nil, gitErr(err)
	}
	if err := recheckCommit(ctx, env, s, commit); err != nil {
		return nil, err
	}
	s.State, s.Commit = contracts.SessionCommitted, commit
	if err := saveSession(env, s); err != nil {
		return nil, err
	}
	return sessionResult(s, contracts.ResultCommitted), nil
}

// verifySessionTree validates the session's content with the tree verifier.
func verifySessionTree(s *contracts.Session) error {
	root, err := tree.OpenRoot(s.ContentRoot)
	if err != nil {
		return err
	}
	if rep := tree.Verify(root); !rep.OK() {
		e := contracts.Errorf(contracts.CodeTreeInvalid, "the session's tree does not verify (%s); fix them in %s and finish again", countFindings(len(rep.Findings)), s.ContentRoot)
		return e.WithDetails(map[string]any{"session": s.ID, "root": root, "findings": rep.Findings})
	}
	return nil
}

// recheckCommit confirms the commit sits directly on the base, changes
// nothing outside the subtree, and left the worktree clean.
func recheckCommit(ctx context.Context, env Env, s *contracts.Session, commit string) error {
	parents, err := env.Git.CommitParents(ctx, s.Worktree, commit)
	if err != nil {
		return gitErr(err)
	}
	if len(parents) != 1 || parents[0] != s.Base {
		return contracts.Errorf(contracts.CodeSessionMoved, "commit %.12s is not directly on the session base %.12s", commit, s.Base)
	}
	paths, err := env.Git.ChangedPaths(ctx, s.Worktree, s.Base, commit)
	if err != nil {
		return gitErr(err)
	}
	for _, p := range paths {
		if !inSubtree(p, s.Subtree) {
			return contracts.Errorf(contracts.CodePathOutsideTree, "commit %.12s changes %s outside the tree", commit, p)
		}
	}
	left, err := env.Git.Status(ctx, s.Worktree)
	if err != nil {
		return gitErr(err)
	}
	if len(left) > 0 {
		return contracts.Errorf(contracts.CodeSessionMoved, "the worktree is not clean after commit %.12s (%s)", commit, left[0].Path)
	}
	return nil
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
func publish(ctx context.Context, env Env, s *contracts.Session) error {
	url, ok, err := env.Git.ConfigGet(ctx, s.Repository.CommonDir, "remote.origin.url")
	if err != nil || !ok || url != s.Repository.Origin {
		return contracts.Errorf(contracts.CodeOriginMismatch, "the cache %s no longer has origin %s; nothing was pushed", s.Repository.CommonDir, s.Repository.Origin)
	}
	res, err := env.Git.Push(ctx, s.Worktree, "origin", s.Commit, s.TargetBranch)
	if err != nil {
		return contracts.Errorf(contracts.CodePushFailed, "cannot push %.12s to %s: %v; the commit is kept on %s", s.Commit, s.Connection.Exact, err, s.Branch).
			WithDetails(map[string]any{"session": s.ID, "commit": s.Commit})
	}
	if res == git.PushRejected {
		return contracts.Errorf(contracts.CodePublishRejected,
			"%s moved on since the session began, so %.12s is not a fast-forward; the commit is kept on %s in %s for you to reconcile",
			s.TargetBranch, s.Commit, s.Branch, s.Worktree).WithDetails(map[string]any{"session": s.ID, "commit": s.Commit, "worktree": s.Worktree})
	}
	if err := recordPublished(ctx, env, s); err != nil {
		return err
	}
	s.State = contracts.SessionPublished
	return saveSession(env, s)
}

// recordPublished makes the published commit the git source's current
// snapshot, as a sync would find it.
func recordPublished(ctx context.Context, env Env, s *contracts.Session) error {
	repo := strings.TrimSuffix(strings.TrimPrefix(s.Repository.Origin, "https://github.com/"), ".git")
	return env.managed().RecordPublished(ctx, repo, s.TargetBranch, s.Commit)
}

func refuse(s *contracts.Session, code contracts.ErrorCode, why string, paths []string) error {
	return contracts.Errorf(code, "%s: %s; the session is kept in %s", why, strings.Join(paths, ", "), s.Worktree).
		WithDetails(map[string]any{"session": s.ID, "paths": paths})
}

// inSubtree reports whether a repository-relative path lies in the subtree.
func inSubtree(p, subtree string) bool {
	p = strings.TrimSuffix(p, "/")
	return subtree == "." || p == subtree || strings.HasPrefix(p, subtree+"/")
}

// hasNestedGit finds a .git entry anywhere below root (an agent that ran
// git init inside the tree). Hidden directories are otherwise infrastructure
// that verification does not walk.
func hasNestedGit(root string) bool {
	found := false
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return nil // unreadable: verification reports it
		}
		if d.Name() == ".git" && p != filepath.Join(root, ".git") {
			found = true
			return filepath.SkipAll
		}
		return nil
	})
	return found
}

func orNone(s string) string {
	if s == "" {
		return "(none yet)"
	}
	return s
}
