package git

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Snapshots and sessions of a git source hold only the declared subtrees:
// a sparse checkout (git-sparse-checkout(1)) in non-cone mode whose
// patterns name exactly those directories. Cone mode would also check out
// every file at the root and in each directory on the way to a subtree,
// downloading blobs no tree needs (an asset at the repository's root, say).
// Sessions hold their patterns in their own repository; snapshots are
// plain checkouts that mark the entries outside their directories
// skip-worktree in the tool's index (see CheckoutPlain).

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
	_, err := g.SetSkipWorktree(ctx, w, []string{dir}, false)
	return err
}

// Under reports whether the repository path p is dir or lies inside it.
func Under(p, dir string) bool {
	return dir == "." || p == dir || strings.HasPrefix(p, dir+"/")
}
