package staged

import (
	"context"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/adapters/git"
	"github.com/git-context-tree/git-context-tree/internal/tree"
)

// Options choose what Verify reports beside the check itself.
type Options struct {
	// Notes adds the evidence notes (VerifyReport.EvidenceNotes): each
	// document of a declared tree that cites (sources without
	// repository) a path the commit changes while the commit leaves the
	// document itself alone. A merge's commit gets none unless
	// MergeNotes: its changes against the first parent were made, and
	// noted, on their own branch.
	Notes      bool
	MergeNotes bool

	// For the tests: noDelta turns the delta path off (delta.go), onDelta
	// is called for each tree it verified.
	noDelta bool
	onDelta func(prefix string)
}

// The notes cost (almost) nothing beyond the check. A commit that
// stages nothing has none to give. A commit that stages something in a
// declared tree has every document's result in hand, and each result
// carries the paths it cites (tree.DocResult.Cites, kept in the staged
// cache). A commit that leaves every declared tree alone looks HEAD's
// tree ids up in the citations index (citations.go); only when one is
// missing are that tree's index entries listed and its results taken
// from the staged cache (the blobs it lacks read and parsed), and the
// index completed for the next commit.

// wantsNotes reports whether this run's commit gets notes.
func (r *run) wantsNotes(opts Options, changed []string) bool {
	if !opts.Notes || len(changed) == 0 {
		return false
	}
	if opts.MergeNotes || r.gitDir == "" {
		return true
	}
	_, err := os.Lstat(filepath.Join(r.gitDir, "MERGE_HEAD"))
	return err != nil
}

// citationsOf lists what a tree's documents cite, from their results
// (results[i] is docs[i]'s).
func citationsOf(docs []doc, results []tree.DocResult) []citation {
	var out []citation
	for i, d := range docs {
		for _, p := range results[i].Cites {
			out = append(out, citation{doc: d.rel, path: p})
		}
	}
	return out
}

// notesOf turns a tree's citations into notes for the commit: a cited
// path the commit changes, cited by a document it leaves alone.
func notesOf(prefix string, citing []citation, changed map[string]bool) []contracts.EvidenceNote {
	var out []contracts.EvidenceNote
	for _, c := range citing {
		if !changed[c.path] {
			continue
		}
		docPath := c.doc
		if prefix != "." {
			docPath = path.Join(prefix, c.doc)
		}
		if !changed[docPath] {
			out = append(out, contracts.EvidenceNote{Document: docPath, Source: c.path})
		}
	}
	return out
}

// sortNotes orders notes by document, then cited path, each once.
func sortNotes(notes []contracts.EvidenceNote) []contracts.EvidenceNote {
	slices.SortFunc(notes, func(a, b contracts.EvidenceNote) int {
		return strings.Compare(a.Document+"\x00"+a.Source, b.Document+"\x00"+b.Source)
	})
	return slices.Compact(notes)
}

func changedSet(changed []string) map[string]bool {
	set := make(map[string]bool, len(changed))
	for _, p := range changed {
		set[p] = true
	}
	return set
}

// committedNotes are the notes of a commit that stages nothing in any
// declared tree, so that each holds what HEAD holds (r.heads): from the
// citations index by HEAD's tree ids, else from the trees' documents.
func (r *run) committedNotes(ctx context.Context, trees []declared, changed []string) ([]contracts.EvidenceNote, error) {
	isChanged := changedSet(changed)
	cits := openCitations(r.commonDir)
	var notes []contracts.EvidenceNote
	var missing []declared
	for _, t := range trees {
		e, ok := r.heads[t.prefix]
		if !ok || e.Mode != "040000" {
			continue // nothing there, or another repository's (a submodule)
		}
		if citing, ok := cits.lookup(e.ID); ok {
			notes = append(notes, notesOf(t.prefix, citing, isChanged)...)
		} else {
			missing = append(missing, t)
		}
	}
	if len(missing) > 0 {
		prefixes := make([]string, len(missing))
		for i, t := range missing {
			prefixes[i] = t.prefix
		}
		listed, err := r.g.IndexEntries(ctx, r.top, prefixes...)
		if err != nil {
			return nil, gitErr(err)
		}
		ix := git.NewIndex(listed)
		ita, err := r.intentToAdd(ctx, listed, changed, prefixes)
		if err != nil {
			return nil, err
		}
		ix.Drop(ita)
		r.cache = openCache(r.commonDir)
		for _, t := range missing {
			_, docs, _ := treeEntries(ix.Under(t.prefix), t.prefix)
			found, err := r.cache.results(docs, filepath.Join(r.top, filepath.FromSlash(t.prefix)), r.objects)
			if err != nil {
				return nil, gitErr(err)
			}
			citing := citationsOf(docs, found)
			cits.put(r.heads[t.prefix].ID, citing)
			notes = append(notes, notesOf(t.prefix, citing, isChanged)...)
		}
		r.cache.save()
		cits.save()
	}
	return sortNotes(notes), nil
}
