package git

import (
	"bytes"
	"context"
	"errors"
	"strings"
)

// A snapshot is a plain checkout: files only, with no .git of any kind,
// so a git command run inside it finds no repository of the tool's (an
// agent reading a snapshot cannot reach the cache through it). The tool
// reaches it as a WorkTree whose GitDir is the cache and whose Index is a
// file beside the snapshot, never inside it. Partial snapshots mark the
// entries outside their directories skip-worktree in that index instead
// of using git's sparse-checkout, whose pattern file lives in the git
// directory and so would be shared by every snapshot of a cache.

// CheckoutPlain fills w's new index with commit's tree and writes the
// files of dirs (every file when dirs holds ".") into w.Dir, recording
// their stamps in the index. Blobs must be present: nothing is fetched.
func (g *Git) CheckoutPlain(ctx context.Context, w WorkTree, commit string, dirs []string) error {
	if _, err := g.inWorkTree(ctx, w, "read-tree", commit+"^{tree}"); err != nil {
		return err
	}
	if _, err := g.SetSkipWorktree(ctx, w, dirs, false); err != nil {
		return err
	}
	// checkout-index -a leaves skip-worktree entries out.
	_, err := g.inWorkTree(ctx, w, "checkout-index", "--all", "--index")
	return err
}

// WidenPlain makes a plain checkout hold dirs too: their entries lose
// skip-worktree and their files are written; files already on disk are
// left as they are.
func (g *Git) WidenPlain(ctx context.Context, w WorkTree, dirs []string) error {
	inside, err := g.SetSkipWorktree(ctx, w, dirs, true)
	if err != nil || len(inside) == 0 {
		return err
	}
	_, err = g.inWorkTreeStdin(ctx, w, nulList(inside), "checkout-index", "--index", "-z", "--stdin")
	return err
}

// SetSkipWorktree marks every entry of w's index outside dirs
// skip-worktree (dirs holding "." keeps every entry) and, with clear,
// clears the mark inside them; it returns the entries inside.
func (g *Git) SetSkipWorktree(ctx context.Context, w WorkTree, dirs []string, clear bool) (inside []string, err error) {
	out, err := g.inWorkTree(ctx, w, "ls-files", "-z", "--full-name", "--", ":/")
	if err != nil {
		return nil, err
	}
	var outside []string
	for _, p := range splitNUL(out) {
		if underAny(p, dirs) {
			inside = append(inside, p)
		} else {
			outside = append(outside, p)
		}
	}
	if len(outside) > 0 {
		if _, err := g.inWorkTreeStdin(ctx, w, nulList(outside), "update-index", "-z", "--skip-worktree", "--stdin"); err != nil {
			return nil, err
		}
	}
	if clear && len(inside) > 0 {
		if _, err := g.inWorkTreeStdin(ctx, w, nulList(inside), "update-index", "-z", "--no-skip-worktree", "--stdin"); err != nil {
			return nil, err
		}
	}
	return inside, nil
}

// underAny reports a path inside one of dirs; an entry at a directory's
// own path (a file or symlink where the directory was declared) is not.
func underAny(p string, dirs []string) bool {
	for _, d := range dirs {
		if d == "." || strings.HasPrefix(p, d+"/") {
			return true
		}
	}
	return false
}

func nulList(paths []string) *bytes.Buffer {
	var b bytes.Buffer
	for _, p := range paths {
		b.WriteString(p)
		b.WriteByte(0)
	}
	return &b
}

// inWorkTreeStdin is inWorkTree with stdin.
func (g *Git) inWorkTreeStdin(ctx context.Context, w WorkTree, stdin *bytes.Buffer, args ...string) ([]byte, error) {
	cmd, err := g.command(ctx, Isolated, w.Dir, append([]string{"--git-dir=" + w.GitDir, "--work-tree=" + w.Dir}, args...)...)
	if err != nil {
		return nil, err
	}
	if w.Index != "" {
		cmd.Env = append(cmd.Env, "GIT_INDEX_FILE="+w.Index)
	}
	cmd.Stdin = stdin
	return runCmd(cmd, args)
}

// RefreshPlain records the current stamps of a plain checkout's files in
// its index (update-index --refresh): after the tool changed their modes
// (and so their ctime), git would otherwise re-read every file on each
// integrity check. A file whose content differs from its entry is left
// as it is and reported as an error.
func (g *Git) RefreshPlain(ctx context.Context, w WorkTree) error {
	_, err := g.inWorkTree(ctx, w, "update-index", "-q", "--refresh")
	return err
}

// IndexHolds reports whether w's index holds exactly commit's tree: every
// path with its mode and object, skip-worktree entries included. It is a
// plain checkout's identity, which Pending cannot show: that compares the
// files only with the index, so a snapshot whose files and index were
// both another commit's would look clean. Only object ids are compared,
// so no blob is read (or fetched).
func (g *Git) IndexHolds(ctx context.Context, w WorkTree, commit string) (bool, error) {
	_, err := g.inWorkTree(ctx, w, "diff-index", "--cached", "--quiet", commit, "--")
	var xe *ExitError
	if errors.As(err, &xe) && xe.Code == 1 {
		return false, nil
	}
	return err == nil, err
}
