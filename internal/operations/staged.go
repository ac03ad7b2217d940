package operations

import (
	"context"
	"errors"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/adapters/git"
	"github.com/git-context-tree/git-context-tree/internal/sources"
	"github.com/git-context-tree/git-context-tree/internal/tree"
)

// VerifyStaged verifies every tree the project declares inside this
// repository exactly as the index holds it: what is being committed,
// partial commits included (the inherited GIT_INDEX_FILE is the index
// read; intent-to-add entries, which a commit leaves out, are left out).
// The project configuration is read from the index too. It never writes
// the index or the work tree. When nothing staged lies in a declared tree
// and the configuration is unchanged, it parses nothing.
// Otherwise each document's result comes from the staged cache when its
// path and blob were verified before (see staged_cache.go).
func VerifyStaged(ctx context.Context, env Env) (*contracts.VerifyReport, error) {
	// The object reader starts while the index is located and read.
	type opened struct {
		b   *git.Batch
		err error
	}
	batch := make(chan opened, 1)
	go func() {
		b, err := env.Git.OpenBatch(ctx, env.Dir)
		batch <- opened{b, err}
	}()
	defer func() {
		if o := <-batch; o.b != nil {
			o.b.Close()
		}
	}()
	loc, err := env.Git.LocateIndex(ctx, env.Dir)
	if err != nil {
		return nil, gitErr(err)
	}
	if loc == nil {
		return nil, contracts.Errorf(contracts.CodeNoRepository, "verify --staged needs a git work tree; %s is not in one", env.Dir)
	}
	top := realPath(loc.Top)
	o := <-batch
	batch <- o // for the deferred Close
	if o.err != nil {
		return nil, gitErr(o.err)
	}
	objects := o.b
	s := &stagedRun{env: env, top: top, objects: objects}
	rep := &contracts.VerifyReport{SchemaVersion: contracts.CLIVersion, OK: true, Trees: []contracts.TreeReport{}}
	// The project is found in the index, never from the work tree: an
	// unstaged (even invalid) configuration does not count, and neither
	// does an untracked one.
	// One diff lists what this commit changes; an unchanged configuration is
	// read from HEAD, so the fast path never loads the whole index twice.
	changed, err := env.Git.StagedChanges(ctx, top, false, nil)
	if err != nil {
		return nil, gitErr(err)
	}
	cfgEntry, cfg, err := s.config(ctx, changed)
	if err != nil {
		return nil, err
	}
	if cfg == nil {
		rep.Note = "no " + contracts.ConfigFile + " is staged: this commit declares no trees"
		return rep, nil
	}
	cfgFile := filepath.Join(top, filepath.FromSlash(cfgEntry.Path))
	p := &sources.Project{Checkout: top, Root: filepath.Dir(cfgFile), ConfigFile: cfgFile, Config: cfg}
	conns, err := p.Connections()
	if err != nil {
		return nil, err
	}
	trees := stagedTrees(top, conns)
	if len(trees) == 0 {
		rep.Note = "the project declares no tree inside this repository"
		return rep, nil
	}
	if !touches(changed, cfgEntry.Path, trees) {
		rep.Note = "nothing staged in a declared tree"
		return rep, nil
	}
	// Only now is the whole index listed: the fast path above never does.
	intentToAdd, err := s.intentToAdd(ctx, changed, cfgEntry, trees)
	if err != nil {
		return nil, err
	}
	if s.ix, err = env.Git.ReadIndex(ctx, top); err != nil {
		return nil, gitErr(err)
	}
	s.ix.Drop(intentToAdd)
	s.cache = openStagedCache(loc.CommonDir)
	for _, t := range trees {
		tr, err := s.verifyTree(ctx, t)
		if err != nil {
			return nil, err
		}
		if tr == nil {
			continue // in a submodule: committed in its own repository
		}
		rep.Trees = append(rep.Trees, *tr)
		rep.OK = rep.OK && tr.OK
	}
	s.cache.save()
	return rep, nil
}

// stagedRun is one verify --staged: the index read once, one cat-file
// process for every object it needs.
type stagedRun struct {
	env     Env
	top     string
	ix      *git.Index
	objects *git.Batch
	cache   *stagedCache
}

// stagedTree is a declared directory tree inside the repository.
type stagedTree struct {
	prefix string // repository-relative, "." for the whole repository
	conn   sources.Connection
}

func stagedTrees(top string, conns []sources.Connection) []stagedTree {
	var trees []stagedTree
	for _, c := range conns {
		if c.Source.Kind != contracts.SourceDirectory {
			continue // git sources are committed in their own repositories
		}
		if rel, ok := repoRelative(top, c.Dir); ok {
			trees = append(trees, stagedTree{prefix: rel, conn: c})
		}
	}
	return trees
}

// repoRelative turns an absolute path into a repository-relative one.
func repoRelative(top, abs string) (string, bool) {
	rel, err := filepath.Rel(top, realPath(abs))
	if err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

// config reads the project configuration as staged: the index entry
// nearest to the command's directory, from there up to the top of the work
// tree (as discovery walks the disk). cfg is nil when no configuration is
// in the index.
func (s *stagedRun) config(ctx context.Context, changed []string) (git.IndexEntry, *contracts.Config, error) {
	candidates := []string{contracts.ConfigFile}
	if r, ok := repoRelative(s.top, s.env.Dir); ok {
		candidates = candidates[:0]
		for d := r; ; d = path.Dir(d) {
			candidates = append(candidates, path.Join(d, contracts.ConfigFile))
			if d == "." {
				break
			}
		}
	}
	// A candidate the commit does not change is the same in HEAD, which git
	// reads without loading the index.
	listed, err := s.env.Git.HeadEntries(ctx, s.top, candidates...)
	if slices.ContainsFunc(candidates, func(c string) bool { return slices.Contains(changed, c) }) {
		listed, err = s.env.Git.IndexEntries(ctx, s.top, candidates...)
	}
	if err != nil {
		return git.IndexEntry{}, nil, gitErr(err)
	}
	found := git.NewIndex(listed)
	for _, c := range candidates {
		e, ok := found.Lookup(c)
		if !ok {
			continue
		}
		file := filepath.Join(s.top, filepath.FromSlash(c))
		if e.Mode != "100644" && e.Mode != "100755" {
			return e, nil, contracts.Errorf(contracts.CodeConfigInvalid, "invalid project configuration %s (staged): it is staged as a symlink or submodule, not a regular file", file).
				WithDetails(map[string]any{"file": file})
		}
		var data []byte
		err := s.objects.Objects([]string{e.ID}, func(_ int, id string, b []byte) error {
			if id == "" {
				return errors.New("the staged configuration's blob " + e.ID + " is missing")
			}
			data = b
			return nil
		})
		if err != nil {
			return e, nil, gitErr(err)
		}
		cfg, err := sources.ParseConfig(file+" (staged)", data)
		return e, cfg, err
	}
	return git.IndexEntry{}, nil, nil
}

// touches reports whether the commit changes the configuration or
// anything in a declared tree.
func touches(changed []string, cfg string, trees []stagedTree) bool {
	for _, p := range changed {
		if p == cfg {
			return true
		}
		for _, t := range trees {
			if inSubtree(p, t.prefix) {
				return true
			}
		}
	}
	return false
}

// intentToAdd lists the entries under the trees added with `git add -N`,
// which a commit leaves out: new in a diff that shows them, absent from
// the one that does not.
func (s *stagedRun) intentToAdd(ctx context.Context, changed []string, cfg git.IndexEntry, trees []stagedTree) ([]string, error) {
	paths := []string{cfg.Path}
	for _, t := range trees {
		paths = append(paths, t.prefix)
	}
	added, err := s.env.Git.StagedChanges(ctx, s.top, true, paths)
	if err != nil {
		return nil, gitErr(err)
	}
	visible := make(map[string]bool, len(changed))
	for _, p := range changed {
		visible[p] = true
	}
	return slices.DeleteFunc(added, func(p string) bool { return visible[p] }), nil
}

// verifyTree verifies one tree from its index entries, each document's
// result cached by path and blob id or computed from its blob.
func (s *stagedRun) verifyTree(ctx context.Context, t stagedTree) (*contracts.TreeReport, error) {
	entries := s.ix.Under(t.prefix)
	if len(entries) == 0 || (len(entries) == 1 && entries[0].Path == t.prefix && entries[0].Mode == "160000") {
		if inOther, err := inOtherRepository(ctx, s.env, s.top, t.conn.Dir); err != nil || inOther {
			return nil, err
		}
	}
	tes := make([]tree.IndexEntry, 0, len(entries))
	var docs []stagedDoc
	for _, e := range entries {
		if e.Path == t.prefix {
			continue // the root itself staged as a file: the tree has no root
		}
		rel := e.Path
		if t.prefix != "." {
			rel = strings.TrimPrefix(e.Path, t.prefix+"/")
		}
		te := tree.IndexEntry{Path: path.Clean(rel), Mode: e.Mode}
		tes = append(tes, te)
		if tree.WantsBlob(te) {
			docs = append(docs, stagedDoc{rel: te.Path, id: e.ID})
		}
	}
	results, err := s.cache.results(docs, s.objects)
	if err != nil {
		return nil, gitErr(err)
	}
	r := tree.VerifyIndexResults(tes, results)
	root := filepath.Join(s.top, filepath.FromSlash(t.prefix))
	return &contracts.TreeReport{Root: root, Selector: t.conn.Exact, OK: r.OK(), Findings: r.Findings, Scanned: r.Scanned}, nil
}

// inOtherRepository reports a tree directory that lies in another
// repository's work tree (a submodule, a nested clone): this repository's
// index does not hold it.
func inOtherRepository(ctx context.Context, env Env, top, dir string) (bool, error) {
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return false, nil
	}
	other, err := env.Git.Toplevel(ctx, git.Isolated, dir)
	if err != nil {
		return false, gitErr(err)
	}
	return other != "" && realPath(other) != top, nil
}
