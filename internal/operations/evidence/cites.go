package evidence

import (
	"context"
	"errors"
	"path"
	"slices"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/adapters/git"
	"github.com/git-context-tree/git-context-tree/internal/operations"
	"github.com/git-context-tree/git-context-tree/internal/sources"
	"github.com/git-context-tree/git-context-tree/internal/tree"
)

// CitesRequest is what `cites` is asked: paths (path[:N[-M]]), the
// repository they belong to ("" for the project's, else a declared git
// source's selector) and the trees to search (none: as verify chooses).
type CitesRequest struct {
	Paths      []string
	Repository string
	Trees      []string
}

// Cites lists the documents of the trees whose sources cite the queried
// paths (an entry's range meeting the queried lines), each citation with
// its freshness at the head of its repository. A citation of a file since
// renamed to a queried path is found too: entries whose file is missing at
// the head are followed (as drift follows them) to where the code is now.
func Cites(ctx context.Context, env operations.Env, req CitesRequest) (*contracts.CitesReport, error) {
	project, conns, err := operations.OpenProject(ctx, env)
	if err != nil {
		return nil, err
	}
	queries, err := parseQueries(env, project, conns, req.Repository, req.Paths)
	if err != nil {
		return nil, err
	}
	targets, err := citesTargets(ctx, env, conns, req.Trees)
	if err != nil {
		return nil, err
	}
	repos, err := newEvidenceRepos(ctx, env, "")
	if err != nil {
		return nil, err
	}
	rep := &contracts.CitesReport{SchemaVersion: contracts.CLIVersion, Trees: []contracts.TreeRef{}, Documents: []contracts.CitingDocument{}}
	for _, q := range queries {
		rep.Queries = append(rep.Queries, q.CitesQuery)
	}
	m := &matcher{ctx: ctx, env: env, conns: conns, repos: repos, queries: queries, idents: map[string]string{}, fresh: map[*evidenceRepo]*freshCache{}}
	for _, t := range targets {
		if err := t.ServeVerified(ctx, env); err != nil {
			return nil, err
		}
		res, err := t.Resolution(ctx, env)
		if err != nil {
			return nil, err
		}
		if t.Snapshot == nil && res.InGit() && res.RepositoryRoot == project.Checkout && res.Head != "" {
			repos.seed("", &evidenceRepo{Repo: git.Repo{Dir: res.RepositoryRoot}, Head: res.Head})
		}
		ref := treeRef(t, res)
		rep.Trees = append(rep.Trees, ref)
		docs, err := citingDocsOf(ctx, env, t, res, m.want)
		if err != nil {
			return nil, err
		}
		for _, d := range docs {
			m.add(ref, d)
		}
	}
	found, err := m.resolve()
	if err != nil {
		return nil, err
	}
	rep.Documents = found
	return rep, nil
}

// citesTargets chooses trees as verify does, except that a git source
// whose snapshot was edited is still searched: cites reads the snapshot's
// commit from the cache's objects, never the snapshot's files.
func citesTargets(ctx context.Context, env operations.Env, conns []sources.Connection, args []string) ([]operations.TreeTarget, error) {
	if len(args) > 0 || len(conns) == 0 {
		return evidenceTargets(ctx, env, conns, args)
	}
	var out []operations.TreeTarget
	for _, c := range conns {
		t, err := operations.ConnTarget(ctx, env, c)
		var ce *contracts.Error
		if c.Source.Kind == contracts.SourceGit && errors.As(err, &ce) {
			if ce.Code != contracts.CodeSnapshotCorrupt {
				continue // not synced: nothing to search
			}
			snap, err := env.Managed().Recorded(ctx, c)
			if err != nil {
				continue
			}
			t = operations.TreeTarget{Root: snap.TreeRoot, Conn: &c, Snapshot: snap}
		} else if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, nil
}

// treeRef is TreeTarget.Ref from a resolution already in hand.
func treeRef(t operations.TreeTarget, res *sources.DirectoryResolution) contracts.TreeRef {
	ref := contracts.TreeRef{Root: t.Root, Selector: t.Selector()}
	if res.InGit() {
		dirty := res.Dirty
		ref.Head, ref.Dirty = res.Head, &dirty
	}
	if t.Stale != nil {
		ref.Staleness = *t.Stale
	}
	return ref
}

// candidate is a sources entry that may answer a query.
type candidate struct {
	doc   *contracts.CitingDocument
	src   tree.Source
	query int  // -1 until matched
	moved bool // its file is missing at the head: matched by where it went
}

// matcher collects the entries that answer the queries.
type matcher struct {
	ctx     context.Context
	env     operations.Env
	conns   []sources.Connection
	repos   *evidenceRepos
	queries []query
	idents  map[string]string // entry repository name -> identity
	cands   []*candidate
	docs    []*contracts.CitingDocument
	fresh   map[*evidenceRepo]*freshCache
}

// want keeps, of a tree's index, the entries that may answer a query:
// those citing a queried path, and those whose file is not known to
// exist at its repository's head (it may have moved to a queried path).
// A warm call so decodes a handful of entries, not the whole index.
func (m *matcher) want(path, repository []byte) bool {
	for _, q := range m.queries {
		if q.Path == string(path) {
			return true
		}
	}
	f := m.freshOf(string(repository))
	if f == nil {
		return false // an unavailable repository: nothing can be traced there
	}
	there, known := f.present[string(path)]
	return !known || !there
}

// freshOf is the freshness cache of an entry repository, nil when it is
// unavailable or cannot be resolved (resolve reports that).
func (m *matcher) freshOf(name string) *freshCache {
	r, err := m.repos.get(m.ctx, name)
	if err != nil || r.Unavailable != "" {
		return nil
	}
	f, ok := m.fresh[r]
	if !ok {
		f = openFresh(m.ctx, m.env, r)
		m.fresh[r] = f
	}
	return f
}

func (m *matcher) ident(name string) string {
	id, ok := m.idents[name]
	if !ok {
		id, _ = repoIdentity(m.conns, name, m.env.Dir)
		if id == "" && name != "" {
			id = name
		}
		m.idents[name] = id
	}
	return id
}

// add considers every entry of one document: those of a queried
// repository that cite a queried path with a meeting range, and those
// whose path is queried nowhere (they may have been renamed to one).
func (m *matcher) add(ref contracts.TreeRef, d citingDoc) {
	doc := &contracts.CitingDocument{Tree: ref, Path: d.rel, Title: d.title, Description: d.description}
	used := false
	for _, s := range d.sources {
		ident := m.ident(s.Repository)
		direct, sameRepo := false, false
		for qi, q := range m.queries {
			if q.repo != ident {
				continue
			}
			sameRepo = true
			if q.Path == s.Path && overlaps(q.rng, s.Range) {
				m.cands = append(m.cands, &candidate{doc: doc, src: s, query: qi})
				direct, used = true, true
				break
			}
		}
		if !direct && sameRepo && !m.queried(ident, s.Path) {
			m.cands = append(m.cands, &candidate{doc: doc, src: s, query: -1, moved: true})
			used = true
		}
	}
	if used {
		m.docs = append(m.docs, doc)
	}
}

// queried reports whether some query names path in repository ident.
func (m *matcher) queried(ident, p string) bool {
	for _, q := range m.queries {
		if q.repo == ident && q.Path == p {
			return true
		}
	}
	return false
}

// resolve traces the candidates in each repository, keeps those that
// answer a query and returns their documents in tree order.
func (m *matcher) resolve() ([]contracts.CitingDocument, error) {
	byRepo := map[*evidenceRepo][]*candidate{}
	var order []*evidenceRepo
	for _, c := range m.cands {
		r, err := m.repos.get(m.ctx, c.src.Repository)
		if err != nil {
			return nil, err
		}
		if _, ok := byRepo[r]; !ok {
			order = append(order, r)
		}
		byRepo[r] = append(byRepo[r], c)
	}
	for _, r := range order {
		fresh := m.freshOf(r.Name)
		cs, err := m.keepPresent(r, byRepo[r], fresh)
		if err != nil {
			return nil, err
		}
		ts := make([]*trace, len(cs))
		for i, c := range cs {
			ts[i] = newTrace(citation{doc: c.doc.Path, src: c.src}, "")
		}
		if err := m.trace(r, ts, fresh); err != nil {
			return nil, err
		}
		for i, c := range cs {
			if c.moved {
				c.query = m.matchMoved(m.ident(c.src.Repository), ts[i])
			}
			if c.query >= 0 {
				c.doc.Citations = append(c.doc.Citations, citationOf(c, ts[i], r))
			}
		}
	}
	out := []contracts.CitingDocument{}
	for _, d := range m.docs {
		if len(d.Citations) > 0 {
			slices.SortFunc(d.Citations, func(a, b contracts.Citation) int { return a.Index - b.Index })
			out = append(out, *d)
		}
	}
	return out, nil
}

// trace follows the entries of one repository to its head, taking what
// was traced at this head before from the freshness cache (nil for an
// unavailable repository).
func (m *matcher) trace(r *evidenceRepo, ts []*trace, fresh *freshCache) error {
	if r.Unavailable != "" {
		for _, t := range ts {
			t.status, t.message = contracts.DriftUnavailable, r.Unavailable
		}
		return nil
	}
	var todo []*trace
	for _, t := range ts {
		if !fresh.fill(t) {
			todo = append(todo, t)
		}
	}
	if len(todo) > 0 {
		if err := traceAll(m.ctx, m.env.Git, r, todo); err != nil {
			return err
		}
		for _, t := range todo {
			fresh.put(t)
		}
	}
	fresh.save()
	return nil
}

// keepPresent drops the moved candidates whose file still exists at the
// repository's head: only a file gone from its cited path can have moved
// to a queried one. Which paths exist is kept in the freshness cache. An
// unavailable repository keeps none of them.
func (m *matcher) keepPresent(r *evidenceRepo, cs []*candidate, fresh *freshCache) ([]*candidate, error) {
	if r.Unavailable != "" {
		return slices.DeleteFunc(cs, func(c *candidate) bool { return c.moved }), nil
	}
	var unknown []string
	seen := map[string]bool{}
	for _, c := range cs {
		if _, known := fresh.present[c.src.Path]; c.moved && !known && !seen[c.src.Path] {
			seen[c.src.Path] = true
			unknown = append(unknown, c.src.Path)
		}
	}
	if len(unknown) > 0 {
		files, err := readModes(m.ctx, m.env, r, unknown)
		if err != nil {
			return nil, err
		}
		for _, p := range unknown {
			fresh.present[p] = files[p] != ""
		}
		fresh.dirty = true
	}
	return slices.DeleteFunc(cs, func(c *candidate) bool { return c.moved && fresh.present[c.src.Path] }), nil
}

// matchMoved is the query a traced entry's current path and lines answer,
// -1 for none.
func (m *matcher) matchMoved(ident string, t *trace) int {
	if t.path == t.c.src.Path || t.empty {
		return -1
	}
	for qi, q := range m.queries {
		if q.repo == ident && q.Path == t.path && overlaps(q.rng, t.rng) {
			return qi
		}
	}
	return -1
}

func citationOf(c *candidate, t *trace, r *evidenceRepo) contracts.Citation {
	d := driftSource(t, r)
	out := contracts.Citation{Query: c.query, Index: c.src.Index, Path: c.src.Path, Lines: c.src.Lines, Repository: c.src.Repository,
		Commit: c.src.Commit, Freshness: d.Status, Head: d.Head, Commits: d.Commits, CurrentPath: d.CurrentPath, CurrentLines: d.CurrentLines, Message: d.Message}
	if out.Freshness == "" {
		out.Freshness = contracts.CitationFresh
	}
	return out
}

// readModes is each path's mode at the repository's head ("" when
// missing), from the trees of their directories.
func readModes(ctx context.Context, env operations.Env, r *evidenceRepo, paths []string) (map[string]string, error) {
	b, err := env.Git.OpenRepoObjects(ctx, r.Repo)
	if err != nil {
		return nil, operations.GitError(err)
	}
	defer b.Close()
	var dirs []string
	at := map[string]int{}
	for _, p := range paths {
		if d := path.Dir(p); !hasKey(at, d) {
			at[d] = len(dirs)
			dirs = append(dirs, d)
		}
	}
	names := make([]string, len(dirs))
	for i, d := range dirs {
		names[i] = r.Head + ":" + d
		if d == "." {
			names[i] = r.Head + "^{tree}"
		}
	}
	_, trees, err := b.Trees(names)
	if err != nil {
		return nil, operations.GitError(err)
	}
	out := make(map[string]string, len(paths))
	for _, p := range paths {
		for _, it := range trees[at[path.Dir(p)]] {
			if it.Name == path.Base(p) {
				out[p] = it.Mode
			}
		}
	}
	return out, nil
}

func hasKey[K comparable, V any](m map[K]V, k K) bool {
	_, ok := m[k]
	return ok
}
