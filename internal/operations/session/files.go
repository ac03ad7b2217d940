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

// writeSessionFiles changes the files of the session's subtree from the
// tree from to the tree to (both read by id in the home repository):
// changed files are written from their blobs, deleted ones removed with
// the directories they leave empty. Nothing is written through a symlink:
// a path whose directory on disk is not a real directory below the
// content root is refused, leaving the files written so far.
func writeSessionFiles(ctx context.Context, env operations.Env, s *contracts.Session, from, to string) error {
	home := s.Repository.CommonDir
	changes, err := env.Git.DiffTrees(ctx, home, from, to, true)
	if err != nil || len(changes) == 0 {
		return operations.GitError(err)
	}
	objects, err := env.Git.OpenRepoBatch(ctx, home)
	if err != nil {
		return operations.GitError(err)
	}
	defer objects.Close()
	for _, ch := range changes {
		if err := writeSessionFile(objects, s, ch); err != nil {
			return err
		}
	}
	return nil
}

func writeSessionFile(objects *git.Batch, s *contracts.Session, ch git.TreeChange) error {
	path := filepath.Join(s.ContentRoot, filepath.FromSlash(ch.Path))
	if err := realDirs(s.ContentRoot, filepath.Dir(path)); err != nil {
		return contracts.Errorf(contracts.CodeSessionMoved, "cannot write %s in the session: %v; nothing more was written", ch.Path, err).
			WithDetails(map[string]any{"session": s.ID, "path": joinSubtree(s.Subtree, ch.Path)})
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		if err := os.RemoveAll(path); err != nil {
			return contracts.Errorf(contracts.CodeIO, "cannot replace %s in the session: %v", path, err)
		}
	}
	if ch.NewMode == "000000" {
		removeEmptyDirs(s.ContentRoot, filepath.Dir(path))
		return nil
	}
	objs, err := objects.Read([]string{ch.NewID})
	if err != nil || objs[0].ID == "" {
		return contracts.Errorf(contracts.CodeGit, "cannot read %s (%s) from %s: %v", ch.Path, ch.NewID, s.Repository.CommonDir, err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return contracts.Errorf(contracts.CodeIO, "cannot write %s: %v", path, err)
	}
	switch ch.NewMode {
	case "120000":
		err = os.Symlink(string(objs[0].Data), path)
	case "100755":
		err = os.WriteFile(path, objs[0].Data, 0o755)
	default:
		err = os.WriteFile(path, objs[0].Data, 0o644)
	}
	if err != nil {
		return contracts.Errorf(contracts.CodeIO, "cannot write %s: %v", path, err)
	}
	return nil
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

// removeEmptyDirs removes dir and its parents up to (not including) root
// while they are empty.
func removeEmptyDirs(root, dir string) {
	for dir != root && strings.HasPrefix(dir, root+string(filepath.Separator)) {
		if os.Remove(dir) != nil {
			return
		}
		dir = filepath.Dir(dir)
	}
}
