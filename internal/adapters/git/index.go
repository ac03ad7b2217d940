package git

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os/exec"
	"slices"
	"sort"
	"strconv"
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
	var entries []IndexEntry
	for _, rec := range bytes.Split(out, []byte{0}) {
		meta, path, ok := bytes.Cut(rec, []byte{'\t'})
		if !ok {
			continue
		}
		f := strings.Fields(string(meta))
		if len(f) != 3 || f[2] != "0" {
			continue // conflicted entries have no single content
		}
		entries = append(entries, IndexEntry{Mode: f[0], ID: f[1], Path: string(path)})
	}
	return entries, nil
}

// StagedPaths lists the paths whose index entry differs from HEAD (every
// path when there is no HEAD yet), in the invoking repository.
func (g *Git) StagedPaths(ctx context.Context, dir string) ([]string, error) {
	// Without a commit, git diff --cached shows every staged path.
	out, err := g.Run(ctx, Invoking, dir, "diff", "--cached", "--name-only", "-z", "--no-renames", "--")
	if err != nil {
		return nil, err
	}
	return splitNUL(out), nil
}

// ReadBlobs reads blobs by id through one `git cat-file --batch` process in
// the invoking repository, calling fn for each in order. Missing objects
// are an error.
func (g *Git) ReadBlobs(ctx context.Context, dir string, ids []string, fn func(id string, data []byte) error) error {
	if len(ids) == 0 {
		return nil
	}
	cmd, err := g.command(ctx, Invoking, dir, "cat-file", "--batch")
	if err != nil {
		return err
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("run git cat-file: %w", err)
	}
	go func() {
		w := bufio.NewWriter(stdin)
		for _, id := range ids {
			w.WriteString(id + "\n")
		}
		w.Flush()
		stdin.Close()
	}()
	r := bufio.NewReaderSize(stdout, 1<<16)
	readErr := readBatch(r, ids, fn)
	if readErr != nil {
		cmd.Process.Kill()
	}
	waitErr := cmd.Wait()
	if readErr != nil {
		return readErr
	}
	if waitErr != nil {
		return fmt.Errorf("git cat-file --batch: %v: %s", waitErr, strings.TrimSpace(stderr.String()))
	}
	return nil
}

// readBatch parses `<id> <type> <size>\n<content>\n` records.
func readBatch(r *bufio.Reader, ids []string, fn func(id string, data []byte) error) error {
	for _, id := range ids {
		header, err := r.ReadString('\n')
		if err != nil {
			return fmt.Errorf("git cat-file --batch: %w", err)
		}
		f := strings.Fields(header)
		if len(f) != 3 {
			return fmt.Errorf("git cat-file --batch: object %s: %s", id, strings.TrimSpace(header))
		}
		size, err := strconv.Atoi(f[2])
		if err != nil {
			return fmt.Errorf("git cat-file --batch: bad size in %q", header)
		}
		data := make([]byte, size+1)
		if _, err := io.ReadFull(r, data); err != nil {
			return fmt.Errorf("git cat-file --batch: %w", err)
		}
		if err := fn(f[0], data[:size]); err != nil {
			return err
		}
	}
	return nil
}

// IndexLocation is where the invoking repository keeps what a commit is
// made from.
type IndexLocation struct {
	Top       string // the work tree's top directory
	CommonDir string // the git dir shared by every worktree
}

// LocateIndex finds the invoking repository at dir with one `git
// rev-parse`; nil when dir is not in a work tree.
func (g *Git) LocateIndex(ctx context.Context, dir string) (*IndexLocation, error) {
	out, err := g.Run(ctx, Invoking, dir, "rev-parse", "--path-format=absolute", "--show-toplevel", "--git-common-dir")
	if err != nil {
		if ExitCode(err) == 128 {
			return nil, nil // not a repository, or a bare one
		}
		return nil, err
	}
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(lines) != 2 {
		return nil, fmt.Errorf("git rev-parse: unexpected output %q", out)
	}
	return &IndexLocation{Top: lines[0], CommonDir: lines[1]}, nil
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

// StagedChanges lists the paths under the pathspecs whose index entry
// differs from HEAD (all staged paths when there is no HEAD yet). With
// intentToAdd, entries added by `git add -N` count as new files; without,
// they are invisible, as they are to a commit.
func (g *Git) StagedChanges(ctx context.Context, dir string, intentToAdd bool, paths []string) ([]string, error) {
	args := []string{"diff", "--cached", "--name-only", "-z", "--no-renames", "--ita-invisible-in-index"}
	if intentToAdd {
		args = append(args[:len(args)-1], "--ita-visible-in-index", "--diff-filter=A")
	}
	args = append(args, "--")
	for _, p := range paths {
		args = append(args, ":(top,literal)"+p)
	}
	out, err := g.Run(ctx, Invoking, dir, args...)
	if err != nil {
		return nil, err
	}
	return splitNUL(out), nil
}

// Batch is one `git cat-file --batch` process of the invoking repository,
// answering object requests in order.
type Batch struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	r      *bufio.Reader
	stderr bytes.Buffer
	err    error
}

// OpenBatch starts `git cat-file --batch` in dir, in the invoking
// repository's environment. Close it.
func (g *Git) OpenBatch(ctx context.Context, dir string) (*Batch, error) {
	cmd, err := g.command(ctx, Invoking, dir, "cat-file", "--batch")
	if err != nil {
		return nil, err
	}
	return startBatch(cmd)
}

// OpenRepoBatch starts `git cat-file --batch` against the repository whose
// git directory is gitDir, isolated like InRepo. Close it.
func (g *Git) OpenRepoBatch(ctx context.Context, gitDir string) (*Batch, error) {
	cmd, err := g.command(ctx, Isolated, gitDir, "--git-dir="+gitDir, "cat-file", "--batch")
	if err != nil {
		return nil, err
	}
	return startBatch(cmd)
}

func startBatch(cmd *exec.Cmd) (*Batch, error) {
	b := &Batch{cmd: cmd}
	var err error
	b.cmd.Stderr = &b.stderr
	if b.stdin, err = b.cmd.StdinPipe(); err != nil {
		return nil, err
	}
	stdout, err := b.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := b.cmd.Start(); err != nil {
		return nil, fmt.Errorf("run git cat-file: %w", err)
	}
	b.r = bufio.NewReaderSize(stdout, 1<<16)
	return b, nil
}

// Objects requests objects by name (an id, or a revision expression such
// as HEAD:path; never holding a newline) and calls fn with each one's id
// and content in order; id is "" for a name that names no object.
func (b *Batch) Objects(names []string, fn func(i int, id string, data []byte) error) error {
	if b.err != nil {
		return b.err
	}
	done := make(chan error, 1)
	go func() {
		w := bufio.NewWriter(b.stdin)
		for _, n := range names {
			w.WriteString(n)
			w.WriteByte('\n')
		}
		done <- w.Flush()
	}()
	var err error
	for i := range names {
		var header string
		if header, err = b.r.ReadString('\n'); err != nil {
			break
		}
		if header == names[i]+" missing\n" || header == names[i]+" ambiguous\n" {
			if err = fn(i, "", nil); err != nil {
				break
			}
			continue
		}
		f := strings.Fields(header)
		var size int
		if len(f) != 3 {
			err = fmt.Errorf("object %s: %s", names[i], strings.TrimSpace(header))
			break
		}
		if size, err = strconv.Atoi(f[2]); err != nil {
			break
		}
		data := make([]byte, size+1)
		if _, err = io.ReadFull(b.r, data); err != nil {
			break
		}
		if err = fn(i, f[0], data[:size]); err != nil {
			break
		}
	}
	if err != nil {
		b.err = fmt.Errorf("git cat-file --batch: %w%s", err, b.stderrNote())
		b.cmd.Process.Kill()
		return b.err
	}
	if werr := <-done; werr != nil {
		b.err = fmt.Errorf("git cat-file --batch: %w%s", werr, b.stderrNote())
		return b.err
	}
	return nil
}

func (b *Batch) stderrNote() string {
	if s := strings.TrimSpace(b.stderr.String()); s != "" {
		return ": " + s
	}
	return ""
}

// Close ends the process.
func (b *Batch) Close() error {
	b.stdin.Close()
	err := b.cmd.Wait()
	if b.err == nil && err != nil {
		return fmt.Errorf("git cat-file --batch: %v%s", err, b.stderrNote())
	}
	return nil
}
