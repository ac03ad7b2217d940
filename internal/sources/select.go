package sources

import (
	"os"
	"path/filepath"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/tree"
)

// Select picks the connection a selector names (S6). Selectors are compared
// literally with the generated exact, short and subtree selectors; as a
// convenience an argument naming an existing directory (relative to cwd)
// selects the directory source with that real path. A short or subtree
// selector matching several sources fails with every matching exact
// selector.
func Select(conns []Connection, selector, cwd string) (Connection, error) {
	if selector == "" {
		return Connection{}, contracts.Errorf(contracts.CodeSelectorNotFound, "an empty selector names no source").
			WithDetails(map[string]any{"selector": selector})
	}
	for _, c := range conns {
		if c.Exact == selector {
			return c, nil
		}
	}
	var matches []Connection
	for _, c := range conns {
		if c.Short == selector || (c.SubtreeSel != "" && c.SubtreeSel == selector) {
			matches = append(matches, c)
		}
	}
	switch len(matches) {
	case 1:
		return matches[0], nil
	case 0:
	default:
		exact := make([]string, len(matches))
		for i, m := range matches {
			exact[i] = m.Exact
		}
		return Connection{}, contracts.Errorf(contracts.CodeSelectorAmbiguous,
			"selector %q matches %d sources; use one of their exact selectors", selector, len(matches)).
			WithDetails(map[string]any{"selector": selector, "matches": exact})
	}
	if c, ok := selectByDirectory(conns, selector, cwd); ok {
		return c, nil
	}
	available := make([]string, len(conns))
	for i, c := range conns {
		available[i] = c.Exact
	}
	return Connection{}, contracts.Errorf(contracts.CodeSelectorNotFound, "no declared source matches %q (see `git context-tree list`)", selector).
		WithDetails(map[string]any{"selector": selector, "available": available})
}

func selectByDirectory(conns []Connection, arg, cwd string) (Connection, bool) {
	p := arg
	if !filepath.IsAbs(p) {
		p = filepath.Join(cwd, p)
	}
	if fi, err := os.Stat(p); err != nil || !fi.IsDir() {
		return Connection{}, false
	}
	real := tree.RealPath(p)
	for _, c := range conns {
		if c.Source.Kind == contracts.SourceDirectory && (c.Dir == real || c.Exact == real) {
			return c, true
		}
	}
	return Connection{}, false
}
