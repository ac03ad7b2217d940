package session

import (
	"bytes"
	"context"
	"fmt"
	"os"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/adapters/git"
	"github.com/git-context-tree/git-context-tree/internal/operations"
)

// UpdateRequest is what `write update` was asked to do.
type UpdateRequest struct {
	ID       string
	Continue bool
	Abort    bool
}

// Update moves a committed session of a git source onto the new tip
// of its target branch, explicitly (S14: finish never does): it syncs the
// source, merges what the session's commit changes in its subtree onto the
// tip's subtree and writes the result into the session's files as edits on
// the new base, for finish to verify, commit and publish. The merge runs
// in the home repository on objects named by id (the session's commit,
// its recorded base, the recorded tip): no git command runs with the
// session's own .git, so nothing the agent put there (filters, attributes,
// hooks, objects of its own) takes part. On a conflict the files hold
// conflict markers and the record names them; Continue completes the
// update once they are resolved, Abort puts the session back as it was.
func Update(ctx context.Context, env operations.Env, req UpdateRequest) (*contracts.SessionResult, error) {
	s, unlock, err := openSession(ctx, env, req.ID, func(s *contracts.Session) error {
		if s.Repository.Kind != contracts.SourceGit {
			return updateRefused(s, "write update moves a git source's session onto the new tip of its branch; a directory source's commit stays on "+s.Branch+" for you to merge")
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	defer unlock()
	switch {
	case req.Abort:
		return abortUpdate(ctx, env, s)
	case req.Continue:
		return continueUpdate(ctx, env, s)
	case s.Update != nil:
		return nil, updateInProgress(s)
	case s.State != contracts.SessionCommitted:
		return nil, updateRefused(s, "only a committed session that is not published can be updated (this one is "+s.State+")")
	}
	if err := checkCommittedSession(ctx, env, s); err != nil {
		return nil, err
	}
	tip, err := syncTarget(ctx, env, s)
	if err != nil {
		return nil, err
	}
	if tip == s.Base {
		return nil, updateRefused(s, fmt.Sprintf("%s is still at the session's base %.12s: there is nothing to update onto; run `git context-tree write finish --publish %s`", s.TargetBranch, s.Base, s.ID))
	}
	home := s.Repository.CommonDir
	merged, conflicts, err := env.Git.MergeTrees(ctx, home, subtreeRev(s, s.Base), subtreeRev(s, tip), subtreeRev(s, s.Commit))
	if err != nil {
		return nil, operations.GitError(err)
	}
	for i, p := range conflicts {
		conflicts[i] = joinSubtree(s.Subtree, p)
	}
	s.Update = &contracts.SessionUpdate{From: s.Commit, Onto: tip, Conflicts: conflicts}
	if err := saveSession(env, s); err != nil {
		return nil, err
	}
	changes, err := env.Git.DiffTrees(ctx, home, subtreeRev(s, s.Commit), merged, true)
	if err != nil {
		return nil, operations.GitError(err)
	}
	if err := writeSessionFiles(ctx, env, s, changes); err != nil {
		return nil, err
	}
	if err := moveSessionRepo(ctx, env, s, s.Commit, tip); err != nil {
		return nil, err
	}
	if err := writeHomeView(s, tip); err != nil {
		return nil, err
	}
	if len(conflicts) > 0 {
		return nil, updateConflict(s, conflicts)
	}
	return completeUpdate(ctx, env, s)
}

// subtreeRev names the session's subtree in a commit or tree, as a tree.
func subtreeRev(s *contracts.Session, treeish string) string {
	if s.Subtree == "." {
		return treeish + "^{tree}"
	}
	return treeish + ":" + s.Subtree
}

// syncTarget syncs the session's source and returns its branch's new tip.
func syncTarget(ctx context.Context, env operations.Env, s *contracts.Session) (string, error) {
	env.Dir = s.ProjectRoot
	res, err := operations.Sync(ctx, env, []string{s.Connection.Exact}, false)
	if err != nil {
		return "", err
	}
	e := res.Connections[0]
	if !e.OK {
		return "", e.Error
	}
	return e.Repository.Commit, nil
}

// continueUpdate completes an update once no file it left with conflict
// markers still holds them (no git add is needed: finish reads the files).
func continueUpdate(ctx context.Context, env operations.Env, s *contracts.Session) (*contracts.SessionResult, error) {
	if s.Update == nil {
		return nil, updateRefused(s, "no update is in progress for this session")
	}
	if err := checkWorktree(ctx, env, s, s.Update.Onto); err != nil {
		return nil, err
	}
	var left []string
	for _, p := range s.Update.Conflicts {
		if data, err := os.ReadFile(joinRel(s.Worktree, p)); err == nil && hasConflictMarkers(data) {
			left = append(left, p)
		}
	}
	if len(left) > 0 {
		return nil, updateConflict(s, left)
	}
	return completeUpdate(ctx, env, s)
}

// hasConflictMarkers reports a line that opens or closes a conflict.
func hasConflictMarkers(data []byte) bool {
	for _, marker := range []string{"<<<<<<< ", ">>>>>>> "} {
		if bytes.HasPrefix(data, []byte(marker)) || bytes.Contains(data, []byte("\n"+marker)) {
			return true
		}
	}
	return false
}

// completeUpdate makes the merged work the session's edits on its new
// base: the home branch moves from the old commit to the tip, the record
// is open again, and finish will judge the files like any edits.
func completeUpdate(ctx context.Context, env operations.Env, s *contracts.Session) (*contracts.SessionResult, error) {
	if err := moveHome(ctx, env, s, s.Update.Onto, s.Update.From); err != nil {
		// An update killed after moving the branch, before the record
		// said so, left the branch at the tip already.
		if tip, rerr := env.Git.ResolveCommit(ctx, s.Repository.CommonDir, homeRef(s)); rerr != nil || tip != s.Update.Onto {
			return nil, operations.GitError(err)
		}
		if err := moveHome(ctx, env, s, s.Update.Onto, s.Update.Onto); err != nil {
			return nil, operations.GitError(err)
		}
	}
	s.Base, s.State, s.Commit, s.Rejected, s.Update = s.Update.Onto, contracts.SessionOpen, "", false, nil
	if err := saveSession(env, s); err != nil {
		return nil, err
	}
	writeBaseIndex(ctx, env, s)
	return sessionResult(s, contracts.ResultUpdated), nil
}

// abortUpdate puts the session back on its commit, as before the update:
// its files are the commit's again (whatever was edited since the update
// began is discarded, as `git cherry-pick --abort` would).
func abortUpdate(ctx context.Context, env operations.Env, s *contracts.Session) (*contracts.SessionResult, error) {
	if s.Update == nil {
		return nil, updateRefused(s, "no update is in progress for this session")
	}
	ins, err := Inspect(ctx, env, s, InspectOptions{Head: s.Update.Onto, IncludeIgnored: true})
	if err != nil {
		return nil, err
	}
	defer ins.Close()
	if ins.Nested != "" {
		return nil, nestedRefusal(s, ins.Nested)
	}
	// The files as captured are read through the inspection's quarantine:
	// they are discarded, never stored in the home repository.
	changes, err := ins.quarantine.DiffTrees(ctx, subtreeRev(s, ins.Tree), subtreeRev(s, s.Update.From), true)
	if err != nil {
		return nil, operations.GitError(err)
	}
	if err := writeSessionFiles(ctx, env, s, changes); err != nil {
		return nil, err
	}
	if err := moveSessionRepo(ctx, env, s, s.Update.Onto, s.Update.From); err != nil {
		return nil, err
	}
	s.Update = nil
	if err := saveSession(env, s); err != nil {
		return nil, err
	}
	return sessionResult(s, s.State), nil
}

// moveSessionRepo moves the session repository's branch from one commit
// to another and gives it that commit's index, written by the tool (no
// file stamps: the agent's git hashes the files on its next look).
func moveSessionRepo(ctx context.Context, env operations.Env, s *contracts.Session, from, to string) error {
	idx, err := newCaptureIndex(env, s)
	if err != nil {
		return err
	}
	defer os.Remove(idx)
	w := git.WorkTree{GitDir: s.Repository.CommonDir, Dir: s.Worktree, Index: idx}
	if err := env.Git.ReadTree(ctx, w, to+"^{tree}"); err != nil {
		return operations.GitError(err)
	}
	if err := skipOutside(ctx, env, s, w); err != nil {
		return operations.GitError(err)
	}
	if err := git.SetLooseRef(sessionGitDir(s), "refs/heads/"+s.Branch, to, from); err != nil {
		return contracts.Errorf(contracts.CodeIO, "cannot move the session's branch to %.12s: %v", to, err)
	}
	return installIndex(env.Home, idx, sessionGitDir(s))
}

func updateInProgress(s *contracts.Session) error {
	return updateRefused(s, "an update is in progress: resolve the conflicts in "+s.Worktree+", then run `git context-tree write update --continue "+s.ID+"` (or --abort)")
}

func updateConflict(s *contracts.Session, paths []string) error {
	return contracts.Errorf(contracts.CodeUpdateConflict,
		"the session's commit does not apply cleanly onto %.12s: resolve the conflict markers in %v (in %s; no git add or commit is needed), then run `git context-tree write update --continue %s`, or `--abort` to go back",
		s.Update.Onto, paths, s.Worktree, s.ID).WithDetails(map[string]any{"session": s.ID, "worktree": s.Worktree, "paths": paths})
}

func updateRefused(s *contracts.Session, why string) error {
	return contracts.Errorf(contracts.CodeUpdateRefused, "%s", why).WithDetails(map[string]any{"session": s.ID})
}
