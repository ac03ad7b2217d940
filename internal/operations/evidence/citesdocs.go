package evidence

import (
	"context"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/adapters/git"
	"github.com/git-context-tree/git-context-tree/internal/operations"
	"github.com/git-context-tree/git-context-tree/internal/sources"
	"github.com/git-context-tree/git-context-tree/internal/tree"
)

// citingDocsOf lists the documents of a tree that cite anything: from
// the cites index of the tree object its commit holds (built on first
// use), with a directory tree's uncommitted documents read from disk in
// their place. A tree that is not in a commit (outside git, or not
// committed yet) is read from disk whole.
func citingDocsOf(ctx context.Context, env operations.Env, t operations.TreeTarget, res *sources.DirectoryResolution, want wantSource) ([]citingDoc, error) {
	var repo git.Repo
	var gitDir string
	switch {
	case t.Snapshot != nil:
		repo, gitDir = git.Repo{GitDir: t.Snapshot.Cache}, t.Snapshot.Cache
	case res.InGit() && res.Head != "":
		repo = git.Repo{Dir: res.RepositoryRoot}
		gitDir = gitDirOf(ctx, env, repo)
	default:
		return diskCiting(t.Root, want)
	}
	docs, found, err := committedCiting(ctx, env, repo, gitDir, res.Head, res.Subtree, want)
	switch {
	case err != nil:
		return nil, err
	case !found && t.Snapshot != nil:
		// A snapshot's documents are its commit's, never its files
		// (which an agent may have changed): a commit without the tree
		// cites nothing.
		return nil, nil
	case !found:
		return diskCiting(t.Root, want) // the tree is not in HEAD yet
	}
	if t.Snapshot == nil && res.Dirty {
		return overlayWorkTree(ctx, env, t.Root, res, docs, want)
	}
	return docs, nil
}

// committedCiting is the index of the tree at subtree of commit: the
// tree's id from the small map kept beside the indexes (else asked of
// git), its index (else built from its objects). found is false when the
// commit has no tree there; a tree that cites nothing wanted is found,
// with no documents.
func committedCiting(ctx context.Context, env operations.Env, repo git.Repo, gitDir, commit, subtree string, want wantSource) (docs []citingDoc, found bool, err error) {
	var objects *git.Batch
	open := func() error {
		if objects != nil {
			return nil
		}
		b, err := env.Git.OpenRepoObjects(ctx, repo)
		if err != nil {
			return operations.GitError(err)
		}
		objects = b
		return nil
	}
	defer func() {
		if objects != nil {
			objects.Close()
		}
	}()
	id := cachedTreeID(gitDir, commit, subtree)
	if id == "" {
		if err := open(); err != nil {
			return nil, false, err
		}
		name := commit + "^{tree}"
		if subtree != "." {
			name = commit + ":" + subtree
		}
		ids, _, err := objects.Trees([]string{name})
		if err != nil {
			return nil, false, operations.GitError(err)
		}
		if id = ids[0]; id == "" {
			return nil, false, nil
		}
		storeTreeID(gitDir, commit, subtree, id)
	}
	if docs, ok := loadCites(gitDir, id, want); ok {
		return docs, true, nil
	}
	if err := open(); err != nil {
		return nil, false, err
	}
	all, err := buildCites(objects, gitDir, id)
	if err != nil {
		return nil, false, operations.GitError(err)
	}
	return filterCites(all, want), true, nil
}

// overlayWorkTree replaces the committed documents a work tree changed,
// added or removed with what the files hold now.
func overlayWorkTree(ctx context.Context, env operations.Env, root string, res *sources.DirectoryResolution, docs []citingDoc, want wantSource) ([]citingDoc, error) {
	changed, err := env.Git.Status(ctx, res.RepositoryRoot, res.Subtree)
	if err != nil {
		return nil, operations.GitError(err)
	}
	touched := map[string]bool{}
	for _, e := range changed {
		if e.Kind == '!' {
			continue
		}
		for _, p := range []string{e.Path, e.Orig} {
			if rel, ok := treeRel(res.Subtree, p); ok && tree.IsDocumentName(path.Base(rel)) && tree.ClassOf(rel) != contracts.ClassInfrastructure {
				touched[rel] = true
			}
		}
	}
	if len(touched) == 0 {
		return docs, nil
	}
	out := slices.DeleteFunc(slices.Clone(docs), func(d citingDoc) bool { return touched[d.rel] })
	var buf []byte
	for rel := range touched {
		data, err := readRegular(&buf, root, rel)
		if err != nil {
			continue // removed, or not a regular file: verify reports it
		}
		if d := parseCiting(rel, data); d != nil {
			out = append(out, filterCites([]citingDoc{*d}, want)...)
		}
	}
	slices.SortFunc(out, func(a, b citingDoc) int { return strings.Compare(a.rel, b.rel) })
	return out, nil
}

// treeRel is a repository path relative to the tree at subtree.
func treeRel(subtree, p string) (string, bool) {
	switch {
	case p == "":
		return "", false
	case subtree == ".":
		return p, true
	case strings.HasPrefix(p, subtree+"/"):
		return p[len(subtree)+1:], true
	}
	return "", false
}

// readRegular reads a document of the tree at root, never through a
// symlink (a symlinked document or directory is a finding, not content).
func readRegular(buf *[]byte, root, rel string) ([]byte, error) {
	for dir := path.Dir(rel); dir != "."; dir = path.Dir(dir) {
		if fi, err := os.Lstat(filepath.Join(root, filepath.FromSlash(dir))); err != nil || !fi.IsDir() {
			return nil, os.ErrNotExist
		}
	}
	return tree.ReadDocumentFile(buf, filepath.Join(root, filepath.FromSlash(rel)))
}

// diskCiting reads every document of a tree outside any commit.
func diskCiting(root string, want wantSource) ([]citingDoc, error) {
	stats, err := tree.ListDocuments(root)
	if err != nil {
		return nil, err
	}
	var out []citingDoc
	var buf []byte
	for _, s := range stats {
		data, err := readRegular(&buf, root, s.Rel)
		if err != nil {
			continue
		}
		if d := parseCiting(s.Rel, data); d != nil {
			out = append(out, filterCites([]citingDoc{*d}, want)...)
		}
	}
	return out, nil
}
