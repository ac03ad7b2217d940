package git

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"
)

// IndexEntry is one stage-0 entry of the index (`git ls-files -s`).
type IndexEntry struct {
	Mode string // "100644", "100755", "120000" (symlink), "160000" (gitlink)
	ID   string // blob (or commit, for a gitlink)
	Path string // repository-relative
}

// IndexEntries lists the index entries under the repository-relative
// prefixes (a file or a directory each; none, "" or "." for all) of the
// repository at dir. It runs in the invoking repository's environment, so a
// hook's GIT_INDEX_FILE (a partial commit's temporary index) is the index
// read.
func (g *Git) IndexEntries(ctx context.Context, dir string, prefixes ...string) ([]IndexEntry, error) {
	args := []string{"ls-files", "--stage", "-z", "--full-name", "--"}
	for _, prefix := range prefixes {
		if prefix == "" || prefix == "." {
			args = append(args[:5], ":(top)")
			break
		}
		args = append(args, ":(top,literal)"+prefix)
	}
	if len(args) == 5 {
		args = append(args, ":(top)")
	}
	out, err := g.Run(ctx, Invoking, dir, args...)
	if err != nil {
		return nil, err
	}
	return parseStage(out), nil
}

// parseStage reads `ls-files --stage -z` records, "<mode> <id> <stage>\t<path>",
// keeping stage 0 (conflicted entries have no single content).
func parseStage(out []byte) []IndexEntry {
	entries := make([]IndexEntry, 0, bytes.Count(out, []byte{0}))
	// One string for the whole listing: every id and path is a substring
	// of it, so 100,000 entries cost one allocation, not 200,000.
	all := string(out)
	var mode string // the last mode seen: nearly every entry has the same
	for len(all) > 0 {
		rec := all
		if i := strings.IndexByte(all, 0); i >= 0 {
			rec, all = all[:i], all[i+1:]
		} else {
			all = ""
		}
		meta, path, ok := strings.Cut(rec, "\t")
		m, rest, ok1 := strings.Cut(meta, " ")
		id, stage, ok2 := strings.Cut(rest, " ")
		if !ok || !ok1 || !ok2 || stage != "0" {
			continue
		}
		if m != mode {
			mode = m
		}
		entries = append(entries, IndexEntry{Mode: mode, ID: id, Path: path})
	}
	return entries
}

// IndexLocation is where the invoking repository keeps what a commit is
// made from.
type IndexLocation struct {
	Top       string // the work tree's top directory
	CommonDir string // the git dir shared by every worktree
	GitDir    string // this worktree's own git dir (MERGE_HEAD and the like)
}

// LocateIndex finds the invoking repository at dir with one `git
// rev-parse`; nil when dir is not in a work tree.
func (g *Git) LocateIndex(ctx context.Context, dir string) (*IndexLocation, error) {
	if loc, known, err := g.location(ctx, Invoking, dir); err != nil || known {
		if err != nil || loc == nil {
			return nil, err
		}
		return &IndexLocation{Top: loc.Top, CommonDir: loc.CommonDir, GitDir: loc.GitDir}, nil
	}
	out, err := g.Run(ctx, Invoking, dir, "rev-parse", "--path-format=absolute", "--show-toplevel", "--git-common-dir", "--git-dir")
	if err != nil {
		if ExitCode(err) == 128 {
			return nil, nil // not a repository, or a bare one
		}
		return nil, err
	}
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(lines) != 3 {
		return nil, fmt.Errorf("git rev-parse: unexpected output %q", out)
	}
	return &IndexLocation{Top: lines[0], CommonDir: lines[1], GitDir: lines[2]}, nil
}

// Index is the stage-0 entries of the index a commit would be made from,
// as `git ls-files --stage` lists them (in path order).
type Index struct {
	entries []IndexEntry
}

// ReadIndex lists the invoking repository's index (GIT_INDEX_FILE
// honoured) through git.
func (g *Git) ReadIndex(ctx context.Context, dir string) (*Index, error) {
	entries, err := g.IndexEntries(ctx, dir)
	if err != nil {
		return nil, err
	}
	return NewIndex(entries), nil
}

// NewIndex is an index of entries git listed (in path order).
func NewIndex(entries []IndexEntry) *Index { return &Index{entries: entries} }

// Len is the number of entries.
func (ix *Index) Len() int { return len(ix.entries) }

// search returns the first entry whose path is not below p in byte order.
func (ix *Index) search(p string) int {
	return sort.Search(len(ix.entries), func(i int) bool { return ix.entries[i].Path >= p })
}

// Lookup finds the entry at path.
func (ix *Index) Lookup(path string) (IndexEntry, bool) {
	i := ix.search(path)
	if i == len(ix.entries) || ix.entries[i].Path != path {
		return IndexEntry{}, false
	}
	return ix.entries[i], true
}

// Under returns the entries at or below the directory dir ("." for all):
// the entry at dir itself (a file, symlink or gitlink there) first.
func (ix *Index) Under(dir string) []IndexEntry {
	if dir == "." || dir == "" {
		return slices.Clone(ix.entries)
	}
	var out []IndexEntry
	if e, ok := ix.Lookup(dir); ok {
		out = append(out, e)
	}
	lo := ix.search(dir + "/")
	hi := lo
	for hi < len(ix.entries) && strings.HasPrefix(ix.entries[hi].Path, dir+"/") {
		hi++
	}
	return append(out, ix.entries[lo:hi]...)
}

// Drop removes the entries at the given paths (intent-to-add entries,
// which a commit leaves out).
func (ix *Index) Drop(paths []string) {
	if len(paths) == 0 {
		return
	}
	drop := make(map[string]bool, len(paths))
	for _, p := range paths {
		drop[p] = true
	}
	ix.entries = slices.DeleteFunc(ix.entries, func(e IndexEntry) bool { return drop[e.Path] })
}

// HeadEntries lists the entries of HEAD's tree at the given repository-
// relative paths, in the invoking repository (none before the first
// commit). git reads them from the commit, without loading the index.
func (g *Git) HeadEntries(ctx context.Context, dir string, paths ...string) ([]IndexEntry, error) {
	args := []string{"ls-tree", "-z", "--full-tree", "HEAD", "--"}
	for _, p := range paths {
		args = append(args, ":(literal)"+p)
	}
	out, err := g.Run(ctx, Invoking, dir, args...)
	if err != nil {
		if head, herr := g.Head(ctx, Invoking, dir); herr == nil && head == "" {
			return nil, nil // no commit yet
		}
		return nil, err
	}
	var entries []IndexEntry
	for _, rec := range bytes.Split(out, []byte{0}) {
		meta, path, ok := bytes.Cut(rec, []byte{'\t'})
		if f := strings.Fields(string(meta)); ok && len(f) == 3 {
			entries = append(entries, IndexEntry{Mode: f[0], ID: f[2], Path: string(path)})
		}
	}
	return entries, nil
}

// StagedChanges lists the repository-relative paths under the pathspecs
// (repository-relative too; none for the whole commit), whatever
// directory of the work tree dir is, whose index entry differs from HEAD
// (all staged paths when there is no HEAD yet). With
// intentToAdd, entries added by `git add -N` count as new files; without,
// they are invisible, as they are to a commit.
func (g *Git) StagedChanges(ctx context.Context, dir string, intentToAdd bool, paths []string) ([]string, error) {
	out, err := g.Run(ctx, Invoking, dir, stagedChangesArgs(intentToAdd, paths)...)
	if err != nil {
		return nil, err
	}
	return splitNUL(out), nil
}

func stagedChangesArgs(intentToAdd bool, paths []string) []string {
	args := []string{"diff", "--cached", "--name-only", "--no-relative", "-z", "--no-renames", "--ita-invisible-in-index"}
	if intentToAdd {
		args = append(args[:len(args)-1], "--ita-visible-in-index", "--diff-filter=A")
	}
	args = append(args, "--")
	for _, p := range paths {
		args = append(args, ":(top,literal)"+p)
	}
	return args
}

// StartStagedChanges starts StagedChanges of the whole commit and returns
// the function that waits for its answer (which must be called): the
// pre-commit check's longest git command, started before any other. The
// answer is git's raw diff (modes and ids of both sides, ids in full), at
// the cost of the names alone: the check proves from it that a commit
// only edits documents in place (staged/delta.go).
func (g *Git) StartStagedChanges(ctx context.Context, dir string) (func() ([]TreeChange, error), error) {
	args := stagedChangesArgs(false, nil)
	args = slices.Insert(args, slices.Index(args, "--name-only"), "--raw", "--no-abbrev")
	args = slices.DeleteFunc(args, func(a string) bool { return a == "--name-only" })
	s, err := g.Start(ctx, Invoking, dir, args...)
	if err != nil {
		return nil, err
	}
	return func() ([]TreeChange, error) {
		out, err := s.Wait()
		if err != nil {
			return nil, err
		}
		return parseRawDiff(out)
	}, nil
}

// ChangedPaths lists the paths of changes, in their order.
func ChangedPaths(changes []TreeChange) []string {
	paths := make([]string, len(changes))
	for i, c := range changes {
		paths[i] = c.Path
	}
	return paths
}
