package tree

import (
	"path/filepath"
	"strings"
)

// The product's filesystem path rules, in the lowest package every layer
// above may import: sources, operations and cli use these rather than their
// own copies, so "real" and "inside" mean the same everywhere.

// RealPath resolves symlinks in p as far as the path exists and keeps the
// missing remainder as written, so that a path about to be created compares
// equal to the same path once it exists.
func RealPath(p string) string {
	p = filepath.Clean(p)
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	parent := filepath.Dir(p)
	if parent == p {
		return p
	}
	return filepath.Join(RealPath(parent), filepath.Base(p))
}

// Inside reports whether p is root or lies below it, comparing the paths as
// written (resolve them with RealPath first when symlinks matter), and
// returns p relative to root ("." for root itself). Both are absolute, or
// both relative (repository-relative paths as git lists them, "." for the
// top). Only a whole ".." segment leaves root: "..notes" is inside.
func Inside(root, p string) (rel string, ok bool) {
	rel, err := filepath.Rel(root, p)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	return rel, true
}
