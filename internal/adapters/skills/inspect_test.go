package skills

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/git-context-tree/git-context-tree/contracts"
)

func TestInspect(t *testing.T) {
	l := homeLoc(t)
	b := bundle(t, "v2")
	if got, err := Inspect(l, b); err != nil || len(got) != 0 {
		t.Fatalf("missing directory: %v %v", got, err)
	}
	install(t, l, b)
	dir := l.Dir()
	// read: current. write: an older version. setup: edited by hand.
	// cleanup: no version. retired: a versioned skill not shipped.
	// plus a symlink, a file, and another tool's skill (not listed).
	old, _ := Stamp(b.Skills[3].Files["SKILL.md"], "v1")
	must(t, os.WriteFile(filepath.Join(dir, "context-tree-write", "SKILL.md"), old, 0o644))
	must(t, os.WriteFile(filepath.Join(dir, "context-tree-setup", "SKILL.md"), append(b.Skills[2].Files["SKILL.md"], "edited\n"...), 0o644))
	put(t, filepath.Join(dir, "context-tree-cleanup", "SKILL.md"), "---\nname: context-tree-cleanup\n---\n")
	put(t, filepath.Join(dir, "context-tree-retired", "SKILL.md"), "---\nmetadata:\n  version: v2\n---\n")
	must(t, os.Symlink(filepath.Join(dir, "context-tree-read"), filepath.Join(dir, "context-tree-link")))
	put(t, filepath.Join(dir, "context-tree-file"), "x")
	put(t, filepath.Join(dir, "not-ours", "SKILL.md"), "---\nmetadata:\n  version: v1\n---\n")

	got, err := Inspect(l, b)
	if err != nil {
		t.Fatal(err)
	}
	type row struct{ Name, Version, Status, Reason string }
	var rows []row
	for _, s := range got {
		if s.Path != filepath.Join(dir, s.Name) {
			t.Errorf("%s: path %s", s.Name, s.Path)
		}
		rows = append(rows, row{s.Name, s.Version, s.Status, s.Reason})
	}
	want := []row{
		{"context-tree-cleanup", "", contracts.SkillUnknown, "no metadata.version in SKILL.md"},
		{"context-tree-file", "", contracts.SkillUnknown, "not a directory"},
		{"context-tree-link", "", contracts.SkillUnknown, "a symlink (not followed)"},
		{"context-tree-read", "v2", contracts.SkillCurrent, ""},
		{"context-tree-retired", "v2", contracts.SkillStale, "not shipped by version v2; install removes it"},
		{"context-tree-setup", "v2", contracts.SkillStale, "content differs from what this binary installs"},
		{"context-tree-write", "v1", contracts.SkillStale, "version v1; this binary is v2"},
	}
	if diff := cmp.Diff(want, rows); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	// Install makes everything current again.
	install(t, l, b)
	got, _ = Inspect(l, b)
	for _, s := range got {
		if s.Status != contracts.SkillCurrent {
			t.Errorf("after install %s is %s (%s)", s.Name, s.Status, s.Reason)
		}
	}
	if len(got) != 4 {
		t.Errorf("after install: %d entries", len(got))
	}
}

func TestInspectReportsChangedModes(t *testing.T) {
	l := homeLoc(t)
	b := bundle(t, "v1")
	install(t, l, b)
	must(t, os.Chmod(filepath.Join(l.Dir(), "context-tree-read", "SKILL.md"), 0o600))
	got, _ := Inspect(l, b)
	if got[1].Name != "context-tree-read" || got[1].Status != contracts.SkillStale {
		t.Errorf("%+v", got[1])
	}
	if ch := install(t, l, b); !ch.Changed {
		t.Error("install left a wrong mode")
	}
}
