package tree

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestPlanFix(t *testing.T) {
	root := writeTree(t, map[string]string{
		"a.md":               "# A doc\n",
		"sub/deep/b.md":      "text\n",
		"sub/deep/c.md":      doc("C", "C.\n"),
		"empty/":             "",
		"members/ada/x.md":   "# X\n",
		"scripts/tool.md":    "infrastructure\n",
		"node_modules/y.md":  "infrastructure\n",
		"ignored/z.md":       "no frontmatter\n",
		"bad.md":             "---\ntitle: [\n---\n",
		"links/NODE.md":      "---\ntitle: L\nsoft_links: [../a.md]\n---\n",
		"links/unchanged.md": doc("U", ""),
	})
	ignored := func(paths []string) (map[string]bool, error) {
		return map[string]bool{"ignored/z.md": true, "ignored/NODE.md": true}, nil
	}
	plan, err := PlanFix(root, FixOptions{Ignored: ignored, RootTitle: "Adopted"})
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, ch := range plan.Changes {
		paths = append(paths, ch.Path)
	}
	want := []string{"NODE.md", "a.md", "empty/NODE.md", "links/NODE.md", "members/NODE.md", "members/ada/NODE.md",
		"members/ada/x.md", "sub/NODE.md", "sub/deep/NODE.md", "sub/deep/b.md"}
	if diff := cmp.Diff(want, paths); diff != "" {
		t.Errorf("changed paths (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"ignored/NODE.md", "ignored/z.md"}, plan.Skipped); diff != "" {
		t.Errorf("skipped (-want +got):\n%s", diff)
	}
	var remaining []string
	for _, f := range plan.Remaining {
		remaining = append(remaining, f.Path+" "+string(f.Code))
	}
	wantRemaining := []string{"bad.md TREE_FRONTMATTER_PARSE", "ignored TREE_DIRECTORY_NODE_MISSING", "ignored/z.md TREE_FRONTMATTER_MISSING"}
	if diff := cmp.Diff(wantRemaining, remaining); diff != "" {
		t.Errorf("remaining (-want +got):\n%s", diff)
	}
	rootDoc := string(plan.Changes[0].New)
	wantRoot := "---\nschemaVersion: 1\ntitle: Adopted\n---\n\n# Adopted\n\n- [A doc](a.md)\n- [bad](bad.md)\n- [empty](empty/NODE.md)\n- [ignored](ignored/NODE.md)\n- [L](links/NODE.md)\n- [members](members/NODE.md)\n- [sub](sub/NODE.md)\n"
	if diff := cmp.Diff(wantRoot, rootDoc); diff != "" {
		t.Errorf("root index (-want +got):\n%s", diff)
	}

	// Applied, the plan leaves nothing more to do, and verify agrees
	// with what it said would remain.
	for _, ch := range plan.Changes {
		if err := os.WriteFile(filepath.Join(root, filepath.FromSlash(ch.Path)), ch.New, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	again, err := PlanFix(root, FixOptions{Ignored: ignored})
	if err != nil {
		t.Fatal(err)
	}
	if len(again.Changes) != 0 {
		t.Errorf("second plan changes %v", again.Changes)
	}
	if diff := cmp.Diff(plan.Remaining, Verify(root).Findings); diff != "" {
		t.Errorf("verify after the fix differs from the plan's remaining (-plan +verify):\n%s", diff)
	}
}

func TestPlanFixLeavesSymlinks(t *testing.T) {
	root := writeTree(t, map[string]string{"NODE.md": rootNode, "real.md": "plain\n"})
	if err := os.Symlink("real.md", filepath.Join(root, "link.md")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("missing", filepath.Join(root, "dirlink")); err != nil {
		t.Fatal(err)
	}
	plan, err := PlanFix(root, FixOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(plan.Changes) != 1 || plan.Changes[0].Path != "real.md" {
		t.Errorf("changes = %+v, want real.md only", plan.Changes)
	}
}
