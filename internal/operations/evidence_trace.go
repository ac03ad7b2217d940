package operations

import (
	"context"
	"fmt"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/adapters/git"
	"github.com/git-context-tree/git-context-tree/internal/evidence"
	"github.com/git-context-tree/git-context-tree/internal/tree"
)

// trace is one entry followed from the commit it was read at to the
// repository's head: where its file and lines are now, and which commits
// changed them.
type trace struct {
	c         citation
	sinceName string // the entry's commit, or --since; "" for neither
	since     string // sinceName resolved, "" when it names no commit
	status    string // "" while nothing changed, else a contracts.Drift* status
	path      string
	rng       tree.LineRange
	empty     bool // every cited line was removed
	commits   []string
	message   string
}

func newTrace(c citation, since string) *trace {
	t := &trace{c: c, sinceName: since, path: c.src.Path, rng: c.src.Range}
	if t.sinceName == "" {
		t.sinceName = c.src.Commit
	}
	return t
}

// traceAll follows every entry of one repository from its commit to
// r.Head with a bounded number of git processes, whatever the number of
// entries and commits: one cat-file resolves the commits named; one
// first-parent `git log --raw` (no pathspecs: git matches each of
// thousands of pathspecs against every tree entry it visits) walks back
// from the head until every named commit has been seen, giving each
// commit's changes with renames; one `git diff-tree --stdin -p -U0` gives
// the hunks of exactly the commits that changed a cited line range's
// file. A named commit off the first-parent history (on a merged branch)
// is compared by its net diff to the head, one diff-tree for each such
// commit.
func traceAll(ctx context.Context, g *git.Git, r *evidenceRepo, ts []*trace) error {
	if err := resolveSince(ctx, g, r, ts); err != nil {
		return err
	}
	want := map[string]bool{}
	for _, t := range ts {
		if t.since != "" {
			want[t.since] = true
		}
	}
	if len(want) == 0 {
		return nil
	}
	var commits []git.LogCommit
	pos := map[string]int{}
	left := len(want)
	err := g.FirstParentLog(ctx, r.Repo, r.Head, func(c git.LogCommit) bool {
		pos[c.ID] = len(commits)
		commits = append(commits, c)
		if want[c.ID] {
			left--
		}
		return left > 0
	})
	if err != nil {
		return gitFailure(err)
	}
	h := &firstParents{commits: commits, from: make([]map[string]int, len(commits))}
	var onChain []*trace
	offChain := map[string][]*trace{}
	for _, t := range ts {
		switch _, ok := pos[t.since]; {
		case t.since == "":
		case ok:
			onChain = append(onChain, t)
		default:
			offChain[t.since] = append(offChain[t.since], t)
		}
	}
	if err := h.loadHunks(ctx, g, r.Repo, onChain, pos); err != nil {
		return err
	}
	for _, t := range onChain {
		h.follow(t, pos[t.since])
	}
	for since, group := range offChain {
		if err := netDiff(ctx, g, r, since, group); err != nil {
			return err
		}
	}
	return nil
}

// resolveSince resolves each entry's commit through one cat-file.
func resolveSince(ctx context.Context, g *git.Git, r *evidenceRepo, ts []*trace) error {
	var names []string
	index := map[string]int{}
	for _, t := range ts {
		if t.sinceName == "" {
			t.status, t.message = contracts.DriftUnstamped, "the entry records no commit; read the code and run git context-tree evidence stamp"
			continue
		}
		if _, ok := index[t.sinceName]; !ok {
			index[t.sinceName] = len(names)
			names = append(names, t.sinceName+"^{commit}")
		}
	}
	if len(names) == 0 {
		return nil
	}
	b, err := g.OpenRepoObjects(ctx, r.Repo)
	if err != nil {
		return gitFailure(err)
	}
	defer b.Close()
	objs, err := b.Read(names)
	if err != nil {
		return gitFailure(err)
	}
	for _, t := range ts {
		if t.sinceName == "" {
			continue
		}
		if o := objs[index[t.sinceName]]; o.Type == "commit" {
			t.since = o.ID
		} else {
			t.status = contracts.DriftUnknownCommit
			t.message = fmt.Sprintf("%s names no commit of the repository", t.sinceName)
		}
	}
	return nil
}

// history is the first-parent walk, newest first: commits[i+1] is the
// first parent of commits[i].
type firstParents struct {
	commits []git.LogCommit
	from    []map[string]int // per commit, lazily: the path before a change → its index
	hunks   map[hunkKey]*git.RawChange
	// wholeFiles: the hunks could not be read, so a changed file counts
	// as changed lines.
	wholeFiles bool
}

type hunkKey struct {
	commit int
	from   string
}

// change is the change commit i makes to the file at path p, if any.
func (h *firstParents) change(i int, p string) *git.RawChange {
	m := h.from[i]
	if m == nil {
		m = make(map[string]int, len(h.commits[i].Changes))
		for k, ch := range h.commits[i].Changes {
			if ch.Status != 'A' && ch.Status != 'C' {
				m[ch.From] = k
			}
		}
		h.from[i] = m
	}
	if k, ok := m[p]; ok {
		return &h.commits[i].Changes[k]
	}
	return nil
}

// loadHunks asks git for the hunks of every commit that changes the
// content of a cited line range's file after the entry's commit.
func (h *firstParents) loadHunks(ctx context.Context, g *git.Git, repo git.Repo, ts []*trace, pos map[string]int) error {
	need := map[int]bool{}
	for _, t := range ts {
		if t.rng.Whole() {
			continue
		}
		cur := t.path
		for i := pos[t.since] - 1; i >= 0; i-- {
			ch := h.change(i, cur)
			if ch == nil {
				continue
			}
			if ch.Status == 'D' {
				break
			}
			if ch.OldBlob != ch.NewBlob {
				need[i] = true
			}
			cur = ch.Path
		}
	}
	h.hunks = map[hunkKey]*git.RawChange{}
	if len(need) == 0 {
		return nil
	}
	var pairs []git.CommitParent
	index := map[string]int{}
	for i := range need {
		pairs = append(pairs, git.CommitParent{Commit: h.commits[i].ID, Parent: h.commits[i+1].ID})
		index[h.commits[i].ID] = i
	}
	err := g.CommitHunks(ctx, repo, pairs, func(id string, changes []git.RawChange) error {
		i := index[id]
		for k := range changes {
			if changes[k].Status != 'A' {
				h.hunks[hunkKey{i, changes[k].From}] = &changes[k]
			}
		}
		return nil
	})
	if err != nil && repo.GitDir != "" {
		// A partial cache lacks the blobs outside the declared subtrees
		// (and never fetches them): line ranges are then judged as whole
		// files, which only over-reports.
		h.hunks, h.wholeFiles = map[hunkKey]*git.RawChange{}, true
		return nil
	}
	return gitFailure(err)
}

// follow carries one entry through the commits after position p.
func (h *firstParents) follow(t *trace, p int) {
	for i := p - 1; i >= 0; i-- {
		ch := h.change(i, t.path)
		if ch == nil {
			continue
		}
		id := h.commits[i].ID
		if !apply(t, ch, h.hunks[hunkKey{i, t.path}]) {
			continue
		}
		if h.wholeFiles && !t.rng.Whole() && t.message == "" {
			t.message = "the cache lacks this file's content (a partial clone), so any change to the file counts"
		}
		t.commits = append(t.commits, id)
		if t.status == contracts.DriftDeleted {
			return
		}
	}
}

// apply carries t through one change of its file (patch holds the
// change's hunks, for a line range) and reports whether the change
// touched what t cites: the file at all, or, with lines, the lines; a
// rename always does, since the citation's path is then stale.
func apply(t *trace, ch, patch *git.RawChange) bool {
	switch ch.Status {
	case 'D':
		t.status, t.message = contracts.DriftDeleted, "the cited file was deleted"
		return true
	case 'R', 'M', 'T':
	default:
		return false
	}
	renamed := ch.Path != t.path
	t.path = ch.Path
	touched := renamed
	if ch.OldBlob != ch.NewBlob { // a mode change alone changes no line
		if t.rng.Whole() || t.empty || patch == nil || patch.Binary || len(patch.Hunks) == 0 {
			touched = true
		} else {
			rng, hit, empty := evidence.MapRange(t.rng, hunksOf(patch))
			t.rng, t.empty = rng, t.empty || empty
			touched = touched || hit
		}
	}
	if touched && t.status == "" {
		t.status = contracts.DriftChanged
	}
	return touched
}

func hunksOf(ch *git.RawChange) []evidence.Hunk {
	out := make([]evidence.Hunk, len(ch.Hunks))
	for i, h := range ch.Hunks {
		out[i] = evidence.Hunk(h)
	}
	return out
}

// netDiff compares entries whose commit is off the head's first-parent
// history with one diff of that commit to the head.
func netDiff(ctx context.Context, g *git.Git, r *evidenceRepo, since string, ts []*trace) error {
	byFrom := map[string]*git.RawChange{}
	err := g.CommitHunks(ctx, r.Repo, []git.CommitParent{{Commit: r.Head, Parent: since}}, func(_ string, changes []git.RawChange) error {
		for k := range changes {
			if changes[k].Status != 'A' {
				byFrom[changes[k].From] = &changes[k]
			}
		}
		return nil
	})
	if err != nil {
		return gitFailure(err)
	}
	for _, t := range ts {
		if ch := byFrom[t.path]; ch != nil && apply(t, ch, ch) {
			t.message = fmt.Sprintf("%s is not on the first-parent history of %s: compared with one diff, so the commits are not listed", since[:12], r.Head[:12])
		}
	}
	return nil
}
