package session

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/adapters/git"
	"github.com/git-context-tree/git-context-tree/internal/operations"
)

// writeSessionFiles applies changes between two trees of the session's
// subtree to its files: changed files are written from their new blobs
// (read by id in the home repository), deleted ones removed with the
// directories they leave empty. Nothing is written through a symlink:
// a path whose directory on disk is not a real directory below the
// content root is refused, leaving the files written so far.
func writeSessionFiles(ctx context.Context, env operations.Env, s *contracts.Session, changes []git.TreeChange) error {
	if len(changes) == 0 {
		return nil
	}
	objects, err := env.Git.OpenRepoBatch(ctx, s.Repository.CommonDir)
	if err != nil {
		return operations.GitError(err)
	}
	defer objects.Close()
	// Every write goes through the work tree opened as an os.Root: a
	// directory the agent swaps for a symlink between the check and the
	// write (its own files, or any parent up to the tree) cannot take a
	// write or a removal outside the work tree.
	root, err := os.OpenRoot(s.Worktree)
	if err != nil {
		return contracts.Errorf(contracts.CodeSessionMoved, "cannot open the session's work tree %s: %v", s.Worktree, err).
			WithDetails(map[string]any{"session": s.ID, "worktree": s.Worktree})
	}
	defer root.Close()
	base, err := filepath.Rel(s.Worktree, s.ContentRoot)
	if err != nil || !filepath.IsLocal(base) && base != "." {
		return contracts.Errorf(contracts.CodeSessionMoved, "the session's tree %s is not inside its work tree %s", s.ContentRoot, s.Worktree)
	}
	for _, ch := range changes {
		if err := writeSessionFile(objects, root, base, s, ch); err != nil {
			return err
		}
	}
	return nil
}

// writeSessionFile applies one change to the file at base/ch.Path in the
// work tree root.
func writeSessionFile(objects *git.Batch, root *os.Root, base string, s *contracts.Session, ch git.TreeChange) error {
	path := filepath.Join(s.ContentRoot, filepath.FromSlash(ch.Path))
	name := filepath.Join(base, filepath.FromSlash(ch.Path))
	moved := func(err error) error {
		return contracts.Errorf(contracts.CodeSessionMoved, "cannot write %s in the session: %v; nothing more was written", ch.Path, err).
			WithDetails(map[string]any{"session": s.ID, "path": joinSubtree(s.Subtree, ch.Path)})
	}
	if err := realDirs(s.Worktree, filepath.Dir(path)); err != nil {
		return moved(err)
	}
	if err := removeIn(root, name); err != nil {
		return moved(err)
	}
	if ch.NewMode == "000000" {
		removeEmptyDirs(root, base, filepath.Dir(name))
		return nil
	}
	objs, err := objects.Read([]string{ch.NewID})
	if err != nil || objs[0].ID == "" {
		return contracts.Errorf(contracts.CodeGit, "cannot read %s (%s) from %s: %v", ch.Path, ch.NewID, s.Repository.CommonDir, err)
	}
	if err := placeIn(root, name, ch.NewMode, objs[0].Data); err != nil {
		return moved(err)
	}
	return nil
}

// removeIn removes the file or directory name in root, never anything
// outside it.
func removeIn(root *os.Root, name string) error {
	err := root.Remove(name)
	if err == nil || errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return root.RemoveAll(name)
}

// placeIn writes data at name in root as a file of the git mode (a
// symlink for 120000), making its directories; nothing lands outside
// root, whatever symlinks lie on the way.
func placeIn(root *os.Root, name, mode string, data []byte) error {
	if err := root.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		return err
	}
	switch mode {
	case "120000":
		return root.Symlink(string(data), name)
	case "100755":
		return root.WriteFile(name, data, 0o755)
	}
	return root.WriteFile(name, data, 0o644)
}

// realDirs checks that every existing directory from root down to dir is
// a real directory (no symlink, no file in the way).
func realDirs(root, dir string) error {
	rel, err := filepath.Rel(root, dir)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return errors.New("it lies outside the tree")
	}
	p := root
	for _, seg := range append([]string{"."}, strings.Split(rel, string(filepath.Separator))...) {
		p = filepath.Join(p, seg)
		fi, err := os.Lstat(p)
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil {
			return err
		}
		if !fi.IsDir() {
			return errors.New(p + " is not a directory")
		}
	}
	return nil
}

// removeEmptyDirs removes dir (a name in root) and its parents up to (not
// including) base while they are empty.
func removeEmptyDirs(root *os.Root, base, dir string) {
	for dir != base && dir != "." && filepath.IsLocal(dir) {
		if root.Remove(dir) != nil {
			return
		}
		dir = filepath.Dir(dir)
	}
}
