package evidence

import (
	"context"
	"fmt"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/evidence"
	"github.com/git-context-tree/git-context-tree/internal/operations"
	"github.com/git-context-tree/git-context-tree/internal/tree"
)

// Verify adds to each verified tree of rep the findings of its
// documents' sources read from git: every cited file exists at HEAD (or
// at, a revision of the project's repository; git sources are read at
// their synced commit), its line range is in bounds and its digest
// matches (EVIDENCE_MISSING, EVIDENCE_RANGE, EVIDENCE_CHANGED,
// EVIDENCE_UNSUPPORTED, EVIDENCE_UNAVAILABLE). Malformed entries are
// plain verify's EVIDENCE_INVALID already. targets are the trees of
// rep.Trees, in order (operations.VerifyTrees): a git source's snapshot
// is read held to its commit.
func Verify(ctx context.Context, env operations.Env, rep *contracts.VerifyReport, targets []operations.TreeTarget, at string) error {
	repos, err := newEvidenceRepos(ctx, env, at)
	if err != nil {
		return err
	}
	for i := range rep.Trees {
		t := &rep.Trees[i]
		target := operations.TreeTarget{Root: t.Root}
		if i < len(targets) && targets[i].Root == t.Root {
			target = targets[i]
		}
		docs, err := citingDocuments(ctx, env, target)
		if err != nil {
			return err
		}
		found, err := checkSources(ctx, env, repos, docs)
		if err != nil {
			return err
		}
		if len(found) > 0 {
			t.Findings = tree.SortFindings(append(t.Findings, found...))
			t.OK = false
			rep.OK = false
		}
	}
	return nil
}

// citation is one entry of one document.
type citation struct {
	doc string
	src tree.Source
}

// checkSources checks every well-formed entry of docs, reading each
// repository's files once.
func checkSources(ctx context.Context, env operations.Env, repos *evidenceRepos, docs []tree.Citing) ([]contracts.Finding, error) {
	groups, order, err := groupByRepo(ctx, repos, docs)
	if err != nil {
		return nil, err
	}
	var out []contracts.Finding
	for _, r := range order {
		cs := groups[r]
		if r.Unavailable != "" {
			for _, c := range cs {
				out = append(out, evidenceFinding(c, contracts.FindingEvidenceUnavailable, r.Unavailable))
			}
			continue
		}
		files, err := readCited(ctx, env.Git, r.Repo, r.Head, distinctPaths(cs))
		if err != nil {
			return nil, err
		}
		for _, c := range cs {
			if f, bad := checkCitation(c, files[c.src.Path], r.Head); bad {
				out = append(out, f)
			}
		}
	}
	return out, nil
}

// groupByRepo resolves each entry's repository, keeping the order in
// which repositories are first named.
func groupByRepo(ctx context.Context, repos *evidenceRepos, docs []tree.Citing) (map[*evidenceRepo][]citation, []*evidenceRepo, error) {
	groups := map[*evidenceRepo][]citation{}
	var order []*evidenceRepo
	for _, d := range docs {
		for _, s := range d.Sources {
			r, err := repos.get(ctx, s.Repository)
			if err != nil {
				return nil, nil, err
			}
			if _, ok := groups[r]; !ok {
				order = append(order, r)
			}
			groups[r] = append(groups[r], citation{doc: d.Path, src: s})
		}
	}
	return groups, order, nil
}

func distinctPaths(cs []citation) []string {
	seen := map[string]bool{}
	var out []string
	for _, c := range cs {
		if !seen[c.src.Path] {
			seen[c.src.Path] = true
			out = append(out, c.src.Path)
		}
	}
	return out
}

// checkCitation judges one entry against its file at commit.
func checkCitation(c citation, f *citedFile, commit string) (contracts.Finding, bool) {
	short := commit[:min(len(commit), 12)]
	switch {
	case f.Mode == "":
		return evidenceFinding(c, contracts.FindingEvidenceMissing, fmt.Sprintf("cited file does not exist at %s", short)), true
	case f.Mode == "120000":
		return evidenceFinding(c, contracts.FindingEvidenceUnsupported, "cited path is a symlink; cite the file it points to"), true
	case f.Mode == "40000":
		return evidenceFinding(c, contracts.FindingEvidenceUnsupported, "cited path is a directory; cite files"), true
	case f.Mode == "160000":
		return evidenceFinding(c, contracts.FindingEvidenceUnsupported, "cited path is a submodule; cite it with repository"), true
	case f.Missing != "":
		return evidenceFinding(c, contracts.FindingEvidenceUnavailable, "cited file "+f.Missing), true
	case !c.src.Range.Whole() && evidence.Binary(f.Data):
		return evidenceFinding(c, contracts.FindingEvidenceUnsupported, "cited file is binary; cite it without lines"), true
	}
	cited, ok := evidence.Cited(f.Data, c.src.Range)
	if !ok {
		return evidenceFinding(c, contracts.FindingEvidenceRange,
			fmt.Sprintf("cited lines %s are past the end of the file, which has %d lines at %s", c.src.Lines, evidence.Lines(f.Data), short)), true
	}
	if c.src.Sha256 != "" {
		digest := evidence.Digest(cited)
		if !evidence.Matches(c.src.Sha256, digest) {
			fc := evidenceFinding(c, contracts.FindingEvidenceChanged,
				fmt.Sprintf("cited code changed: sha256 %s recorded, %s at %s; re-read it and run git context-tree evidence stamp", c.src.Sha256, digest[:len(c.src.Sha256)], short))
			fc.Old, fc.New = c.src.Sha256, digest[:len(c.src.Sha256)]
			return fc, true
		}
	}
	return contracts.Finding{}, false
}

// evidenceFinding is a finding on an entry: its target is the citation
// as written ("path:lines", prefixed "repository:" for a git source's).
func evidenceFinding(c citation, code contracts.FindingCode, msg string) contracts.Finding {
	return contracts.Finding{Code: code, Path: c.doc, Line: c.src.Line, Target: citationTarget(c.src), Message: msg}
}

func citationTarget(s tree.Source) string {
	t := s.Path
	if s.Lines != "" {
		t += ":" + s.Lines
	}
	if s.Repository != "" {
		t = s.Repository + ":" + t
	}
	return t
}
