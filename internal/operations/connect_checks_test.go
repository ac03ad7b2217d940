package operations

import (
	"testing"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/sources"
)

func TestSelectorWarning(t *testing.T) {
	git := func(repo, ref, path string) sources.Connection {
		return sources.NewConnection("/p", contracts.Source{Kind: contracts.SourceGit, Repository: repo, Ref: ref, Path: path})
	}
	docs, team := git("acme/handbook", "main", "docs"), git("acme/handbook", "main", "team")
	devDocs, root := git("acme/handbook", "dev", "docs"), git("other/handbook", "main", ".")
	guide := git("acme/guide", "main", "docs")
	for _, tc := range []struct {
		name  string
		conns []sources.Connection
		c     sources.Connection
		want  string
	}{
		{"unique", []sources.Connection{docs, guide}, docs, ""},
		{"two subtrees", []sources.Connection{docs, team}, team,
			`the short selector "handbook" now names 2 sources and selects none of them; use handbook/docs, handbook/team (this one)`},
		{"shared subtree selector falls back to exact", []sources.Connection{docs, team, devDocs}, devDocs,
			`the short selector "handbook" now names 3 sources and selects none of them; use ` + docs.Exact + `, handbook/team, ` + devDocs.Exact + ` (this one)`},
		{"a root has only its exact selector", []sources.Connection{docs, root}, root,
			`the short selector "handbook" now names 2 sources and selects none of them; use handbook/docs, ` + root.Exact + ` (this one)`},
	} {
		if got := selectorWarning(tc.conns, tc.c); got != tc.want {
			t.Errorf("%s:\n got %q\nwant %q", tc.name, got, tc.want)
		}
	}
}
