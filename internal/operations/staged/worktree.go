package staged

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/adapters/git"
	"github.com/git-context-tree/git-context-tree/internal/sources"
	"github.com/git-context-tree/git-context-tree/internal/tree"
)

// workTreeProject reads the configuration from the work tree, nearest
// candidate first, for a commit whose index holds none: the usual first
// commit after `init` + `hooks install` stages the tree and forgets the
// configuration, and judging nothing then would let a broken tree in
// (issue 15). It returns nil when the work tree has none either. The file
// is read as discovery reads it: a symlink or an invalid file is refused.
func (r *run) workTreeProject(candidates []string) (*project, error) {
	for _, c := range candidates {
		file := filepath.Join(r.top, filepath.FromSlash(c))
		if _, err := os.Lstat(file); errors.Is(err, fs.ErrNotExist) {
			continue
		}
		cfg, err := sources.LoadConfig(file)
		if err != nil {
			return nil, err
		}
		p := &sources.Project{Checkout: r.top, Root: filepath.Dir(file), ConfigFile: file, Config: cfg}
		conns, err := p.Connections()
		if err != nil {
			return nil, err
		}
		return &project{cfgEntry: git.IndexEntry{Path: c}, cfg: cfg, trees: r.declaredTrees(conns), uncommitted: file}, nil
	}
	return nil, nil
}

// uncommittedWarning tells the user the configuration the check used is
// not in the commit.
func uncommittedWarning(top, file string) string {
	rel, err := filepath.Rel(top, file)
	if err != nil {
		rel = file
	}
	return rel + " is not committed: the trees it declares in the work tree were verified; stage it (git add " + rel + ") so that the commit declares them"
}

// Declared is what the index declares for the pre-commit check, as `hooks
// status` reports it.
type Declared struct {
	// Trees counts the directory trees the index's configuration declares
	// inside this repository.
	Trees int
	// Staged says whether the index holds a configuration at all.
	Staged bool
	// Uncommitted is the work tree's configuration when the index holds
	// none ("" otherwise).
	Uncommitted string
}

// IndexDeclares reads the project configuration from the index of the
// repository at dir and counts the trees it declares in the repository.
func IndexDeclares(ctx context.Context, g *git.Git, dir string) (*Declared, error) {
	loc, err := g.LocateIndex(ctx, dir)
	if err != nil {
		return nil, gitErr(err)
	}
	if loc == nil {
		return nil, contracts.Errorf(contracts.CodeNoRepository, "%s is not in a git work tree", dir)
	}
	r := &run{g: g, dir: dir, top: tree.RealPath(loc.Top), commonDir: loc.CommonDir}
	changed, err := g.StagedChanges(ctx, dir, false, nil)
	if err != nil {
		return nil, gitErr(err)
	}
	if r.objects, err = g.OpenBatch(ctx, dir); err != nil {
		return nil, gitErr(err)
	}
	defer r.objects.Close()
	candidates := r.configCandidates()
	pr, err := r.stagedProject(ctx, candidates, changed)
	if err != nil {
		return nil, err
	}
	d := &Declared{Trees: len(pr.trees), Staged: pr.cfg != nil}
	if pr.cfg == nil {
		// The work tree's may be invalid: status reports it all the same.
		for _, c := range candidates {
			file := filepath.Join(r.top, filepath.FromSlash(c))
			if _, err := os.Lstat(file); err == nil {
				d.Uncommitted = file
				break
			}
		}
	}
	return d, nil
}
