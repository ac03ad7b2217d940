package staged

import (
	"context"
	"errors"
	"path"
	"slices"
	"strings"

	"github.com/git-context-tree/git-context-tree/internal/adapters/git"
)

// headProject reads, while the commit's diff runs, the project as HEAD
// holds it: the configuration, its trees and HEAD's entry at each (for the
// verified-trees check). Everything is asked of the running cat-file, so
// no process starts between the answers: the trees holding the
// configuration's candidates tell their modes (a symlinked configuration
// is invalid) and blobs, as `git ls-tree` would list them. It changes
// nothing in r.
func (r *run) headProject(ctx context.Context, candidates []string, objects *git.Batch) (*project, error) {
	listed, err := headCandidates(candidates, objects)
	if err != nil {
		// A name cat-file cannot be asked or a tree not in git's own form:
		// git lists them.
		if listed, err = r.g.HeadEntries(ctx, r.top, candidates...); err != nil {
			return nil, gitErr(err)
		}
	}
	pr, err := r.project(candidates, listed, objects)
	if err == nil && len(pr.trees) > 0 {
		pr.heads, err = r.headsByObjects(ctx, pr.trees, objects)
	}
	return pr, err
}

// errAskGit is a question the cat-file tree reader leaves to git.
var errAskGit = errors.New("a path cat-file cannot be asked")

// headCandidates lists HEAD's entries at the candidates (repository-
// relative paths) as `git ls-tree HEAD -- <candidates>` does, from the
// trees holding them: nothing under a directory HEAD holds as a file,
// symlink or submodule, nothing at all before the first commit.
func headCandidates(candidates []string, objects *git.Batch) ([]git.IndexEntry, error) {
	names := make([]string, len(candidates))
	for i, c := range candidates {
		if strings.ContainsAny(c, "\n") {
			return nil, errAskGit
		}
		names[i] = "HEAD:" + path.Dir(c)
		if path.Dir(c) == "." {
			names[i] = "HEAD^{tree}"
		}
	}
	_, trees, err := objects.Trees(names)
	if err != nil {
		return nil, err
	}
	var listed []git.IndexEntry // in path order, as git lists them
	for i, c := range candidates {
		base := path.Base(c)
		for _, it := range trees[i] {
			if it.Name == base {
				listed = append(listed, git.IndexEntry{Mode: it.Mode, ID: it.ID, Path: c})
				break
			}
		}
	}
	slices.SortFunc(listed, func(a, b git.IndexEntry) int { return strings.Compare(a.Path, b.Path) })
	return listed, nil
}

// headsByObjects is lookupHeads through cat-file: a tree's id and type
// for each prefix ("HEAD^{tree}" for the repository's root). A prefix HEAD
// does not hold as an object here (nothing there, or a submodule's
// gitlink, whose commit is another repository's) is looked up with
// ls-tree, which tells them apart.
func (r *run) headsByObjects(ctx context.Context, trees []declared, objects *git.Batch) (map[string]git.IndexEntry, error) {
	names := make([]string, len(trees))
	for i, t := range trees {
		if strings.ContainsAny(t.prefix, "\n") {
			return r.lookupHeads(ctx, trees)
		}
		names[i] = "HEAD:" + t.prefix
		if t.prefix == "." {
			names[i] = "HEAD^{tree}"
		}
	}
	found, err := objects.Read(names)
	if err != nil {
		return nil, gitErr(err)
	}
	heads := map[string]git.IndexEntry{}
	var unknown []declared
	for i, t := range trees {
		switch o := found[i]; {
		case o.ID == "" && t.prefix != ".":
			unknown = append(unknown, t)
		case o.ID == "":
			// no HEAD yet: nothing there
		case o.Type == "tree":
			heads[t.prefix] = git.IndexEntry{Mode: "040000", ID: o.ID, Path: t.prefix}
		case o.Type == "commit": // a gitlink to a commit this repository also has
			heads[t.prefix] = git.IndexEntry{Mode: "160000", ID: o.ID, Path: t.prefix}
		default:
			heads[t.prefix] = git.IndexEntry{Mode: "?" + o.Type, ID: o.ID, Path: t.prefix} // not a tree: never verified
		}
	}
	if len(unknown) > 0 {
		more, err := r.lookupHeads(ctx, unknown)
		if err != nil {
			return nil, err
		}
		for p, e := range more {
			heads[p] = e
		}
	}
	return heads, nil
}
