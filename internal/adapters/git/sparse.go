package git

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Snapshots and sessions of a git source hold only the declared subtrees:
// a sparse checkout (git-sparse-checkout(1)) in non-cone mode whose
// patterns name exactly those directories. Cone mode would also check out
// every file at the root and in each directory on the way to a subtree,
// downloading blobs no tree needs (an asset at the repository's root, say).
// Snapshots are worktrees of the cache, whose configuration stays as the
// tool wrote it, so core.sparseCheckout is given on the command line of
// the commands that apply the patterns, never written to the cache.

// sparseConfig applies the sparse patterns of the worktree it runs in.
var sparseConfig = []string{"-c", "core.sparseCheckout=true", "-c", "core.sparseCheckoutCone=false"}

// SparsePatterns are the patterns selecting exactly the given directories
// of a commit (repository-relative, slash-separated, never ".").
func SparsePatterns(dirs []string) []byte {
	var b bytes.Buffer
	for _, d := range dirs {
		b.WriteString("/" + escapePattern(d) + "/\n")
	}
	return b.Bytes()
}

// escapePattern quotes the characters gitignore patterns give a meaning.
func escapePattern(p string) string {
	var b strings.Builder
	for _, r := range p {
		if strings.ContainsRune(`\*?[]!# `, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// WorktreeAddSparse makes a detached worktree of gitDir at path holding
// only dirs of commit; with no dirs it checks the whole commit out.
func (g *Git) WorktreeAddSparse(ctx context.Context, gitDir, path, commit string, dirs []string) error {
	if len(dirs) == 0 {
		return g.WorktreeAddDetached(ctx, gitDir, path, commit)
	}
	if _, err := g.InRepo(ctx, gitDir, "worktree", "add", "--quiet", "--no-checkout", "--detach", "--", path, commit); err != nil {
		return err
	}
	return g.SetSparseDirs(ctx, path, dirs)
}

// SetSparseDirs makes the worktree at dir hold exactly dirs and brings
// its files in line: files of added directories are checked out, their
// blobs having been fetched first (lazy fetching is off).
func (g *Git) SetSparseDirs(ctx context.Context, dir string, dirs []string) error {
	file, err := g.sparseFile(ctx, dir)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(file), 0o700); err != nil {
		return fmt.Errorf("sparse checkout: %w", err)
	}
	if err := os.WriteFile(file, SparsePatterns(dirs), 0o600); err != nil {
		return fmt.Errorf("sparse checkout: %w", err)
	}
	_, err = g.Run(ctx, Isolated, dir, append(slices.Clone(sparseConfig), "read-tree", "-mu", "HEAD")...)
	return err
}

// SparseDirs returns the directories a worktree's sparse patterns select,
// as SparsePatterns wrote them; ok is false for a full checkout (no
// pattern file). Patterns the tool did not write are returned as found,
// so they match no declared directory.
func (g *Git) SparseDirs(ctx context.Context, dir string) (dirs []string, ok bool, err error) {
	file, err := g.sparseFile(ctx, dir)
	if err != nil {
		return nil, false, err
	}
	data, err := os.ReadFile(file)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("sparse checkout: %w", err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if line == "" {
			continue
		}
		dirs = append(dirs, unescapePattern(strings.TrimSuffix(strings.TrimPrefix(line, "/"), "/")))
	}
	return dirs, true, nil
}

func unescapePattern(p string) string {
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		if p[i] == '\\' && i+1 < len(p) {
			i++
		}
		b.WriteByte(p[i])
	}
	return b.String()
}

// sparseFile is the worktree's own pattern file (info/sparse-checkout is
// per worktree, gitrepository-layout(5)), found from the worktree's .git
// file as git finds it, without running git (reads check every snapshot).
func (g *Git) sparseFile(ctx context.Context, dir string) (string, error) {
	data, err := os.ReadFile(filepath.Join(dir, ".git"))
	if err != nil {
		return "", fmt.Errorf("sparse checkout: %w", err)
	}
	gitdir, ok := strings.CutPrefix(strings.TrimRight(string(data), "\r\n"), "gitdir: ")
	if !ok || gitdir == "" {
		return "", fmt.Errorf("sparse checkout: %s/.git is not a gitdir file", dir)
	}
	if !filepath.IsAbs(gitdir) {
		gitdir = filepath.Join(dir, gitdir)
	}
	return filepath.Join(gitdir, "info", "sparse-checkout"), nil
}

// InitSparse makes the repository at gitDir (a session's own) a sparse
// checkout of dirs, in its own configuration, so that its checkout and
// the agent's git in it see only those directories. home, the repository
// whose objects it borrows, is named its promisor remote: blobs outside
// dirs may be missing there (a partial cache), and git then lets the
// session's own git write trees and commits without them (it never
// fetches: home lacks them too).
func (g *Git) InitSparse(ctx context.Context, gitDir, home string, dirs []string) error {
	info := filepath.Join(gitDir, "info")
	if err := os.MkdirAll(info, 0o700); err != nil {
		return fmt.Errorf("sparse checkout: %w", err)
	}
	if err := os.WriteFile(filepath.Join(info, "sparse-checkout"), SparsePatterns(dirs), 0o600); err != nil {
		return fmt.Errorf("sparse checkout: %w", err)
	}
	for _, kv := range [][2]string{
		{"core.sparseCheckout", "true"}, {"core.sparseCheckoutCone", "false"},
		{"remote.home.url", home}, {"remote.home.promisor", "true"},
	} {
		if err := g.ConfigSet(ctx, gitDir, kv[0], kv[1]); err != nil {
			return err
		}
	}
	return nil
}

// SkipOutside marks every index entry outside dir skip-worktree in the
// work tree's index, so that staging the work tree takes files missing
// from a sparse checkout as unchanged, not deleted.
func (g *Git) SkipOutside(ctx context.Context, w WorkTree, dir string) error {
	out, err := g.inWorkTree(ctx, w, "ls-files", "-z", "--full-name", "--", ":/")
	if err != nil {
		return err
	}
	var outside bytes.Buffer
	for _, p := range splitNUL(out) {
		if !Under(p, dir) {
			outside.WriteString(p)
			outside.WriteByte(0)
		}
	}
	if outside.Len() == 0 {
		return nil
	}
	cmd, err := g.command(ctx, Isolated, w.Dir, "--git-dir="+w.GitDir, "--work-tree="+w.Dir, "update-index", "-z", "--skip-worktree", "--stdin")
	if err != nil {
		return err
	}
	if w.Index != "" {
		cmd.Env = append(cmd.Env, "GIT_INDEX_FILE="+w.Index)
	}
	cmd.Stdin = &outside
	_, err = runCmd(cmd, []string{"update-index", "--skip-worktree", "--stdin"})
	return err
}

// Under reports whether the repository path p is dir or lies inside it.
func Under(p, dir string) bool {
	return dir == "." || p == dir || strings.HasPrefix(p, dir+"/")
}
