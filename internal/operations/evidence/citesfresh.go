package evidence

// Freshness is a function of the repository's head and the entry (its
// commit, path and lines), so cites keeps what it traced per head in
// <git dir>/context-tree/cites/fresh-<head>: an agent reading file after
// file between two commits pays for the walk of history once per entry.
// The file is framed and checked like the index; anything wrong with it
// costs a trace again.

import (
	"context"
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"

	"github.com/git-context-tree/git-context-tree/internal/adapters/git"
	"github.com/git-context-tree/git-context-tree/internal/cachefile"
	"github.com/git-context-tree/git-context-tree/internal/operations"
	"github.com/git-context-tree/git-context-tree/internal/tree"
)

const freshMagic = "git-context-tree cites freshness 1\n"

// traced is what a trace found for one entry.
type traced struct {
	status, path, lines, message string
	empty                        bool
	commits                      []string
}

type freshCache struct {
	file    string // "" when there is nowhere to keep it
	head    string
	entries map[string]traced
	// present says, for each cited path asked about, whether it exists
	// at head (a regular file or not, it is there).
	present map[string]bool
	dirty   bool
}

func freshKey(t *trace) string {
	return strings.Join([]string{t.sinceName, t.c.src.Path, t.c.src.Lines}, "\x00")
}

// openFresh loads the freshness kept for r's head.
func openFresh(ctx context.Context, env operations.Env, r *evidenceRepo) *freshCache {
	f := &freshCache{head: r.Head, entries: map[string]traced{}, present: map[string]bool{}}
	dir := gitDirOf(ctx, env, r.Repo)
	if dir == "" || !validOID(r.Head) {
		return f
	}
	f.file = filepath.Join(dir, filepath.FromSlash(citesDir), "fresh-"+r.Head)
	if data, err := os.ReadFile(f.file); err == nil {
		if d, err := cachefile.Open(data, freshMagic, citesFingerprint()+"|"+r.Head); err == nil {
			for n := d.Count(); n > 0 && d.Err == nil; n-- {
				k := d.String()
				v := traced{status: d.String(), path: d.String(), lines: d.String(), message: d.String(), empty: d.Uvarint() == 1}
				for c := d.Count(); c > 0 && d.Err == nil; c-- {
					v.commits = append(v.commits, d.String())
				}
				f.entries[k] = v
			}
			for n := d.Count(); n > 0 && d.Err == nil; n-- {
				p := d.String()
				f.present[p] = d.Uvarint() == 1
			}
			if !d.Done() {
				f.entries, f.present = map[string]traced{}, map[string]bool{}
			}
		}
	}
	return f
}

// fill sets t from the cache, false when it holds nothing for t.
func (f *freshCache) fill(t *trace) bool {
	v, ok := f.entries[freshKey(t)]
	if !ok {
		return false
	}
	t.status, t.path, t.message, t.empty, t.commits = v.status, v.path, v.message, v.empty, v.commits
	t.rng = tree.LineRange{}
	if v.lines != "" {
		if r, err := tree.ParseLineRange(v.lines); err == nil {
			t.rng = r
		}
	}
	return true
}

// put keeps what a trace found.
func (f *freshCache) put(t *trace) {
	lines := ""
	if !t.rng.Whole() {
		lines = t.rng.String()
	}
	f.entries[freshKey(t)] = traced{status: t.status, path: t.path, lines: lines, message: t.message, empty: t.empty, commits: t.commits}
	f.dirty = true
}

func (f *freshCache) save() {
	if f.file == "" || !f.dirty {
		return
	}
	b := cachefile.Begin(freshMagic, citesFingerprint()+"|"+f.head)
	b = binary.AppendUvarint(b, uint64(len(f.entries)))
	for k, v := range f.entries {
		for _, s := range []string{k, v.status, v.path, v.lines, v.message} {
			b = cachefile.AppendString(b, s)
		}
		empty := uint64(0)
		if v.empty {
			empty = 1
		}
		b = binary.AppendUvarint(b, empty)
		b = binary.AppendUvarint(b, uint64(len(v.commits)))
		for _, c := range v.commits {
			b = cachefile.AppendString(b, c)
		}
	}
	b = binary.AppendUvarint(b, uint64(len(f.present)))
	for p, there := range f.present {
		b = cachefile.AppendString(b, p)
		v := uint64(0)
		if there {
			v = 1
		}
		b = binary.AppendUvarint(b, v)
	}
	if cachefile.Write(f.file, cachefile.Seal(b)) {
		pruneCites(filepath.Dir(f.file))
	}
}

// gitDirOf is the directory holding a repository's objects, where cites
// keeps its files: a cache's git dir, or a work tree's common git dir
// (its .git directory when it is one: no git process for the common case).
func gitDirOf(ctx context.Context, env operations.Env, r git.Repo) string {
	if r.GitDir != "" {
		return r.GitDir
	}
	dotGit := filepath.Join(r.Dir, ".git")
	if fi, err := os.Lstat(dotGit); err == nil && fi.IsDir() {
		return dotGit
	}
	dir, err := env.Git.CommonDir(ctx, git.Isolated, r.Dir)
	if err != nil {
		return ""
	}
	return dir
}

func validOID(s string) bool {
	return (len(s) == 40 || len(s) == 64) && isLowerHex(s)
}

func isLowerHex(s string) bool {
	for _, c := range s {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}
