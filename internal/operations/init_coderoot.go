package operations

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/adapters/git"
	"github.com/git-context-tree/git-context-tree/internal/tree"
)

// assetExts are the file types a folder of documentation holds beside its
// Markdown; a folder of nothing but these is not code.
var assetExts = []string{".png", ".jpg", ".jpeg", ".gif", ".svg", ".webp", ".pdf", ".txt"}

// refuseCodeRoot refuses `init` without a directory at the root of a git
// checkout that holds code (INIT_REPOSITORY_ROOT): it would adopt the whole
// repository as one tree, every code directory then wanting a NODE.md.
// Code is a top-level folder (not hidden, not infrastructure) holding no
// Markdown and some file that is not an image or text asset. The error
// names the folder holding the most Markdown (else docs) and `init .` to
// adopt the repository anyway.
func refuseCodeRoot(ctx context.Context, env Env, dir string) error {
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return nil // init reports a missing or unreadable directory itself
	}
	top, err := env.Git.Toplevel(ctx, git.Invoking, real)
	if err != nil || top != real {
		return nil
	}
	code, best := scanRepositoryRoot(real)
	if len(code) == 0 {
		return nil
	}
	suggest := "docs"
	if best != "" {
		suggest = best
	}
	target := ShellWord(DisplayPath(env, filepath.Join(real, suggest)))
	what := "a new folder for the tree"
	if best != "" {
		what = "the folder holding its Markdown"
	}
	return contracts.Errorf(contracts.CodeInitRepositoryRoot,
		"%s is the root of a git repository holding code (%s): init without a directory would make the whole repository one tree; run `git context-tree init %s` (%s), or `git context-tree init .` to adopt the repository anyway",
		real, strings.Join(firstN(code, 3), ", "), target, what).
		WithDetails(map[string]any{"root": real, "code": code, "suggestion": filepath.Join(real, suggest),
			"command": "git context-tree init " + target})
}

// MarkdownFolder is the top-level folder of root holding the most
// Markdown, the one to adopt with `init <folder>` ("" when none holds
// any).
func MarkdownFolder(root string) string {
	_, best := scanRepositoryRoot(root)
	return best
}

// scanRepositoryRoot walks a checkout root's top-level folders: those with
// code and no Markdown (sorted), and the one holding the most Markdown ("":
// none holds any).
func scanRepositoryRoot(root string) (code []string, best string) {
	entries, err := os.ReadDir(root)
	if err != nil {
		return nil, ""
	}
	most := 0
	for _, e := range entries {
		name := e.Name()
		if !e.IsDir() || tree.ClassOf(name) == contracts.ClassInfrastructure {
			continue
		}
		md, other := countFiles(filepath.Join(root, name), name)
		switch {
		case md == 0 && other:
			code = append(code, name)
		case md > most:
			most, best = md, name
		}
	}
	slices.Sort(code)
	return code, best
}

// countFiles counts the Markdown files under dir (rel is its path from the
// checkout root) and says whether it holds any other file that is not an
// asset, skipping infrastructure and never following a symlink.
func countFiles(dir, rel string) (md int, other bool) {
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		r, _ := filepath.Rel(dir, p)
		if r != "." && tree.ClassOf(filepath.ToSlash(filepath.Join(rel, r))) == contracts.ClassInfrastructure {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		ext := strings.ToLower(filepath.Ext(d.Name()))
		switch {
		case filepath.Ext(d.Name()) == ".md":
			md++
		case !slices.Contains(assetExts, ext):
			other = true
		}
		return nil
	})
	return md, other
}

func firstN(s []string, n int) []string {
	if len(s) > n {
		return append(slices.Clone(s[:n]), "…")
	}
	return s
}
