package session

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/adapters/git"
	"github.com/git-context-tree/git-context-tree/internal/operations"
	"github.com/git-context-tree/git-context-tree/internal/operations/session/record"
)

// A folder among the session worktrees that no record names is a session
// whose record was removed by hand, or one a prepare killed midway left
// behind; it may hold an agent's edits, and S14 lets the CLI discard none.
// So `write prune --force` removes such a folder only when it can be
// judged as a session and holds nothing of its own: its .git is what
// prepare makes (the tamper checks), its branch is at the commit its home
// repository keeps for that session id (refs/context-tree/sessions/<id>,
// so no commit lives only in the folder), and Inspect, the judge of every
// other session, finds no change, ignored file or nested repository. Any
// other folder is kept with the reason, for the user to empty by hand.

// unknownWorktrees lists the folders among the session worktrees that no
// session record names.
func unknownWorktrees(env operations.Env, ids []string) ([]string, error) {
	dir, err := env.Home.Dir("worktrees")
	if err != nil {
		return nil, err
	}
	entries, err := env.Home.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	unknown := []string{}
	for _, e := range entries {
		if !slices.Contains(ids, e.Name()) {
			unknown = append(unknown, filepath.Join(dir, e.Name()))
		}
	}
	return unknown, nil
}

// pruneUnknown removes an unknown folder that holds nothing of its own
// when remove is set, and otherwise says what keeps it ("" once removed).
func pruneUnknown(ctx context.Context, env operations.Env, dir string, remove bool) (string, error) {
	const unnamed = "no session record names it"
	fi, err := os.Lstat(dir)
	if err != nil {
		return "", nil // removed since it was listed
	}
	if !fi.IsDir() {
		return unnamed + " and it is not a folder: look at it and remove it yourself", nil
	}
	why, err := judgeUnknown(ctx, env, dir, func() error {
		if !remove {
			return nil
		}
		if err := os.RemoveAll(dir); err != nil {
			return contracts.Errorf(contracts.CodeIO, "cannot remove %s: %v", dir, err)
		}
		return deleteSession(env, filepath.Base(dir)) // what the state kept beside the record
	})
	switch {
	case err != nil:
		return "", err
	case why != "":
		return unnamed + ", and " + why + ": copy what you need out of it, then remove it yourself", nil
	case !remove:
		return unnamed + " and it holds nothing of its own: `git context-tree write prune --force` removes it", nil
	}
	return "", nil
}

// judgeUnknown judges the unknown folder dir as the session it would be,
// under that session's lock, and calls empty while still holding it when
// the folder holds nothing of its own; otherwise it says why not.
func judgeUnknown(ctx context.Context, env operations.Env, dir string, empty func() error) (string, error) {
	if entries, err := os.ReadDir(dir); err == nil && len(entries) == 0 {
		return "", empty()
	}
	id := filepath.Base(dir)
	if record.CheckID(id) != nil {
		return "it is not named like a session", nil
	}
	unlock, err := lockSession(env, id)
	var ce *contracts.Error
	if errors.As(err, &ce) && ce.Code == contracts.CodeLockHeld {
		return "another git-context-tree command is using it (a prepare may be creating it)", nil
	}
	if err != nil {
		return "", err
	}
	defer unlock()
	s, why, err := unknownSession(ctx, env, dir)
	if s == nil || err != nil {
		return why, err
	}
	ins, err := Inspect(ctx, env, s, InspectOptions{Head: s.Base})
	if err != nil {
		return "it cannot be judged empty: " + err.Error(), nil
	}
	defer ins.Close()
	if !ins.Empty() {
		return "it has edits (" + describeWork(ins) + ")", nil
	}
	return "", empty()
}

// unknownSession rebuilds the session the folder dir would be from its
// .git, or says why it cannot (nil session). Nothing in the folder is
// trusted beyond naming a candidate: the home repository must lie outside
// the state's agent-writable folders and keep the folder's commit as the
// session's, and Inspect checks the rest as for any session.
func unknownSession(ctx context.Context, env operations.Env, dir string) (*contracts.Session, string, error) {
	id := filepath.Base(dir)
	gitDir := filepath.Join(dir, ".git")
	if fi, err := os.Lstat(gitDir); err != nil || !fi.IsDir() {
		return nil, "it is not a session repository (it has no .git directory)", nil
	}
	branch := sessionBranchPrefix + id
	head, ref, err := git.ReadHead(gitDir)
	if err != nil || ref != "refs/heads/"+branch || head == "" {
		return nil, "its HEAD is not on a commit of the session branch " + branch, nil
	}
	home, ok := borrowedHome(gitDir)
	if !ok {
		return nil, "its .git does not name one home repository it borrows objects from", nil
	}
	if agentWritable(env, home, dir) {
		return nil, "the home repository it names (" + home + ") lies where agents write", nil
	}
	kept, err := env.Git.ResolveCommit(ctx, home, "refs/context-tree/sessions/"+id)
	if err != nil {
		return nil, "its home repository " + home + " cannot be read (" + operations.GitError(err).Error() + ")", nil
	}
	if kept != head {
		return nil, fmt.Sprintf("its branch is at %.12s, a commit %s does not keep for session %s (refs/context-tree/sessions/%s)", head, home, id, id), nil
	}
	subtree, kind, ok := sparseSubtree(ctx, env, gitDir)
	if !ok {
		return nil, "its sparse checkout is not one prepare makes", nil
	}
	return &contracts.Session{
		ID: id, State: contracts.SessionOpen, Branch: branch, Base: head, Subtree: subtree,
		Worktree: dir, ContentRoot: joinRel(dir, subtree),
		Repository: contracts.SessionRepository{Kind: kind, CommonDir: home},
	}, "", nil
}

// borrowedHome is the repository whose objects a session's .git borrows:
// the one line of its alternates file, less "/objects".
func borrowedHome(gitDir string) (string, bool) {
	data, err := os.ReadFile(filepath.Join(gitDir, "objects", "info", "alternates"))
	if err != nil {
		return "", false
	}
	objects, ok := strings.CutSuffix(string(data), "\n")
	if !ok || strings.ContainsAny(objects, "\n\r") || !filepath.IsAbs(objects) || filepath.Clean(objects) != objects || filepath.Base(objects) != "objects" {
		return "", false
	}
	return filepath.Dir(objects), true
}

// agentWritable reports a home repository inside the folder itself or
// among the session worktrees or snapshots, where agents write: git is
// never run there as a home (its configuration could name programs).
func agentWritable(env operations.Env, home, dir string) bool {
	real, err := filepath.EvalSymlinks(home)
	if err != nil {
		return true
	}
	for _, area := range []string{dir, env.Home.Path("worktrees"), env.Home.Path("snapshots")} {
		if a, err := filepath.EvalSymlinks(area); err == nil {
			area = a
		}
		if real == area || strings.HasPrefix(real, area+string(filepath.Separator)) {
			return true
		}
	}
	return false
}

// sparseSubtree is the subtree a session holds: the one directory of its
// sparse checkout (a git source's session), else the whole repository
// (a directory source's). ok is false for a sparse checkout prepare did
// not write.
func sparseSubtree(ctx context.Context, env operations.Env, gitDir string) (subtree string, kind contracts.SourceKind, ok bool) {
	entries, err := env.Git.ConfigFileEntries(ctx, filepath.Join(gitDir, "config"))
	if err != nil {
		return "", "", false
	}
	sparse := slices.ContainsFunc(entries, func(e [2]string) bool {
		return strings.EqualFold(e[0], "core.sparsecheckout") && e[1] == "true"
	})
	patterns, err := os.ReadFile(filepath.Join(gitDir, "info", "sparse-checkout"))
	if !sparse {
		return ".", contracts.SourceDirectory, err != nil
	}
	if err != nil {
		return "", "", false
	}
	line, _ := strings.CutSuffix(string(patterns), "\n")
	d := unescapePattern(strings.TrimSuffix(strings.TrimPrefix(line, "/"), "/"))
	if d == "" || string(git.SparsePatterns([]string{d})) != string(patterns) {
		return "", "", false
	}
	return d, contracts.SourceGit, true
}

// unescapePattern undoes escapePattern's quoting: a backslash keeps the
// byte after it. sparseSubtree checks the result by quoting it again.
func unescapePattern(p string) string {
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		if p[i] == '\\' && i+1 < len(p) {
			i++
		}
		b.WriteByte(p[i])
	}
	return b.String()
}
