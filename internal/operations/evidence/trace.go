package evidence

import (
	"context"
	"fmt"
	"slices"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/adapters/git"
	"github.com/git-context-tree/git-context-tree/internal/evidence"
	"github.com/git-context-tree/git-context-tree/internal/operations"
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
// commit's changes with renames; `git diff-tree --stdin -p -U0`, at most
// one per core and fed while the log still walks, gives the hunks of the
// commits that change a file cited with lines. A named commit off the
// first-parent history (on a merged branch) is compared by its net diff to
// the head, one diff-tree for each such commit.
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
	// While git log walks, the commits that change a file cited with
	// lines go to diff-tree at once, so both run side by side.
	ranged := map[string]bool{}
	for _, t := range ts {
		if t.since != "" && !t.rng.Whole() {
			ranged[t.path] = true
		}
	}
	feed := &hunkFeed{ctx: ctx, g: g, repo: r.Repo, sent: map[string]bool{}}
	var commits []git.LogCommit
	pos := map[string]int{}
	left := len(want)
	candidate := false
	err := g.FirstParentLog(ctx, r.Repo, r.Head, func(c git.LogCommit) bool {
		if candidate {
			feed.send(git.CommitParent{Commit: commits[len(commits)-1].ID, Parent: c.ID})
		}
		candidate = changesAny(c, ranged)
		pos[c.ID] = len(commits)
		commits = append(commits, c)
		if want[c.ID] {
			left--
		}
		return left > 0
	})
	if err != nil {
		feed.wait(nil)
		return operations.GitError(err)
	}
	h := &firstParents{commits: commits}
	h.index()
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
	if err := h.loadHunks(feed, onChain, pos); err != nil {
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
		return operations.GitError(err)
	}
	defer b.Close()
	objs, err := b.Read(names)
	if err != nil {
		return operations.GitError(err)
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
	byPath  map[string][]int
	hunks   map[hunkKey]*git.RawChange
	// wholeFiles: the hunks could not be read, so a changed file counts
	// as changed lines.
	wholeFiles bool
}

// hunksPerProcess is how many commits make another diff-tree process
// worth starting.
const hunksPerProcess = 256

type hunkKey struct {
	commit int
	from   string
}

// index lists, for every path, the commits (ascending positions: newest
// first) whose change starts from it, so that following an entry visits
// only the commits that touch its file.
func (h *firstParents) index() {
	h.byPath = map[string][]int{}
	for i, c := range h.commits {
		for _, ch := range c.Changes {
			if ch.Status != 'A' && ch.Status != 'C' {
				h.byPath[ch.From] = append(h.byPath[ch.From], i)
			}
		}
	}
}

// changesAfter calls fn, oldest first, with each commit after position p
// (newer: smaller positions) that changes the file at path, moving on to
// the new path after a rename, until fn returns false.
func (h *firstParents) changesAfter(p int, path string, fn func(i int, ch *git.RawChange) bool) {
	for {
		list := h.byPath[path]
		k, _ := slices.BinarySearch(list, p)
		renamed := false
		for k--; k >= 0; k-- {
			i := list[k]
			ch := h.changeFrom(i, path)
			if !fn(i, ch) {
				return
			}
			if ch.Path != path {
				p, path, renamed = i, ch.Path, true
				break
			}
		}
		if !renamed {
			return
		}
	}
}

// changeFrom is commit i's change of the file at path (the index says it
// has one).
func (h *firstParents) changeFrom(i int, path string) *git.RawChange {
	for k := range h.commits[i].Changes {
		ch := &h.commits[i].Changes[k]
		if ch.From == path && ch.Status != 'A' && ch.Status != 'C' {
			return ch
		}
	}
	return nil
}

// follow carries one entry through the commits after position p.
func (h *firstParents) follow(t *trace, p int) {
	h.changesAfter(p, t.path, func(i int, ch *git.RawChange) bool {
		if !apply(t, ch, h.hunks[hunkKey{i, ch.From}]) {
			return true
		}
		if h.wholeFiles && !t.rng.Whole() && t.message == "" {
			t.message = "the cache lacks this file's content (a partial clone), so any change to the file counts"
		}
		t.commits = append(t.commits, h.commits[i].ID)
		return t.status != contracts.DriftDeleted
	})
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
		return operations.GitError(err)
	}
	for _, t := range ts {
		if ch := byFrom[t.path]; ch != nil && apply(t, ch, ch) {
			t.message = fmt.Sprintf("%s is not on the first-parent history of %s: compared with one diff, so the commits are not listed", since[:12], r.Head[:12])
		}
	}
	return nil
}
