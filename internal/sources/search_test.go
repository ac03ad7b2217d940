package sources

import (
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSearchDirs(t *testing.T) {
	p := filepath.FromSlash
	for _, c := range []struct {
		name, start, checkout string
		want                  []string
	}{
		{"up to the checkout root", "/w/repo/docs/a", "/w/repo", []string{"/w/repo/docs/a", "/w/repo/docs", "/w/repo"}},
		{"at the checkout root", "/w/repo", "/w/repo", []string{"/w/repo"}},
		{"outside git", "/w/x", "", []string{"/w/x", "/w", "/"}},
		{"a name starting with .. is below", "/w/repo/..notes", "/w/repo", []string{"/w/repo/..notes", "/w/repo"}},
		{"start not below the checkout", "/elsewhere/a", "/w/repo", []string{"/w/repo"}},
		{"unclean paths", "/w/repo/docs/", "/w/repo/", []string{"/w/repo/docs", "/w/repo"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var want []string
			for _, w := range c.want {
				want = append(want, p(w))
			}
			if diff := cmp.Diff(want, SearchDirs(p(c.start), p(c.checkout))); diff != "" {
				t.Errorf("SearchDirs(%q, %q) (-want +got):\n%s", c.start, c.checkout, diff)
			}
		})
	}
}

func TestConfigCandidates(t *testing.T) {
	got := ConfigCandidates(filepath.FromSlash("/w/repo/docs"), filepath.FromSlash("/w/repo"))
	want := []string{filepath.FromSlash("/w/repo/docs/.context-tree.json"), filepath.FromSlash("/w/repo/.context-tree.json")}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ConfigCandidates (-want +got):\n%s", diff)
	}
}
