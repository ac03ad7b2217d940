package sources

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/git-context-tree/git-context-tree/contracts"
)

func TestGitSelector(t *testing.T) {
	tests := []struct{ repo, branch, subtree, want string }{
		{"acme/handbook", "main", ".", "https://github.com/acme/handbook/tree/main"},
		{"Acme/Handbook", "main", ".", "https://github.com/acme/handbook/tree/main"},
		{"acme/handbook", "feature/x", ".", "https://github.com/acme/handbook/tree/feature%2Fx"},
		{"acme/handbook", "main", "docs/ctx", "https://github.com/acme/handbook/tree/main/docs/ctx"},
		{"acme/handbook", "release 1", "team notes/a b", "https://github.com/acme/handbook/tree/release%201/team%20notes/a%20b"},
		{"acme/handbook", "100%", "50%/x", "https://github.com/acme/handbook/tree/100%25/50%25/x"},
		{"acme/handbook", "café", "résumé", "https://github.com/acme/handbook/tree/caf%C3%A9/r%C3%A9sum%C3%A9"},
		{"acme/handbook", "a#b", "q?x", "https://github.com/acme/handbook/tree/a%23b/q%3Fx"},
		// encodeURIComponent's set: sub-delimiters and '@' ':' are encoded,
		// -_.!~*'() are not.
		{"acme/handbook", "fix+1@v2:x", "a=b&c;d,e$f", "https://github.com/acme/handbook/tree/fix%2B1%40v2%3Ax/a%3Db%26c%3Bd%2Ce%24f"},
		{"acme/handbook", "it's-(ok)!", "x_y.z~w*", "https://github.com/acme/handbook/tree/it's-(ok)!/x_y.z~w*"},
	}
	for _, tt := range tests {
		if got := GitSelector(tt.repo, tt.branch, tt.subtree); got != tt.want {
			t.Errorf("GitSelector(%q, %q, %q) = %q, want %q", tt.repo, tt.branch, tt.subtree, got, tt.want)
		}
	}
}

func TestNewConnection(t *testing.T) {
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "docs", "context"), 0o755); err != nil {
		t.Fatal(err)
	}
	real, _ := filepath.EvalSymlinks(root)
	got := NewConnection(root, contracts.Source{Kind: "directory", Path: "docs/context"})
	want := Connection{
		Source:   contracts.Source{Kind: "directory", Path: "docs/context"},
		Identity: "directory:" + filepath.Join(real, "docs", "context"),
		Short:    "context",
		Exact:    filepath.Join(real, "docs", "context"),
		Dir:      filepath.Join(real, "docs", "context"),
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("directory connection (-want +got):\n%s", diff)
	}
	g := NewConnection(root, contracts.Source{Kind: "git", Repository: "Acme/Handbook", Path: "teams", Ref: "main"})
	if g.Short != "handbook" || g.Exact != "https://github.com/acme/handbook/tree/main/teams" || g.SubtreeSel != "handbook/teams" {
		t.Errorf("git connection = %+v", g)
	}
	missing := NewConnection(root, contracts.Source{Kind: "directory", Path: "not/yet"})
	if missing.Dir != filepath.Join(real, "not", "yet") {
		t.Errorf("missing directory identity = %q", missing.Dir)
	}
}

// TestPinnedRef: selectors generated from a record's identity and source
// are the ones NewConnection gives, without looking at the disk (the
// directory may be gone); an identity that is not the source's is refused.
func TestPinnedRef(t *testing.T) {
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "docs", "context"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, src := range []contracts.Source{
		{Kind: "directory", Path: "docs/context"},
		{Kind: "git", Repository: "Acme/Handbook", Path: "teams/a b", Ref: "feature/x"},
		{Kind: "git", Repository: "acme/handbook", Path: ".", Ref: "main"},
	} {
		c := NewConnection(root, src)
		if err := os.RemoveAll(root); err != nil {
			t.Fatal(err)
		}
		got, ok := PinnedRef(c.Identity, src)
		if !ok || got != c.Ref() {
			t.Errorf("PinnedRef(%q) = %+v, %t; want %+v", c.Identity, got, ok, c.Ref())
		}
	}
	for _, bad := range []struct {
		identity string
		src      contracts.Source
	}{
		{"directory:relative/path", contracts.Source{Kind: "directory", Path: "x"}},
		{"directory:/a/../b", contracts.Source{Kind: "directory", Path: "x"}},
		{"git:acme/handbook\x00.\x00main", contracts.Source{Kind: "directory", Path: "x"}},
		{"git:acme/handbook\x00.\x00main", contracts.Source{Kind: "git", Repository: "acme/handbook", Path: ".", Ref: "dev"}},
		{"directory:/a", contracts.Source{Kind: "git", Repository: "acme/handbook", Path: ".", Ref: "main"}},
		{"directory:/a", contracts.Source{Kind: "other"}},
	} {
		if got, ok := PinnedRef(bad.identity, bad.src); ok {
			t.Errorf("PinnedRef(%q, %+v) = %+v, want refused", bad.identity, bad.src, got)
		}
	}
}

func TestSelect(t *testing.T) {
	root := t.TempDir()
	for _, d := range []string{"a/context", "b/context", "solo"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	var conns []Connection
	for i, s := range []contracts.Source{
		{Kind: "directory", Path: "a/context"},
		{Kind: "directory", Path: "b/context"},
		{Kind: "directory", Path: "solo"},
		{Kind: "git", Repository: "acme/solo-repo", Path: ".", Ref: "main"},
		{Kind: "git", Repository: "acme/handbook", Path: "teams/platform", Ref: "main"},
	} {
		c := NewConnection(root, s)
		c.Index = i
		conns = append(conns, c)
	}
	pick := func(sel string) (int, error) {
		c, err := Select(conns, sel, root)
		return c.Index, err
	}
	if i, err := pick("solo"); err != nil || i != 2 {
		t.Errorf("short solo = %d, %v", i, err)
	}
	if i, err := pick("solo-repo"); err != nil || i != 3 {
		t.Errorf("short solo-repo = %d, %v", i, err)
	}
	if i, err := pick(conns[1].Exact); err != nil || i != 1 {
		t.Errorf("exact b/context = %d, %v", i, err)
	}
	if i, err := pick("https://github.com/acme/solo-repo/tree/main"); err != nil || i != 3 {
		t.Errorf("exact git = %d, %v", i, err)
	}
	if i, err := pick("handbook/teams/platform"); err != nil || i != 4 {
		t.Errorf("subtree selector = %d, %v", i, err)
	}
	if conns[3].SubtreeSel != "" {
		t.Errorf("a root source has no subtree selector: %q", conns[3].SubtreeSel)
	}
	for _, sel := range []string{"handbook/teams", "handbook/teams/platform/", "Handbook/teams/platform", "acme/handbook/teams/platform"} {
		if _, err := pick(sel); !errors.As(err, new(*contracts.Error)) {
			t.Errorf("%q must name nothing: %v", sel, err)
		}
	}
	if i, err := pick("a/context"); err != nil || i != 0 {
		t.Errorf("directory path a/context = %d, %v", i, err)
	}
	_, err := pick("context")
	var ce *contracts.Error
	if !errors.As(err, &ce) || ce.Code != contracts.CodeSelectorAmbiguous {
		t.Fatalf("ambiguous: %v", err)
	}
	if diff := cmp.Diff([]string{conns[0].Exact, conns[1].Exact}, ce.Details["matches"]); diff != "" {
		t.Errorf("matches (-want +got):\n%s", diff)
	}
	if _, err := pick("Solo"); !errors.As(err, &ce) || ce.Code != contracts.CodeSelectorNotFound {
		t.Errorf("selectors compare literally: %v", err)
	}
	if _, err := pick("https://github.com/acme/solo-repo/tree/main/"); !errors.As(err, &ce) || ce.Code != contracts.CodeSelectorNotFound {
		t.Errorf("exact selectors are never parsed: %v", err)
	}
}

func TestCheckBranchAndRepository(t *testing.T) {
	for _, b := range []string{"main", "feature/x", "release-1.2", "a+b", "café"} {
		if why := CheckBranch(b); why != "" {
			t.Errorf("CheckBranch(%q) = %q", b, why)
		}
	}
	for _, b := range []string{"", "-x", "a..b", "a b", "a~1", "a^", "a:b", "a?", "a*", "a[", `a\b`, "/a", "a/", "a//b", "a.", "a.lock", ".a", "a/.b", "@", "a@{1}", "HEAD", "refs/heads/main", "a\x01"} {
		if CheckBranch(b) == "" {
			t.Errorf("CheckBranch(%q) accepted", b)
		}
	}
	for _, r := range []string{"acme/handbook", "A-1/x.y_z", "a/.github"} {
		if why := CheckRepository(r); why != "" {
			t.Errorf("CheckRepository(%q) = %q", r, why)
		}
	}
	for _, r := range []string{"", "acme", "acme/", "/x", "a/b/c", "-a/b", "a-/b", "a_b/c", "a/b.git", "a/..", "https://github.com/a/b", "git@github.com:a/b", "user:pass@a/b", "a/b c"} {
		if CheckRepository(r) == "" {
			t.Errorf("CheckRepository(%q) accepted", r)
		}
	}
}
