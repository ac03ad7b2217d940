package staged

import (
	"context"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/git-context-tree/git-context-tree/internal/adapters/git"
	"github.com/git-context-tree/git-context-tree/internal/cachefile"
	"github.com/git-context-tree/git-context-tree/internal/tree"
)

// The fast path (nothing staged in a declared tree) commits HEAD's trees
// again, so it is sound only for trees known to verify: a HEAD made by a
// merge, cherry-pick, rebase or `--no-verify` commit may hold an invalid
// tree that no hook judged, and an amend or a commit on top of it would
// carry it on unjudged (issue 11, break 6). What one tree yields depends on
// its content alone, which its tree object id names, so the ids of
// declared trees that verified are kept in <git common dir>/context-tree/
// verified-trees: a first line naming the verifier (the staged cache's
// fingerprint: another build verifies again), then one id per line, the
// newest last, at most verifiedKeep. Like the staged cache it is a cache:
// a missing, foreign or torn file only costs one full verification.

const (
	verifiedName  = "verified-trees"
	verifiedMagic = "git-context-tree verified trees 1"
	verifiedKeep  = 1024
)

type verifiedTrees struct {
	file  string
	ids   []string
	set   map[string]bool
	dirty bool
}

func openVerified(commonDir string) *verifiedTrees {
	v := &verifiedTrees{set: map[string]bool{}}
	if commonDir == "" {
		return v
	}
	v.file = filepath.Join(commonDir, cacheDir, verifiedName)
	data, err := os.ReadFile(v.file)
	if err != nil {
		return v
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	if len(lines) == 0 || lines[0] != verifiedHeader() {
		return v
	}
	for _, id := range lines[1:] {
		if validObjectID(id) && !v.set[id] {
			v.ids = append(v.ids, id)
			v.set[id] = true
		}
	}
	return v
}

func verifiedHeader() string {
	return verifiedMagic + " " + strings.ReplaceAll(cacheFingerprint(), "\n", " ")
}

func (v *verifiedTrees) has(id string) bool { return id != "" && v.set[id] }

func (v *verifiedTrees) add(id string) {
	if !validObjectID(id) || v.set[id] {
		return
	}
	v.ids = append(v.ids, id)
	v.set[id] = true
	v.dirty = true
}

// save writes the file when something was added; failing to is harmless.
func (v *verifiedTrees) save() {
	if v.file == "" || !v.dirty {
		return
	}
	ids := v.ids
	if len(ids) > verifiedKeep {
		ids = ids[len(ids)-verifiedKeep:]
	}
	cachefile.Write(v.file, []byte(verifiedHeader()+"\n"+strings.Join(ids, "\n")+"\n"))
}

// validObjectID accepts a SHA-1 or SHA-256 object id in lowercase hex.
func validObjectID(id string) bool {
	if len(id) != 40 && len(id) != 64 {
		return false
	}
	return !slices.ContainsFunc([]byte(id), func(c byte) bool { return (c < '0' || c > '9') && (c < 'a' || c > 'f') })
}

// headTrees records what HEAD holds at each declared tree's prefix: its
// entry (a tree, a gitlink, nothing), read once per run.
func (r *run) headTrees(ctx context.Context, trees []declared) (map[string]git.IndexEntry, error) {
	if r.heads != nil {
		return r.heads, nil
	}
	heads, err := r.lookupHeads(ctx, trees)
	if err != nil {
		return nil, err
	}
	r.heads = heads
	return heads, nil
}

// lookupHeads is headTrees without remembering: it changes nothing in r,
// so it may run beside other work of the run.
func (r *run) lookupHeads(ctx context.Context, trees []declared) (map[string]git.IndexEntry, error) {
	heads := map[string]git.IndexEntry{}
	var paths []string
	for _, t := range trees {
		if t.prefix == "." {
			id, err := r.g.HeadTree(ctx, r.top)
			if err != nil {
				return nil, gitErr(err)
			}
			if id != "" {
				heads["."] = git.IndexEntry{Mode: "040000", ID: id, Path: "."}
			}
			continue
		}
		paths = append(paths, t.prefix)
	}
	if len(paths) > 0 {
		listed, err := r.g.HeadEntries(ctx, r.top, paths...)
		if err != nil {
			return nil, gitErr(err)
		}
		for _, e := range listed {
			heads[e.Path] = e
		}
	}
	return heads, nil
}

// committedTreesVerified reports whether every declared tree, as HEAD
// holds it (and so as this commit holds it, nothing in it being staged),
// is known to verify: its tree id verified before, or it is another
// repository's (a submodule, a nested clone).
func (r *run) committedTreesVerified(ctx context.Context, trees []declared) (bool, error) {
	heads, err := r.headTrees(ctx, trees)
	if err != nil {
		return false, err
	}
	r.verified = openVerified(r.commonDir)
	// A HEAD made by a commit this check passed is proved verified from
	// its pending record (delta.go).
	states, cits := openStates(r.commonDir), openCitations(r.commonDir)
	for _, t := range trees {
		if e, ok := heads[t.prefix]; ok && e.Mode == "040000" {
			r.prove(e.ID, states, cits)
		}
	}
	r.verified.save()
	states.save()
	cits.save()
	for _, t := range trees {
		e, ok := heads[t.prefix]
		switch {
		case ok && e.Mode == "160000":
		case ok && e.Mode == "040000" && r.verified.has(e.ID):
		case !ok:
			inOther, err := r.inOtherRepository(ctx, t.conn.Dir)
			if err != nil || !inOther {
				return false, err
			}
		default:
			return false, nil
		}
	}
	return true, nil
}

// recordVerified remembers the HEAD tree ids of the trees that verified
// and that this commit does not change: their content is HEAD's.
func (r *run) recordVerified(ctx context.Context, changed []string, trees []declared, ok map[string]bool) {
	var untouched []declared
	for _, t := range trees {
		if ok[t.prefix] && !slices.ContainsFunc(changed, func(p string) bool { return under(p, t.prefix) }) {
			untouched = append(untouched, t)
		}
	}
	if len(untouched) == 0 {
		return
	}
	heads, err := r.headTrees(ctx, trees)
	if err != nil {
		return
	}
	if r.verified == nil {
		r.verified = openVerified(r.commonDir)
	}
	for _, t := range untouched {
		if e, found := heads[t.prefix]; found && e.Mode == "040000" {
			r.verified.add(e.ID)
		}
	}
	r.verified.save()
}

// declaredPrefix is where a declared directory is in the index: its path
// as the configuration declares it (a connection's Dir keeps a symlink in
// the project as written), lexically inside the work tree. It is never
// resolved through a symlink on disk: an unstaged `docs/context -> real`
// must not make the check read real/ while docs/context/ is committed.
func (r *run) declaredPrefix(dir string) (string, bool) {
	rel, ok := tree.Inside(r.top, filepath.Clean(dir))
	return filepath.ToSlash(rel), ok
}

// stagedRootSymlink returns the path of a symlink the index holds at a
// tree's root or above it, "" when there is none. Only when nothing is
// staged below the root are the directories above it looked up (git never
// stages a path below a symlink).
func (r *run) stagedRootSymlink(ctx context.Context, entries []git.IndexEntry, prefix string) (string, error) {
	for _, e := range entries {
		if e.Path == prefix && e.Mode == "120000" {
			return prefix, nil
		}
	}
	if len(entries) > 0 || prefix == "." {
		return "", nil
	}
	var above []string
	for p := path.Dir(prefix); p != "."; p = path.Dir(p) {
		above = append(above, p)
	}
	if len(above) == 0 {
		return "", nil
	}
	listed, err := r.g.IndexEntries(ctx, r.top, above...)
	if err != nil {
		return "", gitErr(err)
	}
	for _, e := range listed {
		if e.Mode == "120000" && slices.Contains(above, e.Path) {
			return e.Path, nil
		}
	}
	return "", nil
}

// symlinkOnDisk reports whether a component of dir below the work tree's
// top is a symlink on disk: the work tree then says nothing about where
// the tree is, and only the index counts.
func (r *run) symlinkOnDisk(dir string) bool {
	rel, ok := tree.Inside(r.top, filepath.Clean(dir))
	if !ok || rel == "." {
		return false
	}
	cur := r.top
	for _, seg := range strings.Split(rel, string(filepath.Separator)) {
		cur = filepath.Join(cur, seg)
		fi, err := os.Lstat(cur)
		if err != nil {
			return false
		}
		if fi.Mode()&os.ModeSymlink != 0 {
			return true
		}
	}
	return false
}
