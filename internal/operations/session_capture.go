package operations

import (
	"context"
	"os"
	"path/filepath"
	"strings"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/adapters/git"
)

// sessionCapture is a session's work tree as the tool read it: a tree
// object built in the home repository from the files on disk, through an
// index file that only the tool writes. Nothing the session's own git did
// (its index and its flags, its refs, replace refs, hooks or config) takes
// part; what finish verifies and commits is exactly this tree.
type sessionCapture struct {
	tree    string   // the work tree's content as a tree object
	ignored []string // ignored untracked paths ("dir/" for a directory)
	index   string   // the private index the tree was written from
	wt      git.WorkTree
}

// captureSession stages the whole session work tree into a fresh copy of
// the session's private index and writes it as a tree. With
// includeIgnored, ignored files inside the tree are staged too.
func captureSession(ctx context.Context, env Env, s *contracts.Session, includeIgnored bool) (*sessionCapture, error) {
	idx, err := freshIndex(ctx, env, s)
	if err != nil {
		return nil, err
	}
	c := &sessionCapture{index: idx, wt: git.WorkTree{GitDir: s.Repository.CommonDir, Dir: s.Worktree, Index: idx}}
	if c.ignored, err = env.Git.IgnoredUntracked(ctx, c.wt); err != nil {
		c.discard()
		return nil, gitErr(err)
	}
	var force []string
	if includeIgnored {
		for _, p := range c.ignored {
			if inSubtree(p, s.Subtree) {
				force = append(force, strings.TrimSuffix(p, "/"))
			}
		}
	}
	if err := env.Git.AddAll(ctx, c.wt, force); err != nil {
		c.discard()
		return nil, gitErr(err)
	}
	if c.tree, err = env.Git.WriteTree(ctx, c.wt); err != nil {
		c.discard()
		return nil, gitErr(err)
	}
	return c, nil
}

// discard removes the capture's index file.
func (c *sessionCapture) discard() {
	if c.index != "" {
		os.Remove(c.index)
		c.index = ""
	}
}

// keep makes the capture's index the session's private index, so the next
// capture starts from its file stamps instead of hashing every file.
func (c *sessionCapture) keep(env Env, s *contracts.Session) {
	if p, err := privateIndex(env, s.ID); err == nil && os.Rename(c.index, p) == nil {
		c.index = ""
	}
	c.discard()
}

// privateIndex is where the session's index lives: in the tool's state,
// never in the session's .git, so no git command run in the session can
// set flags (assume-unchanged, skip-worktree, intent-to-add) on it.
func privateIndex(env Env, id string) (string, error) {
	dir, err := env.Home.Dir("sessions")
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, id+".index"), nil
}

// freshIndex copies the private index to a new file for one capture, so a
// capture killed half-way never leaves a lock or a half-written index on
// the one the next run needs. Copies left by killed runs are removed (the
// session lock is held: no other run of this session is alive).
func freshIndex(ctx context.Context, env Env, s *contracts.Session) (string, error) {
	base, err := privateIndex(env, s.ID)
	if err != nil {
		return "", err
	}
	if old, _ := filepath.Glob(base + ".*"); len(old) > 0 {
		for _, p := range old {
			os.Remove(p)
		}
	}
	f, err := os.CreateTemp(filepath.Dir(base), filepath.Base(base)+".*")
	if err != nil {
		return "", contracts.Errorf(contracts.CodeIO, "cannot create the session's index: %v", err)
	}
	tmp := f.Name()
	data, rerr := os.ReadFile(base)
	if rerr == nil {
		_, err = f.Write(data)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(tmp)
		return "", contracts.Errorf(contracts.CodeIO, "cannot copy the session's index: %v", err)
	}
	if rerr != nil {
		// No private index (removed by hand): start from the base tree;
		// git hashes every file once instead of trusting file stamps.
		os.Remove(tmp)
		w := git.WorkTree{GitDir: s.Repository.CommonDir, Dir: s.Worktree, Index: tmp}
		if err := env.Git.ReadTree(ctx, w, s.Base+"^{tree}"); err != nil {
			os.Remove(tmp)
			return "", gitErr(err)
		}
	}
	return tmp, nil
}
