package skills

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// homeLoc is the shared agents directory of a fresh fake HOME.
func homeLoc(t *testing.T) Location {
	t.Helper()
	return Location{Name: LocationAgents, Hosts: []string{HostCodex}, Anchor: fakeHome(t), Rel: []string{".agents", "skills"}, Install: true}
}

func install(t *testing.T, l Location, b *Bundle) Change {
	t.Helper()
	ch, err := Install(l, b, false)
	if err != nil {
		t.Fatal(err)
	}
	return ch
}

func TestInstallFresh(t *testing.T) {
	old := syscall.Umask(0o077) // modes must not depend on the umask
	defer syscall.Umask(old)
	l := homeLoc(t)
	b := bundle(t, "v1.0.0")
	ch := install(t, l, b)
	if !ch.Changed || !cmp.Equal(ch.Skills, wantSkills) || ch.Removed != nil {
		t.Errorf("change %+v", ch)
	}
	snap := snapshot(t, l.Anchor)
	want := map[string]string{".": snap["."], ".agents": "dir -rwxr-xr-x", ".agents/skills": "dir -rwxr-xr-x"}
	for _, s := range b.Skills {
		want[".agents/skills/"+s.Name] = "dir -rwxr-xr-x"
		want[".agents/skills/"+s.Name+"/SKILL.md"] = "file -rw-r--r-- " + string(s.Files["SKILL.md"])
	}
	if diff := cmp.Diff(want, snap); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestInstallDryRunWritesNothing(t *testing.T) {
	l := homeLoc(t)
	before := snapshot(t, l.Anchor)
	ch, err := Install(l, bundle(t, "v1"), true)
	if err != nil || !ch.Changed {
		t.Fatalf("%+v %v", ch, err)
	}
	if diff := cmp.Diff(before, snapshot(t, l.Anchor)); diff != "" {
		t.Errorf("dry run wrote:\n%s", diff)
	}
}

func TestReinstallIsByteIdenticalAndUnchanged(t *testing.T) {
	l := homeLoc(t)
	b := bundle(t, "v1.0.0")
	install(t, l, b)
	first := snapshot(t, l.Anchor)
	var inodes []uint64
	for _, n := range wantSkills {
		fi, _ := os.Stat(filepath.Join(l.Dir(), n))
		inodes = append(inodes, fi.Sys().(*syscall.Stat_t).Ino)
	}
	ch := install(t, l, b)
	if ch.Changed {
		t.Error("reinstall reported a change")
	}
	if diff := cmp.Diff(first, snapshot(t, l.Anchor)); diff != "" {
		t.Errorf("reinstall changed files:\n%s", diff)
	}
	for i, n := range wantSkills {
		fi, _ := os.Stat(filepath.Join(l.Dir(), n))
		if fi.Sys().(*syscall.Stat_t).Ino != inodes[i] {
			t.Errorf("%s was rewritten", n)
		}
	}
}

func TestUpgradeFromOlderVersion(t *testing.T) {
	l := homeLoc(t)
	install(t, l, bundle(t, "v0.9.0"))
	// An older version also shipped a skill this one no longer has.
	put(t, filepath.Join(l.Dir(), "context-tree-retired", "SKILL.md"), "---\nname: context-tree-retired\nmetadata:\n  version: \"v0.9.0\"\n---\n")
	b := bundle(t, "v1.0.0")
	ch := install(t, l, b)
	if !ch.Changed || !cmp.Equal(ch.Removed, []string{"context-tree-retired"}) {
		t.Errorf("change %+v", ch)
	}
	if diff := cmp.Diff(wantSkills, skillsIn(t, l.Dir())); diff != "" {
		t.Errorf("entries (-want +got):\n%s", diff)
	}
	for _, s := range b.Skills {
		got, _ := os.ReadFile(filepath.Join(l.Dir(), s.Name, "SKILL.md"))
		if m, _ := ParseMeta(got); m.Version() != "v1.0.0" {
			t.Errorf("%s still at %q", s.Name, m.Version())
		}
	}
}

func TestForeignSkills(t *testing.T) {
	l := homeLoc(t)
	dir := l.Dir()
	// Another tool's skill and stray files are never touched.
	put(t, filepath.Join(dir, "my-skill", "SKILL.md"), "---\nname: my-skill\n---\nmine\n")
	put(t, filepath.Join(dir, "notes.txt"), "keep")
	if err := os.Symlink("/nonexistent", filepath.Join(dir, "linked-skill")); err != nil {
		t.Fatal(err)
	}
	// A foreign skill with our prefix and a name we ship is replaced; one we
	// do not ship is removed (the prefix is ours, S20).
	put(t, filepath.Join(dir, "context-tree-read", "SKILL.md"), "foreign read")
	put(t, filepath.Join(dir, "context-tree-read", "extra", "file.txt"), "foreign extra")
	put(t, filepath.Join(dir, "context-tree-something", "SKILL.md"), "foreign")
	other := map[string]string{}
	for k, v := range snapshot(t, dir) {
		if !strings.HasPrefix(k, Prefix) {
			other[k] = v
		}
	}
	ch := install(t, l, bundle(t, "v1"))
	if !cmp.Equal(ch.Removed, []string{"context-tree-something"}) {
		t.Errorf("removed %v", ch.Removed)
	}
	after := snapshot(t, dir)
	for k, v := range other {
		if after[k] != v {
			t.Errorf("%s changed: %q -> %q", k, v, after[k])
		}
	}
	if _, ok := after["context-tree-read/extra"]; ok {
		t.Error("the foreign context-tree-read was merged, not replaced")
	}
	if diff := cmp.Diff([]string{"context-tree-cleanup", "context-tree-read", "context-tree-setup", "context-tree-write", "linked-skill", "my-skill", "notes.txt"}, skillsIn(t, dir)); diff != "" {
		t.Errorf("entries (-want +got):\n%s", diff)
	}
	// Uninstall removes exactly the prefixed entries.
	un, err := Uninstall(l, false)
	if err != nil || !un.Changed || !cmp.Equal(un.Skills, wantSkills) {
		t.Fatalf("%+v %v", un, err)
	}
	if diff := cmp.Diff(other, snapshot(t, dir)); diff != "" {
		t.Errorf("after uninstall (-want +got):\n%s", diff)
	}
}

func TestSymlinkedSkillEntryIsReplacedNotFollowed(t *testing.T) {
	l := homeLoc(t)
	target := t.TempDir()
	put(t, filepath.Join(target, "SKILL.md"), "someone else's")
	mkdir(t, l.Dir())
	if err := os.Symlink(target, filepath.Join(l.Dir(), "context-tree-read")); err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, target)
	install(t, l, bundle(t, "v1"))
	if fi, err := os.Lstat(filepath.Join(l.Dir(), "context-tree-read")); err != nil || !fi.IsDir() {
		t.Errorf("context-tree-read is not a directory now: %v", err)
	}
	if diff := cmp.Diff(before, snapshot(t, target)); diff != "" {
		t.Errorf("the symlink's target changed:\n%s", diff)
	}
}

func TestUnsafePathsAreRefused(t *testing.T) {
	cases := map[string]func(t *testing.T, home string){
		"symlinked host directory": func(t *testing.T, home string) {
			mkdir(t, filepath.Join(home, "real-agents"))
			must(t, os.Symlink("real-agents", filepath.Join(home, ".agents")))
		},
		"symlinked skills directory": func(t *testing.T, home string) {
			mkdir(t, filepath.Join(home, ".agents"))
			mkdir(t, filepath.Join(home, "real-skills"))
			must(t, os.Symlink("../real-skills", filepath.Join(home, ".agents", "skills")))
		},
		"dangling symlink": func(t *testing.T, home string) {
			must(t, os.Symlink("missing", filepath.Join(home, ".agents")))
		},
		"host directory is a file": func(t *testing.T, home string) {
			put(t, filepath.Join(home, ".agents"), "file")
		},
		"skills directory is a file": func(t *testing.T, home string) {
			put(t, filepath.Join(home, ".agents", "skills"), "file")
		},
	}
	for name, setup := range cases {
		t.Run(name, func(t *testing.T) {
			l := homeLoc(t)
			setup(t, l.Anchor)
			before := snapshot(t, l.Anchor)
			for op, run := range map[string]func() error{
				"install":   func() error { _, err := Install(l, bundle(t, "v1"), false); return err },
				"dry run":   func() error { _, err := Install(l, bundle(t, "v1"), true); return err },
				"uninstall": func() error { _, err := Uninstall(l, false); return err },
				"inspect":   func() error { _, err := Inspect(l, bundle(t, "v1")); return err },
			} {
				if err := run(); errCode(err) != "SKILLS_PATH_UNSAFE" {
					t.Errorf("%s: got %v, want SKILLS_PATH_UNSAFE", op, err)
				}
			}
			if diff := cmp.Diff(before, snapshot(t, l.Anchor)); diff != "" {
				t.Errorf("a refusal changed files:\n%s", diff)
			}
		})
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func TestReadOnlySkillsDirectory(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root ignores directory permissions")
	}
	l := homeLoc(t)
	mkdir(t, l.Dir())
	put(t, filepath.Join(l.Dir(), "context-tree-read", "SKILL.md"), "old")
	must(t, os.Chmod(l.Dir(), 0o555))
	defer os.Chmod(l.Dir(), 0o755)
	before := snapshot(t, l.Anchor)
	if _, err := Install(l, bundle(t, "v1"), false); errCode(err) != "IO_ERROR" || !strings.Contains(err.Error(), l.Dir()) {
		t.Errorf("install: %v", err)
	}
	if _, err := Uninstall(l, false); errCode(err) != "IO_ERROR" {
		t.Errorf("uninstall: %v", err)
	}
	if diff := cmp.Diff(before, snapshot(t, l.Anchor)); diff != "" {
		t.Errorf("changed:\n%s", diff)
	}
}

func TestLeftoverOfInterruptedInstall(t *testing.T) {
	l := homeLoc(t)
	b := bundle(t, "v1")
	install(t, l, b)
	// An install killed between its renames: context-tree-read moved aside
	// into the staging directory, its replacement half-written.
	stage := filepath.Join(l.Dir(), stagingPrefix+"123")
	must(t, os.MkdirAll(filepath.Join(stage, "new", "context-tree-read"), 0o755))
	put(t, filepath.Join(stage, "new", "context-tree-read", "SKILL.md"), "half")
	must(t, os.MkdirAll(filepath.Join(stage, "old"), 0o700))
	must(t, os.Rename(filepath.Join(l.Dir(), "context-tree-read"), filepath.Join(stage, "old", "context-tree-read")))
	must(t, os.Chmod(filepath.Join(stage, "old"), 0o500)) // even a read-only leftover goes

	ch := install(t, l, b)
	if !ch.Changed {
		t.Error("repair reported no change")
	}
	if diff := cmp.Diff(wantSkills, skillsIn(t, l.Dir())); diff != "" {
		t.Errorf("entries (-want +got):\n%s", diff)
	}
	if ch := install(t, l, b); ch.Changed {
		t.Error("not idempotent after repair")
	}
	// Uninstall clears leftovers too.
	must(t, os.Mkdir(stage, 0o700))
	if un, err := Uninstall(l, false); err != nil || !un.Changed {
		t.Fatalf("%+v %v", un, err)
	}
	if got := skillsIn(t, l.Dir()); len(got) != 0 {
		t.Errorf("left %v", got)
	}
}

func TestUninstall(t *testing.T) {
	l := homeLoc(t)
	// Nothing there: nothing to do, nothing created.
	un, err := Uninstall(l, false)
	if err != nil || un.Changed || len(un.Skills) != 0 {
		t.Fatalf("%+v %v", un, err)
	}
	if _, err := os.Lstat(filepath.Join(l.Anchor, ".agents")); err == nil {
		t.Error("uninstall created .agents")
	}
	install(t, l, bundle(t, "v1"))
	put(t, filepath.Join(l.Dir(), "other", "SKILL.md"), "x")
	dry, err := Uninstall(l, true)
	if err != nil || !dry.Changed || !cmp.Equal(dry.Skills, wantSkills) {
		t.Fatalf("dry %+v %v", dry, err)
	}
	if len(skillsIn(t, l.Dir())) != 5 {
		t.Error("dry run removed something")
	}
	un, err = Uninstall(l, false)
	if err != nil || !un.Changed || !cmp.Equal(un.Skills, wantSkills) {
		t.Fatalf("%+v %v", un, err)
	}
	if diff := cmp.Diff([]string{"other"}, skillsIn(t, l.Dir())); diff != "" {
		t.Error(diff)
	}
	if un, _ := Uninstall(l, false); un.Changed {
		t.Error("second uninstall changed something")
	}
}
