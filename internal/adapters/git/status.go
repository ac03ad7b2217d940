package git

import (
	"bytes"
	"context"
)

// StatusEntry is one path of `git status --porcelain=v2`.
type StatusEntry struct {
	// Kind is '1' (changed), '2' (renamed or copied), 'u' (unmerged),
	// '?' (untracked) or '!' (ignored).
	Kind byte
	Path string
	// Orig is a rename's or copy's source path.
	Orig string
	// Unstaged is true when the work tree differs from the index here
	// (untracked files included), not only the index from HEAD.
	Unstaged bool
	// Staged is true when the index differs from HEAD here.
	Staged bool
}

// Status lists every pending path of the worktree at dir (limited to the
// literal pathspecs, if any): tracked changes, untracked files one by one,
// and ignored files too. Paths are relative to the worktree root.
func (g *Git) Status(ctx context.Context, dir string, pathspecs ...string) ([]StatusEntry, error) {
	args := []string{"status", "--porcelain=v2", "-z", "--ignored=matching", "--untracked-files=all", "--"}
	for _, p := range pathspecs {
		args = append(args, ":(top,literal)"+p)
	}
	out, err := g.Run(ctx, Isolated, dir, args...)
	if err != nil {
		return nil, err
	}
	return parseStatusV2(out), nil
}

// parseStatusV2 parses -z porcelain v2 records. Ordinary and unmerged
// records have a fixed number of space-separated fields before the path;
// a rename record is followed by its source path as the next record.
func parseStatusV2(out []byte) []StatusEntry {
	recs := bytes.Split(out, []byte{0})
	var entries []StatusEntry
	for i := 0; i < len(recs); i++ {
		r := recs[i]
		if len(r) < 2 {
			continue
		}
		fields := map[byte]int{'1': 8, '2': 9, 'u': 10, '?': 1, '!': 1}
		n, ok := fields[r[0]]
		if !ok {
			continue // headers
		}
		parts := bytes.SplitN(r, []byte{' '}, n+1)
		if len(parts) != n+1 {
			continue
		}
		e := StatusEntry{Kind: r[0], Path: string(parts[n]), Unstaged: r[0] != '1' && r[0] != '2'}
		if (r[0] == '1' || r[0] == '2') && len(parts[1]) == 2 {
			e.Staged = parts[1][0] != '.'   // XY: X is the index's side,
			e.Unstaged = parts[1][1] != '.' // Y the work tree's
		}
		if r[0] == '2' && i+1 < len(recs) {
			i++
			e.Orig = string(recs[i])
		}
		entries = append(entries, e)
	}
	return entries
}

// WorkingPaths lists the checkout at dir's pending paths, repository-
// relative: staged (the index differs from HEAD), modified (the work tree
// differs from the index, unmerged paths included) and untracked (not
// ignored), leaving out the excluded paths (relative to the root). It only
// looks (--no-optional-locks).
func (g *Git) WorkingPaths(ctx context.Context, scope Scope, dir string, exclude ...string) (staged, modified, untracked []string, err error) {
	args := []string{"--no-optional-locks", "status", "--porcelain=v2", "-z", "--untracked-files=all", "--", ":(top)"}
	for _, p := range exclude {
		args = append(args, ":(top,literal,exclude)"+p)
	}
	out, err := g.Run(ctx, scope, dir, args...)
	if err != nil {
		return nil, nil, nil, err
	}
	staged, modified, untracked = []string{}, []string{}, []string{}
	for _, e := range parseStatusV2(out) {
		switch {
		case e.Kind == '?':
			untracked = append(untracked, e.Path)
		case e.Kind == '!':
		default:
			if e.Staged {
				staged = append(staged, e.Path)
			}
			if e.Unstaged {
				modified = append(modified, e.Path)
			}
		}
	}
	return staged, modified, untracked, nil
}
