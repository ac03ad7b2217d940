package git

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// Quarantine is a temporary object directory in front of a repository's
// own, as receive-pack quarantines what a push brings until its checks
// pass: git commands run through it (a WorkTree naming it, OpenBatch,
// DiffTrees, LsTree, ObjectSizes) read the repository's objects and write
// new ones into the quarantine only (GIT_OBJECT_DIRECTORY, the
// repository's objects as its alternate). Migrate moves what it holds
// into the repository once the caller accepts it; Remove discards it.
// Ref updates are refused inside it (GIT_QUARANTINE_PATH).
type Quarantine struct {
	g       *Git
	gitDir  string
	objects string // the repository's object directory
	dir     string // the quarantine's
}

// quarantinePrefix names quarantines as git names its own temporary object
// directories (tmp_objdir-<purpose>-XXXXXX), so `git prune` (run by gc)
// removes one a killed run left behind, as it removes receive-pack's.
const quarantinePrefix = "tmp_objdir-context-tree-"

// NewQuarantine creates a quarantine for the repository whose common git
// directory is gitDir, inside its object directory (objects then move in
// by rename, never by copy). Quarantines of the same owner that killed
// runs left are removed first: the caller holds the lock that makes owner
// (a name of letters, digits, '-' and '_') its own.
func (g *Git) NewQuarantine(gitDir, owner string) (*Quarantine, error) {
	if owner == "" || strings.Trim(owner, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_") != "" {
		return nil, fmt.Errorf("quarantine: owner %q is not a plain name", owner)
	}
	objects, err := filepath.Abs(filepath.Join(gitDir, "objects"))
	if err != nil {
		return nil, fmt.Errorf("quarantine: %w", err)
	}
	if strings.ContainsAny(objects, "\n\r") {
		return nil, fmt.Errorf("quarantine: %q cannot be named as an alternate", objects)
	}
	stale, _ := filepath.Glob(filepath.Join(objects, quarantinePrefix+owner+"-*"))
	for _, p := range stale {
		os.RemoveAll(p)
	}
	dir, err := os.MkdirTemp(objects, quarantinePrefix+owner+"-")
	if err != nil {
		return nil, fmt.Errorf("quarantine: %w", err)
	}
	q := &Quarantine{g: g, gitDir: gitDir, objects: objects, dir: dir}
	// The alternate is named in the quarantine's own info/alternates
	// rather than GIT_ALTERNATE_OBJECT_DIRECTORIES, whose ':' separates
	// entries.
	err = os.MkdirAll(filepath.Join(dir, "info"), 0o700)
	if err == nil {
		err = os.WriteFile(filepath.Join(dir, "info", "alternates"), []byte(objects+"\n"), 0o600)
	}
	if err != nil {
		q.Remove()
		return nil, fmt.Errorf("quarantine: %w", err)
	}
	return q, nil
}

// env is what a command runs with to read and write through q.
func (q *Quarantine) env() []string {
	return []string{"GIT_OBJECT_DIRECTORY=" + q.dir, "GIT_QUARANTINE_PATH=" + q.dir}
}

// OpenBatch starts `git cat-file --batch` in the repository through q, as
// OpenRepoBatch does without one. Close it.
func (q *Quarantine) OpenBatch(ctx context.Context) (*Batch, error) {
	b := &Batch{g: q.g, ctx: ctx, scope: Isolated, dir: q.gitDir, env: q.env(), args: []string{"--git-dir=" + q.gitDir, "cat-file", "--batch"}}
	if err := b.open(); err != nil {
		return nil, err
	}
	return b, nil
}

// DiffTrees is Git.DiffTrees through q.
func (q *Quarantine) DiffTrees(ctx context.Context, from, to string, recurse bool) ([]TreeChange, error) {
	return q.g.diffTrees(ctx, q.gitDir, q, from, to, recurse)
}

// LsTree is Git.LsTree through q.
func (q *Quarantine) LsTree(ctx context.Context, commit string, recurse bool, paths ...string) ([]TreeEntry, error) {
	return q.g.lsTree(ctx, q.gitDir, q, commit, recurse, paths...)
}

// ObjectSizes is Git.ObjectSizes through q.
func (q *Quarantine) ObjectSizes(ctx context.Context, ids []string) ([]int64, error) {
	return q.g.objectSizes(ctx, q.gitDir, q, ids)
}

// ObjectSizes returns the size in bytes of each named object of gitDir
// (-1 for a name that names none), read from the objects' headers
// (`cat-file --batch-check`): no content is inflated, however large.
func (g *Git) ObjectSizes(ctx context.Context, gitDir string, names []string) ([]int64, error) {
	return g.objectSizes(ctx, gitDir, nil, names)
}

func (g *Git) objectSizes(ctx context.Context, gitDir string, q *Quarantine, names []string) ([]int64, error) {
	if len(names) == 0 {
		return nil, nil
	}
	var in bytes.Buffer
	for _, n := range names {
		if n == "" || strings.ContainsAny(n, " \t\r\n") {
			return nil, fmt.Errorf("object sizes: %q is not an object name", n)
		}
		in.WriteString(n + "\n")
	}
	out, err := g.inRepoWith(ctx, gitDir, q, &in, "cat-file", "--batch-check=%(objectname) %(objectsize)")
	if err != nil {
		return nil, err
	}
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(lines) != len(names) {
		return nil, fmt.Errorf("git cat-file --batch-check: %d answers to %d names", len(lines), len(names))
	}
	sizes := make([]int64, len(names))
	for i, line := range lines {
		_, size, ok := strings.Cut(line, " ")
		if size == "missing" || size == "ambiguous" {
			sizes[i] = -1
			continue
		}
		n, err := strconv.ParseInt(size, 10, 64)
		if !ok || err != nil || n < 0 {
			return nil, fmt.Errorf("git cat-file --batch-check: unexpected answer %q", line)
		}
		sizes[i] = n
	}
	return sizes, nil
}

// inRepoWith is InRepo through q (nil: the repository's own objects),
// with stdin as the command's input (nil: none).
func (g *Git) inRepoWith(ctx context.Context, gitDir string, q *Quarantine, stdin io.Reader, args ...string) ([]byte, error) {
	cmd, err := g.command(ctx, Isolated, gitDir, append([]string{"--git-dir=" + gitDir}, args...)...)
	if err != nil {
		return nil, err
	}
	if q != nil {
		cmd.Env = append(cmd.Env, q.env()...)
	}
	cmd.Stdin = stdin
	return runCmd(cmd, args)
}

// Migrate moves the quarantine's objects into the repository's object
// directory as git moves a push's in (tmp_objdir_migrate): loose objects
// first, then packs with each pack's index last, so no reader ever finds
// an index whose pack is not there yet. An object the repository already
// holds is kept as it is. The quarantine stays usable, holding nothing.
func (q *Quarantine) Migrate() error {
	entries, err := os.ReadDir(q.dir)
	if err != nil {
		return fmt.Errorf("quarantine: %w", err)
	}
	for _, e := range entries {
		if e.IsDir() && isFanout(e.Name()) {
			if err := migrateDir(filepath.Join(q.dir, e.Name()), filepath.Join(q.objects, e.Name())); err != nil {
				return err
			}
		}
	}
	if _, err := os.Lstat(filepath.Join(q.dir, "pack")); err == nil {
		return migrateDir(filepath.Join(q.dir, "pack"), filepath.Join(q.objects, "pack"))
	}
	return nil
}

// Remove deletes the quarantine and whatever it still holds.
func (q *Quarantine) Remove() error {
	return os.RemoveAll(q.dir)
}

// isFanout reports a loose objects' directory name: two hex digits.
func isFanout(name string) bool {
	return len(name) == 2 && strings.Trim(name, "0123456789abcdef") == ""
}

// migrateDir moves the regular files of src into dst (made with src's
// mode, which git gave it from the repository's core.sharedRepository),
// in packCopyOrder. Files git has not finished (tmp_*) stay behind.
func migrateDir(src, dst string) error {
	fi, err := os.Lstat(src)
	if err != nil || !fi.IsDir() {
		return fmt.Errorf("quarantine: %s is not a directory", src)
	}
	if err := os.Mkdir(dst, fi.Mode().Perm()); err == nil {
		os.Chmod(dst, fi.Mode()&(fs.ModePerm|fs.ModeSetgid))
	} else if !errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("quarantine: %w", err)
	}
	entries, err := os.ReadDir(src)
	if err != nil {
		return fmt.Errorf("quarantine: %w", err)
	}
	slices.SortStableFunc(entries, func(a, b fs.DirEntry) int { return packCopyOrder(a.Name()) - packCopyOrder(b.Name()) })
	for _, e := range entries {
		if !e.Type().IsRegular() || strings.HasPrefix(e.Name(), "tmp_") {
			continue
		}
		if err := moveObjectFile(filepath.Join(src, e.Name()), filepath.Join(dst, e.Name())); err != nil {
			return err
		}
	}
	return nil
}

// packCopyOrder is git's order for a pack's files: .keep, .pack, .rev,
// anything else, and .idx, which makes the pack visible, last.
func packCopyOrder(name string) int {
	for i, ext := range []string{".keep", ".pack", ".rev"} {
		if strings.HasSuffix(name, ext) {
			return i
		}
	}
	if strings.HasSuffix(name, ".idx") {
		return 4
	}
	return 3
}

// moveObjectFile moves one object file in as git's finalize_object_file
// does: a hard link, which never replaces a file already there (the same
// object), else a rename.
func moveObjectFile(src, dst string) error {
	err := os.Link(src, dst)
	switch {
	case err == nil || errors.Is(err, fs.ErrExist):
		err = nil
	default: // a file system without hard links
		if _, serr := os.Lstat(dst); serr == nil {
			err = nil
		} else {
			err = os.Rename(src, dst)
		}
	}
	if err != nil {
		return fmt.Errorf("quarantine: %w", err)
	}
	os.Remove(src)
	return nil
}
