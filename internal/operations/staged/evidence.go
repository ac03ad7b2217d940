package staged

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"sync"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/adapters/git"
	"github.com/git-context-tree/git-context-tree/internal/tree"
)

// EvidenceNotes is the advisory half of verify --staged --evidence: for
// the commit the index holds, each document of a declared tree that cites
// (sources, no repository) a path the commit changes while the commit
// leaves the document itself alone. It runs apart from Verify, after it,
// so that the check without --evidence keeps its fast path: one diff of
// the commit, the configuration as the index holds it, the trees' index
// entries and their documents' blobs through one cat-file.
func EvidenceNotes(ctx context.Context, g *git.Git, dir string) ([]contracts.EvidenceNote, error) {
	loc, err := g.LocateIndex(ctx, dir)
	if err != nil {
		return nil, gitErr(err)
	}
	if loc == nil {
		return nil, contracts.Errorf(contracts.CodeNoRepository, "verify --staged needs a git work tree; %s is not in one", dir)
	}
	changed, err := g.StagedChanges(ctx, dir, false, nil)
	if err != nil || len(changed) == 0 {
		return nil, gitErr(err)
	}
	objects, err := g.OpenBatch(ctx, dir)
	if err != nil {
		return nil, gitErr(err)
	}
	defer objects.Close()
	r := &run{g: g, dir: dir, top: tree.RealPath(loc.Top), commonDir: loc.CommonDir, objects: objects}
	candidates := r.configCandidates()
	pr, err := r.stagedProject(ctx, candidates, changed)
	if err != nil {
		return nil, err
	}
	if pr.cfg == nil {
		if pr, err = r.workTreeProject(candidates); err != nil || pr == nil {
			return nil, err
		}
	}
	if len(pr.trees) == 0 {
		return nil, nil
	}
	prefixes := make([]string, len(pr.trees))
	for i, t := range pr.trees {
		prefixes[i] = t.prefix
	}
	listed, err := g.IndexEntries(ctx, r.top, prefixes...)
	if err != nil {
		return nil, gitErr(err)
	}
	var docs []git.IndexEntry
	for _, e := range listed {
		if (e.Mode == "100644" || e.Mode == "100755") && tree.IsDocumentName(e.Path[strings.LastIndexByte(e.Path, '/')+1:]) {
			docs = append(docs, e)
		}
	}
	ids := make([]string, len(docs))
	for i, e := range docs {
		ids[i] = e.ID
	}
	isChanged := make(map[string]bool, len(changed))
	for _, p := range changed {
		isChanged[p] = true
	}
	var mu sync.Mutex
	var notes []contracts.EvidenceNote
	err = objects.Stream(ids, func(i int, _ string, data []byte) error {
		if !bytes.Contains(data, []byte("sources:")) {
			return nil
		}
		c := tree.CitingOf(docs[i].Path, data)
		if c == nil || isChanged[docs[i].Path] {
			return nil
		}
		for _, s := range c.Sources {
			if s.Repository == "" && isChanged[s.Path] {
				mu.Lock()
				notes = append(notes, contracts.EvidenceNote{Document: docs[i].Path, Source: s.Path})
				mu.Unlock()
			}
		}
		return nil
	})
	if err != nil {
		return nil, gitErr(err)
	}
	slices.SortFunc(notes, func(a, b contracts.EvidenceNote) int {
		return strings.Compare(a.Document+"\x00"+a.Source, b.Document+"\x00"+b.Source)
	})
	return slices.Compact(notes), nil
}
