package session

import (
	"context"
	"errors"
	"slices"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/adapters/git"
	"github.com/git-context-tree/git-context-tree/internal/operations"
)

// Inspection is what a session holds, read the one way the tool reads a
// session: its .git checked for what git could follow out of it and its
// HEAD for commits (checkWorktree), then the files on disk captured into
// a tree of the home repository through the tool's own index and compared
// with the base as objects. finish, abort, prune and cleanup run all judge
// a session from an Inspection; none keeps rules of its own about what a
// session changed. Every rule about content is judged on the captured
// objects, never on the files on disk, which the agent may swap at any
// moment; the objects the capture writes stay in a quarantine (see
// sessionCapture) until finish accepts them.
type Inspection struct {
	// Tree is the work tree as a tree object of the home repository.
	Tree string
	// Changes are the files Tree changes from the base.
	Changes []git.TreeChange
	// Ignored are ignored untracked paths inside the subtree ("dir/" for
	// a wholly ignored directory).
	Ignored []string
	// Outside are paths outside the subtree that differ from the base,
	// lie on disk where a sparse session holds nothing, or are ignored.
	Outside []string
	// Nested is the first nested .git below the work tree ("dir/"); when
	// set, nothing else was read (git stages a repository as a gitlink).
	Nested string

	objects    *git.Batch // reads through the quarantine
	quarantine *git.Quarantine
	capture    *sessionCapture
}

// InspectOptions shape an inspection.
type InspectOptions struct {
	// Head is the commit the session repository's branch must be at;
	// empty means the session's base.
	Head string
	// IncludeIgnored stages ignored files inside the subtree into Tree
	// (they are still listed in Ignored).
	IncludeIgnored bool
}

// Inspect reads a session as described at Inspection. The caller holds
// the session's lock and closes the inspection.
func Inspect(ctx context.Context, env operations.Env, s *contracts.Session, opt InspectOptions) (*Inspection, error) {
	head := opt.Head
	if head == "" {
		head = s.Base
	}
	if err := checkWorktree(ctx, env, s, head); err != nil {
		return nil, err
	}
	ins := &Inspection{Nested: nestedGit(s.Worktree)}
	if ins.Nested != "" {
		return ins, nil
	}
	q, err := env.Git.NewQuarantine(s.Repository.CommonDir, s.ID)
	if err != nil {
		return nil, contracts.Errorf(contracts.CodeIO, "cannot make a temporary object directory in %s: %v", s.Repository.CommonDir, err)
	}
	ins.quarantine = q
	objects, err := q.OpenBatch(ctx)
	if err != nil {
		ins.Close()
		return nil, operations.GitError(err)
	}
	ins.objects = objects
	base, err := objects.Read([]string{s.Base + "^{tree}"})
	if err != nil {
		ins.Close()
		return nil, operations.GitError(err)
	}
	if base[0].ID == "" {
		ins.Close()
		return nil, contracts.Errorf(contracts.CodeSessionStale, "session %s is broken: its base commit %.12s is gone from %s; its files are kept in %s",
			s.ID, s.Base, s.Repository.CommonDir, s.Worktree).WithDetails(map[string]any{"session": s.ID, "worktree": s.Worktree})
	}
	if ins.capture, err = captureSession(ctx, env, s, q, opt.IncludeIgnored); err != nil {
		ins.Close()
		return nil, err
	}
	if err := ins.compare(ctx, env, s); err != nil {
		ins.Close()
		return nil, err
	}
	if err := checkBounds(ctx, env, s, q, ins.Changes); err != nil {
		ins.Close()
		return nil, err
	}
	return ins, nil
}

// compare fills in what the captured tree changes, inside the subtree
// and outside it.
func (ins *Inspection) compare(ctx context.Context, env operations.Env, s *contracts.Session) error {
	c := ins.capture
	ins.Tree = c.tree
	outside, err := checkBoundary(ctx, ins.quarantine, ins.objects, s, c.tree)
	if err != nil {
		return err
	}
	for _, p := range c.outside {
		if !slices.Contains(outside, p) {
			outside = append(outside, p)
		}
	}
	if outside, err = addStray(s, c, outside); err != nil {
		return err
	}
	for _, p := range c.ignored {
		if inSubtree(p, s.Subtree) {
			ins.Ignored = append(ins.Ignored, p)
		} else {
			outside = append(outside, p)
		}
	}
	ins.Outside = outside
	ins.Changes, err = ins.objects.DiffTrees(s.Base+"^{tree}", c.tree)
	if errors.Is(err, git.ErrUnusualTree) {
		ins.Changes, err = ins.quarantine.DiffTrees(ctx, s.Base, c.tree, true)
	}
	c.changes = ins.Changes
	return operations.GitError(err)
}

// Empty reports a session that holds nothing: no change, no ignored or
// outside file, no nested repository.
func (ins *Inspection) Empty() bool {
	return ins.Nested == "" && len(ins.Changes) == 0 && len(ins.Ignored) == 0 && len(ins.Outside) == 0
}

// accept moves the captured objects into the home repository: after
// every check, before anything there names them.
func (ins *Inspection) accept(s *contracts.Session) error {
	if err := ins.quarantine.Migrate(); err != nil {
		return contracts.Errorf(contracts.CodeIO, "cannot store the session's files in %s: %v; the session is kept in %s", s.Repository.CommonDir, err, s.Worktree).
			WithDetails(map[string]any{"session": s.ID})
	}
	return nil
}

// Close releases the inspection's object reader and capture index, and
// discards the objects it did not accept.
func (ins *Inspection) Close() {
	if ins.capture != nil {
		ins.capture.discard()
	}
	if ins.objects != nil {
		ins.objects.Close()
	}
	if ins.quarantine != nil {
		ins.quarantine.Remove()
	}
}
