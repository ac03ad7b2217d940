package staged

import (
	"context"
	"strings"

	"github.com/git-context-tree/git-context-tree/internal/adapters/git"
)

// headProject reads, while the commit's diff runs, the project as HEAD
// holds it: the configuration, its trees and HEAD's entry at each (for the
// verified-trees check). Names are asked of the running cat-file
// ("HEAD:<path>", "HEAD^{tree}"), so no process starts between the
// answers; the one thing cat-file cannot tell, a path's mode (a symlinked
// configuration is invalid), comes from an ls-tree started at once beside
// it, and when that listing disagrees, the project is read from it as
// project does. It changes nothing in r.
func (r *run) headProject(ctx context.Context, candidates []string, objects *git.Batch) (*project, error) {
	modes := async(func() ([]git.IndexEntry, error) { return r.g.HeadEntries(ctx, r.top, candidates...) })
	fromListing := func() (*project, error) {
		listed, err := modes.wait()
		if err != nil {
			return nil, gitErr(err)
		}
		pr, err := r.project(candidates, listed, objects)
		if err == nil && len(pr.trees) > 0 {
			pr.heads, err = r.lookupHeads(ctx, pr.trees)
		}
		return pr, err
	}
	names := make([]string, len(candidates))
	for i, c := range candidates {
		if strings.ContainsAny(c, "\n") {
			return fromListing() // not a name cat-file can be asked
		}
		names[i] = "HEAD:" + c
	}
	found, err := objects.Read(names)
	if err != nil {
		modes.wait()
		return nil, gitErr(err)
	}
	nearest := -1
	for i, o := range found {
		if o.ID != "" {
			nearest = i
			break
		}
	}
	if nearest < 0 {
		// No candidate in HEAD (or no HEAD): as the listing says.
		if listed, err := modes.wait(); err != nil || len(listed) > 0 {
			return fromListing()
		}
		return &project{}, nil
	}
	entry := git.IndexEntry{Mode: "100644", ID: found[nearest].ID, Path: candidates[nearest]}
	pr, perr := r.configProject(entry, found[nearest].Data)
	if perr == nil && len(pr.trees) > 0 {
		pr.heads, perr = r.headsByObjects(ctx, pr.trees, objects)
	}
	// The listing must agree: the same nearest candidate, the same blob,
	// a regular file.
	listed, err := modes.wait()
	if err != nil {
		return nil, gitErr(err)
	}
	e, ok := git.NewIndex(listed).Lookup(entry.Path)
	if !ok || e.ID != entry.ID || (e.Mode != "100644" && e.Mode != "100755") || firstListed(candidates, listed) != entry.Path {
		return fromListing()
	}
	if pr != nil {
		pr.cfgEntry.Mode = e.Mode
	}
	return pr, perr
}

// firstListed is the nearest candidate a listing holds.
func firstListed(candidates []string, listed []git.IndexEntry) string {
	ix := git.NewIndex(listed)
	for _, c := range candidates {
		if _, ok := ix.Lookup(c); ok {
			return c
		}
	}
	return ""
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
