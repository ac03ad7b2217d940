package evidence

import (
	"context"
	"errors"
	"runtime"

	"github.com/git-context-tree/git-context-tree/internal/adapters/git"
	"github.com/git-context-tree/git-context-tree/internal/operations"
)

// loadHunks asks git for the hunks of every commit that changes the
// content of a cited line range's file after the entry's commit.
func (h *firstParents) loadHunks(feed *hunkFeed, ts []*trace, pos map[string]int) error {
	// What the log's walk sent covers every commit that changes a cited
	// file; a file's later name after a rename may need more.
	for _, t := range ts {
		if t.rng.Whole() {
			continue
		}
		h.changesAfter(pos[t.since], t.path, func(i int, ch *git.RawChange) bool {
			if ch.OldBlob != ch.NewBlob {
				feed.send(git.CommitParent{Commit: h.commits[i].ID, Parent: h.commits[i+1].ID})
			}
			return ch.Status != 'D'
		})
	}
	h.hunks = map[hunkKey]*git.RawChange{}
	err := feed.wait(func(id string, changes []git.RawChange) error {
		i, ok := pos[id]
		if !ok {
			return nil
		}
		for c := range changes {
			if changes[c].Status != 'A' {
				h.hunks[hunkKey{i, changes[c].From}] = &changes[c]
			}
		}
		return nil
	})
	if err != nil && feed.repo.GitDir != "" {
		// A partial cache lacks the blobs outside the declared subtrees
		// (and never fetches them): line ranges are then judged as whole
		// files, which only over-reports.
		h.hunks, h.wholeFiles = map[hunkKey]*git.RawChange{}, true
		return nil
	}
	return operations.GitError(err)
}

// changesAny reports whether a commit changes one of the files.
func changesAny(c git.LogCommit, files map[string]bool) bool {
	for _, ch := range c.Changes {
		if ch.Status != 'A' && files[ch.From] {
			return true
		}
	}
	return false
}

// hunkFeed hands commits to diff-tree processes as they are found: runs
// of hunksPerProcess consecutive commits go to one process after another,
// up to one per core, so that each process reads history in order (its
// delta chains from a warm cache) and the cores share the diffing.
type hunkFeed struct {
	ctx     context.Context
	g       *git.Git
	repo    git.Repo
	streams []*git.HunkStream
	sent    map[string]bool
	n       int
	err     error
}

func (f *hunkFeed) send(c git.CommitParent) {
	if f.err != nil || f.sent[c.Commit] {
		return
	}
	k := (f.n / hunksPerProcess) % runtime.GOMAXPROCS(0)
	for len(f.streams) <= k {
		s, err := f.g.StartHunks(f.ctx, f.repo)
		if err != nil {
			f.err = err
			return
		}
		f.streams = append(f.streams, s)
	}
	f.streams[k].Send(c)
	f.sent[c.Commit] = true
	f.n++
}

// wait ends every process and calls fn with the changes of each commit
// sent (fn nil: only ends them).
func (f *hunkFeed) wait(fn func(string, []git.RawChange) error) error {
	errs := []error{f.err}
	for _, s := range f.streams {
		err := s.Wait(func(id string, changes []git.RawChange) error {
			if fn == nil {
				return nil
			}
			return fn(id, changes)
		})
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}
