package skills

import (
	"regexp"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
	"go.yaml.in/yaml/v3"
)

// The four skills the product ships.
var wantSkills = []string{"context-tree-cleanup", "context-tree-read", "context-tree-setup", "context-tree-write"}

// agentSkillName is the Agent Skills format's name: lowercase letters,
// digits and single hyphens, at most 64 characters.
var agentSkillName = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

func TestBundleShipsTheSkills(t *testing.T) {
	b := bundle(t, "v1.2.3")
	if diff := cmp.Diff(wantSkills, b.Names()); diff != "" {
		t.Errorf("skills (-want +got):\n%s", diff)
	}
}

// TestSkillFrontmatter validates every stamped SKILL.md against the Agent
// Skills format and this product's rules.
func TestSkillFrontmatter(t *testing.T) {
	const version = "v1.2.3-rc.1+dirty"
	b := bundle(t, version)
	for _, s := range b.Skills {
		t.Run(s.Name, func(t *testing.T) {
			data := s.Files[skillFile]
			m, err := ParseMeta(data)
			if err != nil {
				t.Fatal(err)
			}
			if m.Name != s.Name {
				t.Errorf("name %q, directory %q", m.Name, s.Name)
			}
			if !agentSkillName.MatchString(m.Name) || len(m.Name) > 64 || !strings.HasPrefix(m.Name, Prefix) {
				t.Errorf("name %q is not a valid context-tree-* Agent Skills name", m.Name)
			}
			if d := strings.TrimSpace(m.Description); d == "" || len(m.Description) > 300 || strings.Contains(m.Description, "\n") {
				t.Errorf("description must be one non-empty line of at most 300 characters; got %d: %q", len(m.Description), m.Description)
			}
			if m.Version() != version {
				t.Errorf("metadata.version %q, want %q", m.Version(), version)
			}
			for k, v := range m.Metadata {
				if _, ok := v.(string); !ok {
					t.Errorf("metadata.%s is %T; the format wants strings", k, v)
				}
			}
			var raw map[string]any
			fm, _, _ := strings.Cut(strings.TrimPrefix(string(data), "---\n"), "\n---\n")
			if err := yaml.Unmarshal([]byte(fm), &raw); err != nil {
				t.Fatal(err)
			}
			for k := range raw {
				switch k {
				case "name", "description", "license", "compatibility", "metadata", "allowed-tools":
				default:
					t.Errorf("frontmatter field %q is not in the Agent Skills format", k)
				}
			}
			body := string(data[strings.Index(string(data), "\n---\n")+5:])
			if !strings.Contains(body, "git context-tree") {
				t.Error("the skill never invokes git context-tree")
			}
			// The cleanup skill may say how `cleanup run` starts the agent,
			// but no skill asks an agent to schedule anything.
			if strings.Contains(body, "cleanup schedule") {
				t.Error("the skill asks the agent to schedule cleanup")
			}
		})
	}
}

func TestStamp(t *testing.T) {
	src := "---\nname: x\nmetadata:\n  owner: me\n  version: \"source\"\ntitle: t\n---\n\nversion: body\n"
	got, err := Stamp([]byte(src), "v2")
	if err != nil {
		t.Fatal(err)
	}
	want := "---\nname: x\nmetadata:\n  owner: me\n  version: \"v2\"\ntitle: t\n---\n\nversion: body\n"
	if diff := cmp.Diff(want, string(got)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	for name, bad := range map[string]string{
		"no frontmatter":     "# x\n",
		"unclosed":           "---\nmetadata:\n  version: a\n",
		"no version":         "---\nname: x\n---\n",
		"version elsewhere":  "---\nversion: a\nother:\n  version: b\n---\n",
		"two version lines":  "---\nmetadata:\n  version: a\n  version: b\n---\n",
		"version after meta": "---\nmetadata:\n  a: b\nname: x\n  version: c\n---\n",
	} {
		if _, err := Stamp([]byte(bad), "v"); err == nil {
			t.Errorf("%s: stamped %q", name, bad)
		}
	}
}

func TestLoadSkipsForeignEntriesAndNeedsSkillMD(t *testing.T) {
	fsys := fstest.MapFS{
		"context-tree-a/SKILL.md":       {Data: []byte("---\nname: context-tree-a\nmetadata:\n  version: s\n---\n")},
		"context-tree-a/refs/more.md":   {Data: []byte("more")},
		"other/SKILL.md":                {Data: []byte("x")},
		"skills.go":                     {Data: []byte("package skills")},
		"context-tree-b/SKILL.md":       {Data: []byte("---\nname: context-tree-b\nmetadata:\n  version: s\n---\n")},
		"context-tree-b/scripts/run.sh": {Data: []byte("#!/bin/sh\n")},
	}
	b, err := load(fsys, "v9")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"context-tree-a", "context-tree-b"}, b.Names()); diff != "" {
		t.Error(diff)
	}
	a, _ := b.Skill("context-tree-a")
	if diff := cmp.Diff([]string{"SKILL.md", "refs/more.md"}, a.Paths()); diff != "" {
		t.Error(diff)
	}
	if diff := cmp.Diff([]string{"refs"}, a.dirs()); diff != "" {
		t.Error(diff)
	}
	if m, _ := ParseMeta(a.Files["SKILL.md"]); m.Version() != "v9" {
		t.Errorf("not stamped: %q", a.Files["SKILL.md"])
	}
	if _, err := load(fstest.MapFS{"context-tree-c/README.md": {Data: []byte("x")}}, "v"); err == nil {
		t.Error("a skill without SKILL.md loaded")
	}
}

func TestParseMeta(t *testing.T) {
	m, err := ParseMeta([]byte("\ufeff---\r\nname: n\r\nmetadata:\r\n  version: \"1\"\r\n---\r\nbody"))
	if err != nil || m.Name != "n" || m.Version() != "1" {
		t.Errorf("got %+v, %v", m, err)
	}
	for _, bad := range []string{"", "name: x\n", "---\nname: x\n", "---\n: [\n---\n"} {
		if _, err := ParseMeta([]byte(bad)); err == nil {
			t.Errorf("parsed %q", bad)
		}
	}
	if m, _ := ParseMeta([]byte("---\nmetadata:\n  version: 3\n---\n")); m.Version() != "" {
		t.Errorf("a non-string version counted: %q", m.Version())
	}
}

// TestSkillsForbidFollowingSymlinks: every skill that has an agent read or
// edit a tree tells it never to follow a symlink (S17: agents must not
// follow symlinks when editing).
func TestSkillsForbidFollowingSymlinks(t *testing.T) {
	b := bundle(t, "v1.2.3")
	never := regexp.MustCompile(`(?is)never[^.]*follow[^.]*symlink|never follow symlinks|never create a symlink or follow one`)
	for _, name := range []string{"context-tree-cleanup", "context-tree-read", "context-tree-write"} {
		s, ok := b.Skill(name)
		if !ok {
			t.Fatalf("no skill %s", name)
		}
		if !never.Match(s.Files[skillFile]) {
			t.Errorf("%s does not tell the agent never to follow a symlink", name)
		}
	}
}
