package evidence

import (
	"context"
	"errors"
	"slices"
	"strings"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/adapters/git"
	"github.com/git-context-tree/git-context-tree/internal/operations"
	"github.com/git-context-tree/git-context-tree/internal/sources"
	"github.com/git-context-tree/git-context-tree/internal/tree"
)

// Drift reports the documents of the trees named by args (as verify
// chooses them) whose cited sources changed between each entry's commit,
// or since when given, and the head of the entry's repository: the file,
// or with lines the line range carried through every commit's hunks,
// renames followed. Entries that cannot be compared (no commit, an
// unknown one, an unavailable repository) are reported too.
func Drift(ctx context.Context, env operations.Env, args []string, since string) (*contracts.DriftReport, error) {
	_, conns, err := operations.OpenProject(ctx, env)
	if err != nil {
		return nil, err
	}
	targets, err := evidenceTargets(ctx, env, conns, args)
	if err != nil {
		return nil, err
	}
	repos, err := newEvidenceRepos(ctx, env, "")
	if err != nil {
		return nil, err
	}
	if since != "" {
		if err := checkSince(ctx, env, repos, since); err != nil {
			return nil, err
		}
	}
	rep := &contracts.DriftReport{SchemaVersion: contracts.CLIVersion, OK: true, Trees: []contracts.DriftTree{}}
	for _, t := range targets {
		dt, err := driftTree(ctx, env, repos, t, since)
		if err != nil {
			return nil, err
		}
		rep.OK = rep.OK && !dt.Drifted()
		rep.Trees = append(rep.Trees, *dt)
	}
	return rep, nil
}

func driftTree(ctx context.Context, env operations.Env, repos *evidenceRepos, t operations.TreeTarget, since string) (*contracts.DriftTree, error) {
	dt := &contracts.DriftTree{Root: t.Root, Selector: t.Selector(), Documents: []contracts.DriftDocument{}, Findings: []contracts.Finding{}}
	docs, byDoc, err := traceTree(ctx, env, repos, t, since)
	if err != nil {
		return nil, err
	}
	for _, d := range docs {
		dt.Findings = append(dt.Findings, d.Findings...)
		dt.Sources += len(byDoc[d.Path])
		var out []contracts.DriftSource
		for _, t := range byDoc[d.Path] {
			if t.status != "" {
				out = append(out, driftSource(t, repos.byName[t.c.src.Repository]))
			}
		}
		if len(out) > 0 {
			dt.Documents = append(dt.Documents, contracts.DriftDocument{Path: d.Path, Sources: out})
		}
	}
	dt.Findings = tree.SortFindings(dt.Findings)
	return dt, nil
}

// traceTree follows every well-formed entry of a tree's documents to the
// head of its repository: the documents with a sources list and, by
// document, each entry's trace in list order.
func traceTree(ctx context.Context, env operations.Env, repos *evidenceRepos, t operations.TreeTarget, since string) ([]tree.Citing, map[string][]*trace, error) {
	docs, err := citingDocuments(ctx, env, t)
	if err != nil {
		return nil, nil, err
	}
	groups, order, err := groupByRepo(ctx, repos, docs)
	if err != nil {
		return nil, nil, err
	}
	byDoc := map[string][]*trace{}
	for _, r := range order {
		var ts []*trace
		for _, c := range groups[r] {
			ts = append(ts, newTrace(c, since))
		}
		if r.Unavailable != "" {
			for _, t := range ts {
				t.status, t.message = contracts.DriftUnavailable, r.Unavailable
			}
		} else if err := traceAll(ctx, env.Git, r, ts); err != nil {
			return nil, nil, err
		}
		for _, t := range ts {
			byDoc[t.c.doc] = append(byDoc[t.c.doc], t)
		}
	}
	for _, ts := range byDoc {
		slices.SortFunc(ts, func(a, b *trace) int { return a.c.src.Index - b.c.src.Index })
	}
	return docs, byDoc, nil
}

// citingDocuments reads the documents of t that have a sources list. A
// git source's snapshot is held to its commit: every document read (those
// without sources too, since one may have lost its list) must be the
// commit's blob, else SNAPSHOT_CORRUPT, so what drift, the site's sources
// and verify --evidence report is the commit's.
func citingDocuments(ctx context.Context, env operations.Env, t operations.TreeTarget) ([]tree.Citing, error) {
	served := t.ServedBlobs()
	docs, err := tree.CitingDocumentsObserved(t.Root, served.Observer())
	if err != nil {
		return nil, err
	}
	if err := served.Check(ctx, env.Git); err != nil {
		return nil, err
	}
	return docs, nil
}

// Freshness is every well-formed sources entry of a tree's documents, by
// document path, with its freshness at the head of its repository (what a
// page of the site shows beside its body).
func Freshness(ctx context.Context, env operations.Env, t operations.TreeTarget) (map[string][]contracts.Citation, error) {
	repos, err := newEvidenceRepos(ctx, env, "")
	if err != nil {
		return nil, err
	}
	repos.lenient = true
	_, byDoc, err := traceTree(ctx, env, repos, t, "")
	if err != nil {
		return nil, err
	}
	out := make(map[string][]contracts.Citation, len(byDoc))
	for doc, ts := range byDoc {
		for _, tr := range ts {
			out[doc] = append(out[doc], citationOf(&candidate{src: tr.c.src}, tr, repos.byName[tr.c.src.Repository]))
		}
	}
	return out, nil
}

func driftSource(t *trace, r *evidenceRepo) contracts.DriftSource {
	s := contracts.DriftSource{Index: t.c.src.Index, Line: t.c.src.Line, Path: t.c.src.Path, Lines: t.c.src.Lines, Repository: t.c.src.Repository,
		Status: t.status, Since: t.since, Commits: t.commits, Message: t.message}
	if s.Commits == nil {
		s.Commits = []string{}
	}
	if r != nil {
		s.Head = r.Head
	}
	if t.status == contracts.DriftChanged {
		s.CurrentPath = t.path
		if !t.rng.Whole() && !t.empty {
			s.CurrentLines = t.rng.String()
		}
		if t.empty {
			s.Message = "every cited line was removed"
		}
	}
	return s
}

// evidenceTargets chooses trees as verify does: those named, else every
// declared source (git sources without a snapshot left out), else the
// tree at or above the command's directory.
func evidenceTargets(ctx context.Context, env operations.Env, conns []sources.Connection, args []string) ([]operations.TreeTarget, error) {
	var out []operations.TreeTarget
	seen := map[string]bool{}
	add := func(t operations.TreeTarget) {
		if !seen[t.Root] {
			seen[t.Root] = true
			out = append(out, t)
		}
	}
	switch {
	case len(args) > 0:
		for _, a := range args {
			t, err := operations.TargetFor(ctx, env, conns, a)
			if err != nil {
				return nil, err
			}
			add(t)
		}
	case len(conns) > 0:
		for _, c := range conns {
			t, err := operations.ConnTarget(ctx, env, c)
			var ce *contracts.Error
			if err != nil && c.Source.Kind == contracts.SourceGit && errors.As(err, &ce) {
				continue // not synced: nothing local to read
			}
			if err != nil {
				return nil, err
			}
			add(t)
		}
	default:
		root, err := sources.FindTreeRoot(ctx, env.Git, env.Dir)
		if err != nil {
			return nil, err
		}
		add(operations.TreeTarget{Root: root})
	}
	return out, nil
}

// checkSince refuses a --since that names no commit of the project's
// repository (when it has one): a typo would otherwise report every entry
// as unknown-commit.
func checkSince(ctx context.Context, env operations.Env, repos *evidenceRepos, since string) error {
	if strings.ContainsAny(since, "\n\r\x00") || strings.HasPrefix(since, "-") {
		return contracts.Errorf(contracts.CodeUsage, "--since %q is not a revision", since)
	}
	r, err := repos.get(ctx, "")
	if err != nil {
		return nil // entries of the project's repository fail on their own
	}
	if _, err := env.Git.RunIn(ctx, r.Repo, "rev-parse", "-q", "--verify", "--end-of-options", since+"^{commit}"); err != nil {
		if git.ExitCode(err) == 1 {
			return contracts.Errorf(contracts.CodeUsage, "--since %s names no commit of %s", since, r.Repo.Dir)
		}
		return operations.GitError(err)
	}
	return nil
}
