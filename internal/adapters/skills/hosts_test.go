package skills

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestDetect covers each host's detection rule and environment override.
func TestDetect(t *testing.T) {
	cases := []struct {
		name   string
		host   string
		dirs   []string          // created below HOME
		vars   map[string]string // "~" in a value is HOME
		want   bool
		wantIn string // part of Dir (with "~" for HOME)
	}{
		{"claude by ~/.claude", HostClaude, []string{".claude"}, nil, true, "~/.claude"},
		{"claude absent", HostClaude, nil, nil, false, "~/.claude"},
		{"claude by CLAUDE_CONFIG_DIR", HostClaude, []string{"cfg/claude"}, map[string]string{"CLAUDE_CONFIG_DIR": "~/cfg/claude"}, true, "~/cfg/claude"},
		{"CLAUDE_CONFIG_DIR wins over ~/.claude", HostClaude, []string{".claude"}, map[string]string{"CLAUDE_CONFIG_DIR": "~/missing"}, false, "~/missing"},
		{"codex by ~/.codex", HostCodex, []string{".codex"}, nil, true, "~/.codex"},
		{"codex by CODEX_HOME", HostCodex, []string{"elsewhere/codex"}, map[string]string{"CODEX_HOME": "~/elsewhere/codex"}, true, "~/elsewhere/codex"},
		{"CODEX_HOME missing", HostCodex, []string{".codex"}, map[string]string{"CODEX_HOME": "~/nope"}, false, "~/nope"},
		{"gemini", HostGemini, []string{".gemini"}, nil, true, "~/.gemini"},
		{"gemini absent", HostGemini, []string{".codex"}, nil, false, "~/.gemini"},
		{"copilot", HostCopilot, []string{".copilot"}, nil, true, "~/.copilot"},
		{"opencode by ~/.config/opencode", HostOpenCode, []string{".config/opencode"}, nil, true, "~/.config/opencode"},
		{"opencode by XDG_CONFIG_HOME", HostOpenCode, []string{"xdg/opencode"}, map[string]string{"XDG_CONFIG_HOME": "~/xdg"}, true, "~/xdg/opencode"},
		{"XDG_CONFIG_HOME without opencode", HostOpenCode, []string{".config/opencode", "xdg"}, map[string]string{"XDG_CONFIG_HOME": "~/xdg"}, false, "~/xdg/opencode"},
		{"pi by ~/.pi/agent", HostPi, []string{".pi/agent"}, nil, true, "~/.pi/agent"},
		{"pi needs the agent directory", HostPi, []string{".pi"}, nil, false, "~/.pi/agent"},
		{"pi by PI_CODING_AGENT_DIR", HostPi, []string{"pi-dir"}, map[string]string{"PI_CODING_AGENT_DIR": "~/pi-dir"}, true, "~/pi-dir"},
		{"cursor", HostCursor, []string{".cursor"}, nil, true, "~/.cursor"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			home := fakeHome(t, tc.dirs...)
			vars := map[string]string{}
			for k, v := range tc.vars {
				vars[k] = strings.Replace(v, "~", home, 1)
			}
			d := Detect(envOf(home, vars), tc.host)
			if d.Detected != tc.want {
				t.Errorf("Detected = %v, want %v (reason %q)", d.Detected, tc.want, d.Reason)
			}
			if want := strings.Replace(tc.wantIn, "~", home, 1); d.Dir != want {
				t.Errorf("Dir = %s, want %s", d.Dir, want)
			}
			if !d.Detected && !strings.Contains(d.Reason, d.Dir) {
				t.Errorf("reason %q does not name %s", d.Reason, d.Dir)
			}
			if _, err := os.Lstat(d.Dir); !d.Detected && err == nil && !strings.Contains(d.Reason, "not a directory") {
				t.Errorf("undetected but present: %s", d.Dir)
			}
		})
	}
}

func TestDetectOddEntries(t *testing.T) {
	home := fakeHome(t, "real")
	put(t, filepath.Join(home, ".claude"), "a file")
	if err := os.Symlink("real", filepath.Join(home, ".codex")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("missing", filepath.Join(home, ".gemini")); err != nil {
		t.Fatal(err)
	}
	env := envOf(home, nil)
	got := map[string]string{}
	for _, h := range []string{HostClaude, HostCodex, HostGemini} {
		d := Detect(env, h)
		got[h] = d.Reason
		if d.Detected {
			got[h] = "detected"
		}
	}
	want := map[string]string{
		HostClaude: "not detected: " + filepath.Join(home, ".claude") + " is not a directory",
		HostCodex:  "detected", // a symlink to a directory: only reads go through it
		HostGemini: "not detected: " + filepath.Join(home, ".gemini") + " is a symlink to no directory",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestRelativeEnvironmentDirectory(t *testing.T) {
	home := fakeHome(t)
	wd := t.TempDir()
	mkdir(t, filepath.Join(wd, "rel", "codex"))
	env := envOf(home, map[string]string{"CODEX_HOME": "rel/codex"})
	env.Dir = wd
	d := Detect(env, HostCodex)
	if !d.Detected || d.Dir != filepath.Join(wd, "rel", "codex") {
		t.Errorf("got %+v", d)
	}
}
