package sources

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/git-context-tree/git-context-tree/contracts"
)

func TestDeclaredDir(t *testing.T) {
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	proj := filepath.Join(base, "proj")
	for _, d := range []string{"proj/docs/ctx", "proj/real/ctx", "other/ctx", "outside/proj-alias-target"} {
		if err := os.MkdirAll(filepath.Join(base, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for link, target := range map[string]string{
		"proj/link":      "real",        // a symlinked directory inside the project
		"proj/docs/out":  "../../other", // into another directory
		"proj/rootlink":  "docs/ctx",    // the root itself
		"alias":          "proj",        // outside the project, to it
		"outlink":        "other",       // outside the project, elsewhere
		"other/ctx-link": "ctx",         // a root outside that is a symlink
	} {
		if err := os.Symlink(target, filepath.Join(base, link)); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct{ path, want string }{
		{"docs/ctx", proj + "/docs/ctx"},
		{".", proj},
		{"missing/dir", proj + "/missing/dir"},
		{"link/ctx", proj + "/link/ctx"},               // kept as declared: refused
		{"docs/out/ctx", proj + "/docs/out/ctx"},       // kept as declared: refused
		{"rootlink", proj + "/rootlink"},               // kept as declared: refused
		{base + "/alias/docs/ctx", proj + "/docs/ctx"}, // an outside symlink is resolved
		{base + "/alias/link/ctx", proj + "/link/ctx"}, // ... but not one inside
		{base + "/outlink/ctx", base + "/other/ctx"},
		{base + "/other/ctx-link", base + "/other/ctx-link"}, // a symlinked root, anywhere
	} {
		if got := declaredDir(proj, tc.path); got != tc.want {
			t.Errorf("declaredDir(%q) = %q, want %q", tc.path, got, tc.want)
		}
	}
	for _, tc := range []struct {
		dir     string
		code    contracts.ErrorCode
		symlink string
	}{
		{proj + "/docs/ctx", "", ""},
		{proj + "/link/ctx", contracts.CodeRootSymlink, proj + "/link"},
		{proj + "/docs/out/ctx", contracts.CodeRootSymlink, proj + "/docs/out"},
		{proj + "/rootlink", contracts.CodeRootSymlink, ""},
		{proj + "/missing", contracts.CodeTreeNotFound, ""},
	} {
		root, err := OpenDirectoryRoot(tc.dir)
		var ce *contracts.Error
		switch {
		case tc.code == "" && (err != nil || root != tc.dir):
			t.Errorf("OpenDirectoryRoot(%q) = %q, %v; want it opened", tc.dir, root, err)
		case tc.code != "" && (!errors.As(err, &ce) || ce.Code != tc.code):
			t.Errorf("OpenDirectoryRoot(%q) = %q, %v; want %s", tc.dir, root, err, tc.code)
		case tc.symlink != "" && ce.Details["symlink"] != tc.symlink:
			t.Errorf("OpenDirectoryRoot(%q) names %v, want %s", tc.dir, ce.Details["symlink"], tc.symlink)
		}
	}
}
