package skills

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// loc is a Location as the tests compare it: name, hosts, directory
// relative to HOME (or absolute) and whether install writes it.
type loc struct {
	Name    string
	Hosts   string
	Dir     string
	Install bool
}

func summarize(home string, locs []Location) []loc {
	var out []loc
	for _, l := range locs {
		dir := l.Dir()
		// Below home unless a whole ".." segment leaves it (tree.Inside's
		// rule; adapters cannot import tree).
		if rel, err := filepath.Rel(home, dir); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			dir = "~/" + rel
		}
		out = append(out, loc{l.Name, strings.Join(l.Hosts, ","), dir, l.Install})
	}
	return out
}

func skipNames(skips []Skip) string {
	var names []string
	for _, s := range skips {
		names = append(names, s.Host)
	}
	return strings.Join(names, ",")
}

func TestGlobal(t *testing.T) {
	cases := []struct {
		name      string
		dirs      []string
		vars      map[string]string
		only      []string
		want      []loc
		wantSkips string
	}{
		{
			name:      "nothing detected",
			wantSkips: "claude,codex,copilot,cursor,gemini,opencode,pi",
		},
		{
			name:      "claude only",
			dirs:      []string{".claude"},
			want:      []loc{{"claude", "claude", "~/.claude/skills", true}},
			wantSkips: "codex,copilot,cursor,gemini,opencode,pi",
		},
		{
			name: "the shared directory is one location for all its hosts",
			dirs: []string{".codex", ".gemini", ".copilot", ".config/opencode", ".pi/agent"},
			want: []loc{{"agents", "codex,copilot,gemini,opencode,pi", "~/.agents/skills", true}},
			// Not claude, not cursor.
			wantSkips: "claude,cursor",
		},
		{
			name:      "cursor gets its own directory without ~/.claude",
			dirs:      []string{".cursor"},
			want:      []loc{{"cursor", "cursor", "~/.cursor/skills", true}},
			wantSkips: "claude,codex,copilot,gemini,opencode,pi",
		},
		{
			name:      "cursor reads ~/.claude/skills when ~/.claude exists",
			dirs:      []string{".cursor", ".claude"},
			want:      []loc{{"claude", "claude,cursor", "~/.claude/skills", true}},
			wantSkips: "codex,copilot,gemini,opencode,pi",
		},
		{
			name: "an old ~/.cursor/skills is still listed and uninstalled",
			dirs: []string{".cursor/skills", ".claude"},
			want: []loc{
				{"claude", "claude,cursor", "~/.claude/skills", true},
				{"cursor", "cursor", "~/.cursor/skills", false},
			},
			wantSkips: "codex,copilot,gemini,opencode,pi",
		},
		{
			name:      "cursor alone with ~/.claude present is skipped",
			dirs:      []string{".cursor", ".claude"},
			only:      []string{"cursor"},
			wantSkips: "cursor",
		},
		{
			name:      "CLAUDE_CONFIG_DIR moves Claude Code's directory",
			dirs:      []string{"cfg"},
			vars:      map[string]string{"CLAUDE_CONFIG_DIR": "~/cfg"},
			want:      []loc{{"claude", "claude", "~/cfg/skills", true}},
			wantSkips: "codex,copilot,cursor,gemini,opencode,pi",
		},
		{
			name:      "CLAUDE_CONFIG_DIR elsewhere does not serve Cursor",
			dirs:      []string{"cfg", ".claude", ".cursor"},
			vars:      map[string]string{"CLAUDE_CONFIG_DIR": "~/cfg"},
			want:      []loc{{"claude", "claude", "~/cfg/skills", true}},
			wantSkips: "codex,copilot,cursor,gemini,opencode,pi",
		},
		{
			name:      "CODEX_HOME, XDG_CONFIG_HOME and PI_CODING_AGENT_DIR detect into the shared directory",
			dirs:      []string{"c", "x/opencode", "p"},
			vars:      map[string]string{"CODEX_HOME": "~/c", "XDG_CONFIG_HOME": "~/x", "PI_CODING_AGENT_DIR": "~/p"},
			want:      []loc{{"agents", "codex,opencode,pi", "~/.agents/skills", true}},
			wantSkips: "claude,copilot,cursor,gemini",
		},
		{
			name:      "--host narrows and still reports undetected hosts",
			dirs:      []string{".claude", ".codex", ".gemini"},
			only:      []string{"gemini", "pi"},
			want:      []loc{{"agents", "gemini", "~/.agents/skills", true}},
			wantSkips: "pi",
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			home := fakeHome(t, tc.dirs...)
			vars := map[string]string{}
			for k, v := range tc.vars {
				vars[k] = strings.Replace(v, "~", home, 1)
			}
			before := snapshot(t, home)
			locs, skips, err := Global(envOf(home, vars), tc.only)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, summarize(home, locs)); diff != "" {
				t.Errorf("locations (-want +got):\n%s", diff)
			}
			if got := skipNames(skips); got != tc.wantSkips {
				t.Errorf("skipped %s, want %s", got, tc.wantSkips)
			}
			for _, s := range skips {
				if s.Reason == "" {
					t.Errorf("%s skipped without a reason", s.Host)
				}
			}
			// Detection never creates anything.
			if diff := cmp.Diff(before, snapshot(t, home)); diff != "" {
				t.Errorf("HOME changed:\n%s", diff)
			}
		})
	}
}

func TestGlobalHome(t *testing.T) {
	if _, _, err := Global(envOf("", nil), nil); errCode(err) != "SKILLS_HOME_UNKNOWN" {
		t.Errorf("empty HOME: %v", err)
	}
	file := filepath.Join(t.TempDir(), "f")
	put(t, file, "x")
	if _, _, err := Global(envOf(file, nil), nil); errCode(err) != "SKILLS_HOME_UNKNOWN" {
		t.Errorf("HOME a file: %v", err)
	}
	// A HOME reached through a symlink is resolved: only the segments below
	// it must be real directories.
	real := fakeHome(t, ".claude")
	link := filepath.Join(t.TempDir(), "home")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	locs, _, err := Global(envOf(link, nil), []string{"claude"})
	if err != nil || len(locs) != 1 || locs[0].Anchor != real {
		t.Errorf("got %+v, %v", locs, err)
	}
}

func TestProject(t *testing.T) {
	dir := t.TempDir()
	locs, err := Project(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []loc{
		{"claude", "claude,cursor", "~/.claude/skills", true},
		{"agents", "codex,copilot,gemini,opencode,pi", "~/.agents/skills", true},
	}
	if diff := cmp.Diff(want, summarize(dir, locs)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	locs, _ = Project(dir, []string{"cursor"})
	if diff := cmp.Diff([]loc{{"claude", "cursor", "~/.claude/skills", true}}, summarize(dir, locs)); diff != "" {
		t.Errorf("--host cursor (-want +got):\n%s", diff)
	}
	locs, _ = Project(dir, []string{"pi", "codex"})
	if diff := cmp.Diff([]loc{{"agents", "codex,pi", "~/.agents/skills", true}}, summarize(dir, locs)); diff != "" {
		t.Errorf("--host pi,codex (-want +got):\n%s", diff)
	}
	if _, err := Project(filepath.Join(dir, "missing"), nil); errCode(err) != "USAGE" {
		t.Errorf("missing project: %v", err)
	}
	if _, err := os.Lstat(filepath.Join(dir, ".claude")); err == nil {
		t.Error("planning created .claude")
	}
}
