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

func TestFixRewritesWikilinks(t *testing.T) {
	root := writeTree(t, map[string]string{
		"NODE.md":            "---\nschemaVersion: 1\ntitle: Root\n---\n\nSee [[Guide]], [[guide#Setup steps|the setup]], [[Runbooks/deploy]] and [[Missing]].\n\n`[[in code]]` and [[Dup]] and [[Guide#No such]].\n",
		"guide.md":           "---\ntitle: Guide\n---\n\n## Setup steps\n",
		"Runbooks/NODE.md":   "---\ntitle: Runbooks\n---\n\nSee [[Root]].\n",
		"Runbooks/deploy.md": "---\ntitle: Deploy now\n---\n\nDeploy.\n",
		"a/NODE.md":          "---\ntitle: A\n---\n", "a/x.md": "---\ntitle: Dup\n---\n", "b/NODE.md": "---\ntitle: B\n---\n", "b/y.md": "---\ntitle: Dup\n---\n",
	})
	plan, err := PlanFix(root, FixOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, ch := range plan.Changes {
		got[ch.Path] = string(ch.New)
	}
	want := "---\nschemaVersion: 1\ntitle: Root\n---\n\nSee [Guide](guide.md), [the setup](guide.md#setup-steps), [Runbooks/deploy](Runbooks/deploy.md) and [[Missing]].\n\n`[[in code]]` and [[Dup]] and [[Guide#No such]].\n"
	if d := cmp.Diff(want, got["NODE.md"]); d != "" {
		t.Errorf("NODE.md (-want +got):\n%s", d)
	}
	if d := cmp.Diff("---\ntitle: Runbooks\n---\n\nSee [Root](../NODE.md).\n", got["Runbooks/NODE.md"]); d != "" {
		t.Errorf("Runbooks/NODE.md (-want +got):\n%s", d)
	}
	// Applying the plan and planning again changes nothing more.
	for _, ch := range plan.Changes {
		writeFile(t, filepath.Join(root, filepath.FromSlash(ch.Path)), string(ch.New))
	}
	again, err := PlanFix(root, FixOptions{})
	if err != nil || len(again.Changes) != 0 {
		t.Errorf("second plan: %v %+v", err, again)
	}
}
