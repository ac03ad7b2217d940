package session

import (
	"context"
	"os"
	"path/filepath"
	"strings"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/adapters/git"
	"github.com/git-context-tree/git-context-tree/internal/operations"
)

// sessionCapture is a session's work tree as the tool read it: a tree
// object built in the home repository from the subtree's files on disk
// (the base tree beside it), through an index file that only the tool
// writes, and the paths changed outside the subtree. Nothing the session's own git did
// (its index and its flags, its refs, replace refs, hooks or config) takes
// part; what finish verifies and commits is exactly this tree. The blobs
// and trees git writes for it go into the inspection's quarantine, not the
// home repository's objects: a file refused by any check (too large, not
// verifying, outside the tree) never reaches them.
type sessionCapture struct {
	tree    string           // the work tree's content as a tree object
	ignored []string         // ignored untracked paths ("dir/" for a directory)
	outside []string         // other paths changed outside the subtree (not staged)
	index   string           // the capture's own index file
	changes []git.TreeChange // what the tree changes from the base, once checked
	wt      git.WorkTree
}

// captureSession stages the session's subtree into a new index of the
// base tree and writes it as a tree, listing what changed outside the
// subtree without staging it. The index holds no file stamps,
// so git hashes every file: an edit that kept a file's size and time
// cannot pass for unchanged. With includeIgnored, ignored files inside the
// tree are staged too.
func captureSession(ctx context.Context, env operations.Env, s *contracts.Session, q *git.Quarantine, includeIgnored bool) (*sessionCapture, error) {
	idx, err := newCaptureIndex(env, s)
	if err != nil {
		return nil, err
	}
	c := &sessionCapture{index: idx, wt: git.WorkTree{GitDir: s.Repository.CommonDir, Dir: s.Worktree, Index: idx, Quarantine: q}}
	if err := startCaptureIndex(ctx, env, s, c.wt); err != nil {
		c.discard()
		return nil, err
	}
	if c.ignored, err = env.Git.IgnoredUntracked(ctx, c.wt); err != nil {
		c.discard()
		return nil, operations.GitError(err)
	}
	var force []string
	if includeIgnored {
		for _, p := range c.ignored {
			if inSubtree(p, s.Subtree) {
				force = append(force, strings.TrimSuffix(p, "/"))
			}
		}
	}
	// Changes outside the subtree are listed, compared in memory, and
	// never staged: finish refuses them, and their content must not reach
	// the home repository's objects (S13: finish stages only its subtree).
	if c.outside, err = env.Git.PendingOutside(ctx, c.wt, s.Subtree); err != nil {
		c.discard()
		return nil, operations.GitError(err)
	}
	if err := env.Git.AddSubtree(ctx, c.wt, s.Subtree, force); err != nil {
		c.discard()
		return nil, operations.GitError(err)
	}
	if c.tree, err = env.Git.WriteTree(ctx, c.wt); err != nil {
		c.discard()
		return nil, operations.GitError(err)
	}
	return c, nil
}

// startCaptureIndex fills a new capture index with the base tree: a copy
// of the base index made at prepare when there is one for the session's
// current base, else read from the base tree (and, for a sparse session,
// its entries outside the subtree marked skip-worktree).
func startCaptureIndex(ctx context.Context, env operations.Env, s *contracts.Session, w git.WorkTree) error {
	// A base index that is missing, or is or lies behind a symlink, is
	// made again from the base tree.
	if base, err := baseIndexPath(env, s); err == nil {
		if err := copyFile(env.Home, base, w.Index); err == nil {
			return nil
		}
		os.Remove(w.Index)
	}
	return fillBaseIndex(ctx, env, s, w)
}

// fillBaseIndex reads the base tree into w's index, without file stamps.
func fillBaseIndex(ctx context.Context, env operations.Env, s *contracts.Session, w git.WorkTree) error {
	if err := env.Git.ReadTree(ctx, w, s.Base+"^{tree}"); err != nil {
		return operations.GitError(err)
	}
	if err := skipOutside(ctx, env, s, w); err != nil {
		return operations.GitError(err)
	}
	return nil
}

// baseIndexPath names the session's base index in the tool's state, beside
// its record: an index of the base tree as fillBaseIndex makes it, which
// every capture of that base starts from as a copy. Its name holds the
// base, so a session moved onto another base (write update) reads its new
// base instead. Only the tool writes it, as it writes the record that
// names the base; no git command run in the session sees it.
func baseIndexPath(env operations.Env, s *contracts.Session) (string, error) {
	dir, err := env.Home.Dir("sessions")
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, s.ID+".base."+s.Base), nil
}

// writeBaseIndex makes the session's base index for its current base, once
// (at prepare and after an update), so that finish need not read the base
// tree. It is built under a capture index's name (removed as stale if this
// run is killed) and renamed into place whole. Failing only costs finish
// that read.
func writeBaseIndex(ctx context.Context, env operations.Env, s *contracts.Session) {
	base, err := baseIndexPath(env, s)
	if err != nil {
		return
	}
	removeBaseIndexes(env, s.ID)
	tmp, err := newCaptureIndex(env, s)
	if err != nil {
		return
	}
	w := git.WorkTree{GitDir: s.Repository.CommonDir, Dir: s.Worktree, Index: tmp}
	// git writes the index readable by all; the tool's state is private.
	if fillBaseIndex(ctx, env, s, w) != nil || os.Chmod(tmp, 0o600) != nil || os.Rename(tmp, base) != nil {
		os.Remove(tmp)
	}
}

// removeBaseIndexes removes a session's base indexes (of any base).
func removeBaseIndexes(env operations.Env, id string) {
	dir, err := env.Home.Dir("sessions")
	if err != nil {
		return
	}
	old, _ := filepath.Glob(filepath.Join(dir, id+".base.*"))
	for _, p := range old {
		os.Remove(p)
	}
}

// discard removes the capture's index file.
func (c *sessionCapture) discard() {
	if c.index != "" {
		os.Remove(c.index)
		c.index = ""
	}
}

// newCaptureIndex names a new index file in the tool's state, never in the
// session's .git, so no git command run in the session can set flags
// (assume-unchanged, skip-worktree, intent-to-add) on what finish stages.
// Each capture has its own, so a capture killed half-way leaves no lock
// on the next one's; files left by killed runs are removed (the session
// lock is held: no other run of this session is alive).
func newCaptureIndex(env operations.Env, s *contracts.Session) (string, error) {
	dir, err := env.Home.Dir("sessions")
	if err != nil {
		return "", err
	}
	prefix := filepath.Join(dir, s.ID+".index")
	if old, _ := filepath.Glob(prefix + "*"); len(old) > 0 {
		for _, p := range old {
			os.Remove(p)
		}
	}
	f, err := os.CreateTemp(dir, s.ID+".index.*")
	if err != nil {
		return "", contracts.Errorf(contracts.CodeIO, "cannot create the session's index: %v", err)
	}
	name := f.Name()
	f.Close()
	// git refuses an empty file as an index: read-tree creates it anew.
	os.Remove(name)
	return name, nil
}
