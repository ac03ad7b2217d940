// Package staged is verify --staged, the pre-commit check: every tree the
// project declares inside the repository, verified exactly as the index
// holds it, with a per-document result cache (cache.go) so that a commit
// that stages one document parses one document. All repository work goes
// through host git (internal/adapters/git).
package staged

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

// Verify verifies every tree the project declares inside the repository at
// dir exactly as the index holds it: what is being committed, partial
// commits included (the inherited GIT_INDEX_FILE is the index read;
// intent-to-add entries, which a commit leaves out, are left out). The
// project configuration is read from the index too. It never writes the
// index or the work tree. When nothing staged lies in a declared tree and
// the configuration is unchanged, it parses nothing and lists no index.
//
// The fast path is three git processes: what the commit changes (one diff
// of the whole commit, started first: it is the longest), where the
// repository is (rev-parse) and the object reader (cat-file). While the
// diff runs, HEAD's side is read as if the commit left the configuration
// alone (the trees holding its candidates, its content, its trees and
// what HEAD holds at each, all asked of cat-file: head.go); when the diff
// shows the configuration changed, it is read from the index instead.
//
// With opts.Notes the report carries the commit's evidence notes too
// (evidence.go), at almost no cost beyond the check.
func Verify(ctx context.Context, g *git.Git, dir string, opts Options) (*contracts.VerifyReport, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	// The diff is the longest: started first, as processes start one
	// after another.
	waitChanged, err := g.StartStagedChanges(ctx, dir)
	if err != nil {
		return nil, gitErr(err)
	}
	changedC := async(waitChanged)
	batchC := async(func() (*git.Batch, error) { return g.OpenBatch(ctx, dir) })
	var headC *pending[*project] // uses the batch too
	defer func() {
		cancel()
		changedC.wait()
		if headC != nil {
			headC.wait()
		}
		if b, err := batchC.wait(); err == nil {
			b.Close()
		}
	}()
	loc, err := g.LocateIndex(ctx, dir)
	if err != nil {
		return nil, gitErr(err)
	}
	if loc == nil {
		return nil, contracts.Errorf(contracts.CodeNoRepository, "verify --staged needs a git work tree; %s is not in one", dir)
	}
	r := &run{g: g, dir: dir, top: tree.RealPath(loc.Top), commonDir: loc.CommonDir, gitDir: loc.GitDir}
	candidates := r.configCandidates()
	headC = async(func() (*project, error) {
		objects, err := batchC.wait()
		if err != nil {
			return nil, gitErr(err)
		}
		return r.headProject(ctx, candidates, objects)
	})
	changes, err := changedC.wait()
	if err != nil {
		return nil, gitErr(err)
	}
	changed := git.ChangedPaths(changes)
	if r.objects, err = batchC.wait(); err != nil {
		return nil, gitErr(err)
	}
	rep := &contracts.VerifyReport{SchemaVersion: contracts.CLIVersion, OK: true, Trees: []contracts.TreeReport{}}
	var pr *project
	if slices.ContainsFunc(candidates, func(c string) bool { return slices.Contains(changed, c) }) {
		headC.wait() // done with the batch
		pr, err = r.stagedProject(ctx, candidates, changed)
	} else if pr, err = headC.wait(); err == nil {
		r.heads = pr.heads
	}
	if err != nil {
		return nil, err
	}
	if pr.cfg == nil {
		if pr, err = r.workTreeProject(candidates); err != nil {
			return nil, err
		}
		if pr == nil {
			rep.Note = "no " + contracts.ConfigFile + " is staged or in the work tree: this commit declares no trees"
			return rep, nil
		}
		rep.Warnings = append(rep.Warnings, uncommittedWarning(r.top, pr.uncommitted))
	}
	cfgEntry, trees := pr.cfgEntry, pr.trees
	if len(trees) == 0 {
		rep.Note = "the project declares no tree inside this repository"
		return rep, nil
	}
	if !touches(changed, cfgEntry.Path, trees) {
		// The commit holds HEAD's trees: fine when they verified before
		// (verified.go); HEAD itself may not have been judged.
		if known, err := r.committedTreesVerified(ctx, trees); err != nil {
			return nil, err
		} else if known {
			rep.Note = "nothing staged in a declared tree"
			if r.wantsNotes(opts, changed) {
				if rep.EvidenceNotes, err = r.committedNotes(ctx, trees, changed); err != nil {
					return nil, err
				}
			}
			return rep, nil
		}
	}

	// Something in a tree is staged. A tree the commit only edits in
	// place, as HEAD holds it verified, takes the delta path (delta.go);
	// the others are listed and verified whole.
	notes := r.wantsNotes(opts, changed)
	heads, err := r.headTrees(ctx, trees)
	if err != nil {
		return nil, err
	}
	if r.verified == nil {
		r.verified = openVerified(r.commonDir)
	}
	states, cits := openStates(r.commonDir), openCitations(r.commonDir)
	outcomes := make([]treeOutcome, len(trees))
	var full []int // indexes into trees
	for i, t := range trees {
		head, inHead := heads[t.prefix]
		d := deltaOf(changes, t.prefix)
		outcomes[i] = treeOutcome{head: head, inHead: inHead, delta: d}
		if !inHead || head.Mode != "040000" || opts.noDelta {
			full = append(full, i)
			continue
		}
		r.prove(head.ID, states, cits)
		headCiting, citesKnown := cits.lookup(head.ID)
		if notes && !citesKnown {
			full = append(full, i)
			continue
		}
		tr, results, docs, done, err := r.deltaReport(t, head, d, states)
		if err != nil {
			return nil, err
		}
		if !done {
			full = append(full, i)
			continue
		}
		outcomes[i].report, outcomes[i].citing = tr, headCiting
		if tr.OK {
			states.addPending(pendingOf(head, tr.Scanned, d, citesOfDocs(docs, results)))
		}
		if opts.onDelta != nil {
			opts.onDelta(t.prefix)
		}
	}
	if len(full) > 0 {
		if err := r.verifyWhole(ctx, trees, full, outcomes, changed, states); err != nil {
			return nil, err
		}
	}

	isChanged := changedSet(changed)
	var untouched []citedTree
	for i, t := range trees {
		o := outcomes[i]
		if o.report == nil {
			continue // in a submodule: committed in its own repository
		}
		rep.Trees = append(rep.Trees, *o.report)
		rep.OK = rep.OK && o.report.OK
		if notes {
			rep.EvidenceNotes = append(rep.EvidenceNotes, notesOf(t.prefix, o.citing, isChanged)...)
		}
		// A tree the commit leaves alone holds HEAD's tree: its
		// citations are indexed for the commits that stage no document.
		if o.inHead && o.head.Mode == "040000" && len(o.delta.changes) == 0 && o.delta.local {
			untouched = append(untouched, citedTree{id: o.head.ID, citing: o.citing})
			if o.report.OK {
				states.addScan(o.head.ID, o.report.Scanned)
			}
		}
	}
	rep.EvidenceNotes = sortNotes(rep.EvidenceNotes)
	for _, t := range untouched {
		cits.put(t.id, t.citing)
	}
	cits.save()
	ok := map[string]bool{}
	for i, t := range trees {
		ok[t.prefix] = outcomes[i].report != nil && outcomes[i].report.OK
	}
	r.recordVerified(ctx, changed, trees, ok)
	r.verified.save()
	states.save()
	return rep, nil
}

// treeOutcome is what one declared tree came to in a run.
type treeOutcome struct {
	head   git.IndexEntry // HEAD's entry at the tree's prefix
	inHead bool
	delta  treeDelta
	report *contracts.TreeReport // nil: another repository's (a submodule)
	citing []citation
}

// verifyWhole verifies the trees at indexes full whole: their index
// entries listed, every document's result from the staged cache or its
// blob.
func (r *run) verifyWhole(ctx context.Context, trees []declared, full []int, outcomes []treeOutcome, changed []string, states *treeStates) error {
	prefixes := make([]string, len(full))
	for k, i := range full {
		prefixes[k] = trees[i].prefix
	}
	cacheC := async(func() (*cache, error) { return openCache(r.commonDir), nil })
	listed, err := r.g.IndexEntries(ctx, r.top, prefixes...)
	if err != nil {
		return gitErr(err)
	}
	ix := git.NewIndex(listed)
	if ita, err := r.intentToAdd(ctx, listed, changed, prefixes); err != nil {
		return err
	} else {
		ix.Drop(ita)
	}
	r.cache, _ = cacheC.wait()
	for _, i := range full {
		tr, citing, err := r.verifyTree(ctx, ix, trees[i])
		if err != nil {
			return err
		}
		o := &outcomes[i]
		o.report, o.citing = tr, citing
		if tr != nil && tr.OK && o.inHead && o.head.Mode == "040000" {
			p := pendingOf(o.head, tr.Scanned, o.delta, citesOfCitations(citing))
			p.whole, p.citing = true, citing
			states.addPending(p)
		}
	}
	r.cache.save()
	return nil
}

// run is one verify --staged.
type run struct {
	g         *git.Git
	dir       string
	top       string // the work tree's top, real
	commonDir string
	gitDir    string // this worktree's git dir, "" when unknown
	objects   *git.Batch
	cache     *cache
	heads     map[string]git.IndexEntry // HEAD's entry at each tree's prefix
	verified  *verifiedTrees
}

// declared is a declared directory tree inside the repository.
type declared struct {
	prefix string // repository-relative, "." for the whole repository
	conn   sources.Connection
}

func (r *run) declaredTrees(conns []sources.Connection) []declared {
	var trees []declared
	for _, c := range conns {
		if c.Source.Kind != contracts.SourceDirectory {
			continue // git sources are committed in their own repositories
		}
		if rel, ok := r.declaredPrefix(c.Dir); ok {
			trees = append(trees, declared{prefix: rel, conn: c})
		}
	}
	return trees
}

// configCandidates lists, repository-relative and nearest first, where the
// project configuration may be: from the command's directory up to the
// top of the work tree, as discovery walks the disk.
func (r *run) configCandidates() []string {
	var out []string
	for _, d := range sources.SearchDirs(tree.RealPath(r.dir), r.top) {
		// The directories are real already; the file itself is never
		// resolved (a symlinked configuration is refused, not followed).
		if rel, ok := tree.Inside(r.top, d); ok {
			out = append(out, path.Join(filepath.ToSlash(rel), contracts.ConfigFile))
		}
	}
	if len(out) == 0 {
		out = []string{contracts.ConfigFile}
	}
	return out
}

// project is the configuration a commit holds and the trees it declares
// in the repository.
type project struct {
	cfgEntry git.IndexEntry
	cfg      *contracts.Config // nil when the commit holds none
	trees    []declared
	heads    map[string]git.IndexEntry // HEAD's entry at each tree's prefix, when looked up
	// uncommitted is the work tree's configuration file, read because
	// the commit holds none.
	uncommitted string
}

// stagedProject reads the configuration from the index, for a commit that
// changes one of its candidates.
func (r *run) stagedProject(ctx context.Context, candidates, changed []string) (*project, error) {
	listed, err := r.g.IndexEntries(ctx, r.top, candidates...)
	if err != nil {
		return nil, gitErr(err)
	}
	ita, err := r.intentToAdd(ctx, listed, changed, candidates)
	if err != nil {
		return nil, err
	}
	ix := git.NewIndex(listed)
	ix.Drop(ita)
	return r.project(candidates, ix.Under("."), r.objects)
}

// project reads the configuration from the nearest candidate listed (as
// the index or HEAD holds it) and the trees it declares. It changes
// nothing in r, so it may run beside other work of the run.
func (r *run) project(candidates []string, listed []git.IndexEntry, objects *git.Batch) (*project, error) {
	found := git.NewIndex(listed)
	for _, c := range candidates {
		e, ok := found.Lookup(c)
		if !ok {
			continue
		}
		file := filepath.Join(r.top, filepath.FromSlash(c))
		if e.Mode != "100644" && e.Mode != "100755" {
			return nil, contracts.Errorf(contracts.CodeConfigInvalid, "invalid project configuration %s (staged): it is staged as a symlink or submodule, not a regular file", file).
				WithDetails(map[string]any{"file": file})
		}
		var data []byte
		err := objects.Objects([]string{e.ID}, func(_ int, id string, b []byte) error {
			if id == "" {
				return errors.New("the staged configuration's blob " + e.ID + " is missing")
			}
			data = b
			return nil
		})
		if err != nil {
			return nil, gitErr(err)
		}
		return r.configProject(e, data)
	}
	return &project{}, nil
}

// configProject parses the configuration at entry e, content data, and
// finds the trees it declares in the repository.
func (r *run) configProject(e git.IndexEntry, data []byte) (*project, error) {
	file := filepath.Join(r.top, filepath.FromSlash(e.Path))
	cfg, err := sources.ParseConfig(file+" (staged)", data)
	if err != nil {
		return nil, err
	}
	p := &sources.Project{Checkout: r.top, Root: filepath.Dir(file), ConfigFile: file, Config: cfg}
	conns, err := p.Connections()
	if err != nil {
		return nil, err
	}
	return &project{cfgEntry: e, cfg: cfg, trees: r.declaredTrees(conns)}, nil
}

// touches reports whether the commit changes the configuration or
// anything in a declared tree.
func touches(changed []string, cfg string, trees []declared) bool {
	for _, p := range changed {
		if p == cfg {
			return true
		}
		for _, t := range trees {
			if under(p, t.prefix) {
				return true
			}
		}
	}
	return false
}

// under reports whether a repository-relative path is dir or lies below
// it ("." holds everything).
func under(p, dir string) bool {
	return dir == "." || p == dir || (len(p) > len(dir) && p[len(dir)] == '/' && p[:len(dir)] == dir)
}

// emptyBlobs are the ids of the empty blob (SHA-1 and SHA-256
// repositories): the id git lists for an intent-to-add entry.
var emptyBlobs = []string{
	"e69de29bb2d1d6434b8b29ae775ad8c2e48c5391",
	"473a0f4c3be8a93681a267e3b1e9a7dcda1185436fe141f7749120a303721813",
}

// intentToAdd lists the entries among listed (under paths) added with `git
// add -N`, which a commit leaves out: new in a diff that shows them,
// absent from the one that does not. git lists such an entry with the
// empty blob's id, so the second diff runs only when an entry has it.
func (r *run) intentToAdd(ctx context.Context, listed []git.IndexEntry, changed, paths []string) ([]string, error) {
	if !slices.ContainsFunc(listed, func(e git.IndexEntry) bool {
		return slices.Contains(emptyBlobs, e.ID) || (len(e.ID) != 40 && len(e.ID) != 64)
	}) {
		return nil, nil
	}
	added, err := r.g.StagedChanges(ctx, r.top, true, paths)
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
// result cached by path and blob id or computed from its blob; it returns
// what the tree's documents cite too.
func (r *run) verifyTree(ctx context.Context, ix *git.Index, t declared) (*contracts.TreeReport, []citation, error) {
	entries := ix.Under(t.prefix)
	root := filepath.Join(r.top, filepath.FromSlash(t.prefix))
	if link, err := r.stagedRootSymlink(ctx, entries, t.prefix); err != nil {
		return nil, nil, err
	} else if link != "" {
		return &contracts.TreeReport{Root: root, Selector: t.conn.Exact, Findings: []contracts.Finding{{
			Code: contracts.FindingSymlinkUnsupported, Path: ".",
			Message: "declared tree root: " + link + " is staged as a symlink; a tree root must be a real directory"}}}, nil, nil
	}
	if len(entries) == 0 || (len(entries) == 1 && entries[0].Path == t.prefix && entries[0].Mode == "160000") {
		if inOther, err := r.inOtherRepository(ctx, t.conn.Dir); err != nil || inOther {
			return nil, nil, err
		}
	}
	tes, docs, at := treeEntries(entries, t.prefix)
	found, err := r.cache.results(docs, root, r.objects)
	if err != nil {
		return nil, nil, gitErr(err)
	}
	results := make([]tree.DocResult, len(tes))
	for k, i := range at {
		results[i] = found[k]
	}
	rep := tree.VerifyIndexResults(tes, results)
	return &contracts.TreeReport{Root: root, Selector: t.conn.Exact, OK: rep.OK(), Findings: rep.Findings, Scanned: rep.Scanned},
		citationsOf(docs, found), nil
}

// treeEntries turns a tree's index entries (below prefix) into the
// tree-relative entries verification walks and the documents whose blobs
// it needs: docs[k] is tes[at[k]].
func treeEntries(entries []git.IndexEntry, prefix string) (tes []tree.IndexEntry, docs []doc, at []int) {
	tes = make([]tree.IndexEntry, 0, len(entries))
	docs, at = make([]doc, 0, len(entries)), make([]int, 0, len(entries))
	for _, e := range entries {
		if e.Path == prefix {
			continue // the root itself staged as a file: the tree has no root
		}
		rel := e.Path
		if prefix != "." {
			rel = strings.TrimPrefix(e.Path, prefix+"/")
		}
		te := tree.IndexEntry{Path: rel, Mode: e.Mode}
		if tree.WantsBlob(te) {
			docs = append(docs, doc{rel: te.Path, id: e.ID})
			at = append(at, len(tes))
		}
		tes = append(tes, te)
	}
	return tes, docs, at
}

// inOtherRepository reports a tree directory that lies in another
// repository's work tree (a submodule, a nested clone): this repository's
// index does not hold it.
func (r *run) inOtherRepository(ctx context.Context, dir string) (bool, error) {
	if !isDir(dir) || r.symlinkOnDisk(dir) {
		return false, nil // never followed through a symlink: the index decides
	}
	other, err := r.g.Toplevel(ctx, git.Isolated, dir)
	if err != nil {
		return false, gitErr(err)
	}
	return other != "" && tree.RealPath(other) != r.top, nil
}

func isDir(name string) bool {
	fi, err := os.Stat(name)
	return err == nil && fi.IsDir()
}

func gitErr(err error) error {
	var ce *contracts.Error
	if err == nil || errors.As(err, &ce) {
		return err
	}
	return contracts.Errorf(contracts.CodeGit, "%v", err)
}

// pending is a result being computed by another goroutine.
type pending[T any] struct {
	done chan struct{}
	v    T
	err  error
}

func async[T any](f func() (T, error)) *pending[T] {
	p := &pending[T]{done: make(chan struct{})}
	go func() {
		defer close(p.done)
		p.v, p.err = f()
	}()
	return p
}

func (p *pending[T]) wait() (T, error) {
	<-p.done
	return p.v, p.err
}
