package skills_test

// The real-client check: the Agent Skills CLI (npm package "skills") must
// find this repository's four skills in skills/, and install them as they
// are. .ci/run installs it (with a Node.js it can run on) and sets
// GCT_SKILLS_CLI, GCT_SKILLS_NODE and GCT_REQUIRE_SKILLS_CLI=1; elsewhere the
// test looks for `skills` on PATH and is skipped when it cannot run. With
// -short it is skipped.

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/git-context-tree/git-context-tree/contracts"
	adapter "github.com/git-context-tree/git-context-tree/internal/adapters/skills"
	"github.com/git-context-tree/git-context-tree/skills"
)

// skillsCLI is the command that runs the Agent Skills CLI, or why there is
// none.
func skillsCLI(t *testing.T) []string {
	t.Helper()
	if testing.Short() {
		// Out of the README's test command; .ci/run runs it in its own
		// step, where a missing CLI fails it.
		t.Skip("a real client: skipped with -short (.ci/run runs it in its own step)")
	}
	unavailable := func(why string) []string {
		if os.Getenv("GCT_REQUIRE_SKILLS_CLI") == "1" {
			t.Fatalf("the Agent Skills CLI is required (GCT_REQUIRE_SKILLS_CLI=1) but %s", why)
		}
		t.Skipf("skipping the real-client check: %s (install it with `npm install --prefix <dir> skills@1.7.4` and set GCT_SKILLS_CLI=<dir>/node_modules/skills/bin/cli.mjs, with GCT_SKILLS_NODE=<node 22.20 or later> if the default node is older)", why)
		return nil
	}
	cli := os.Getenv("GCT_SKILLS_CLI")
	if cli == "" {
		p, err := exec.LookPath("skills")
		if err != nil {
			return unavailable("no `skills` on PATH and GCT_SKILLS_CLI is unset")
		}
		cli = p
	}
	if node := os.Getenv("GCT_SKILLS_NODE"); node != "" {
		return []string{node, cli}
	}
	return []string{cli}
}

// runSkillsCLI runs the CLI offline-friendly: private HOME, no telemetry,
// no colours, no prompts.
func runSkillsCLI(t *testing.T, cmdline []string, dir string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, cmdline[0], append(cmdline[1:], args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "HOME="+t.TempDir(), "DISABLE_TELEMETRY=1", "DO_NOT_TRACK=1", "NO_COLOR=1", "FORCE_COLOR=0", "CI=1")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	text := ansi.ReplaceAllString(out.String(), "")
	if err != nil {
		why := fmt.Sprintf("`skills %s` failed: %v\n%s", strings.Join(args, " "), err, text)
		if strings.Contains(text, "SyntaxError") || strings.Contains(text, "Unsupported engine") {
			if os.Getenv("GCT_REQUIRE_SKILLS_CLI") != "1" {
				t.Skipf("skipping the real-client check: the CLI cannot run on this Node.js (it needs 22.20 or later): %s", why)
			}
		}
		t.Fatal(why)
	}
	return text
}

var ansi = regexp.MustCompile(`\x1b\[[0-9;?]*[A-Za-z]`)

// repoSkills are the skill directories of this repository with their
// source SKILL.md.
func repoSkills(t *testing.T) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	err := fs.WalkDir(skills.Files, ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && filepath.Base(p) == "SKILL.md" {
			out[filepath.Dir(p)], err = fs.ReadFile(skills.Files, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestAgentSkillsCLIListsOurSkills(t *testing.T) {
	t.Parallel()
	cli := skillsCLI(t)
	repo, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	out := runSkillsCLI(t, cli, t.TempDir(), "add", repo, "--list")
	src := repoSkills(t)
	if len(src) != 4 {
		t.Fatalf("the repository has %d skills, want 4", len(src))
	}
	if !strings.Contains(out, "Found 4 skills") {
		t.Errorf("the CLI did not find exactly 4 skills:\n%s", out)
	}
	for name, data := range src {
		meta, err := adapter.ParseMeta(data)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !regexp.MustCompile(`(?m)^\W*` + regexp.QuoteMeta(name) + `\s*$`).MatchString(out) {
			t.Errorf("the CLI does not list %s:\n%s", name, out)
		}
		if !strings.Contains(out, meta.Description) {
			t.Errorf("the CLI does not show the description of %s:\n%s", name, out)
		}
	}
}

// TestAgentSkillsCLIInstallsThemAsTheyAre installs from the repository with
// the real CLI (copies, into a project, for Claude Code) and checks the
// files are ours byte for byte; `skills list` then reports them stale (the
// repository's version is not a release) and `skills install` makes them
// current without touching anything else.
func TestAgentSkillsCLIInstallsThemAsTheyAre(t *testing.T) {
	t.Parallel()
	cli := skillsCLI(t)
	repo, _ := filepath.Abs("..")
	project := t.TempDir()
	runSkillsCLI(t, cli, project, "add", repo, "--skill", "*", "--agent", "claude-code", "--copy", "--yes")
	loc := adapter.Location{Name: adapter.LocationClaude, Hosts: []string{adapter.HostClaude}, Anchor: project, Rel: []string{".claude", "skills"}, Install: true}
	for name, data := range repoSkills(t) {
		got, err := os.ReadFile(filepath.Join(loc.Dir(), name, "SKILL.md"))
		if err != nil {
			t.Fatalf("the CLI did not install %s: %v", name, err)
		}
		if diff := cmp.Diff(string(data), string(got)); diff != "" {
			t.Errorf("%s installed differently (-repo +installed):\n%s", name, diff)
		}
	}
	b, err := adapter.Load("v1.0.0")
	if err != nil {
		t.Fatal(err)
	}
	found, err := adapter.Inspect(loc, b)
	if err != nil || len(found) != 4 {
		t.Fatalf("inspect: %v %v", found, err)
	}
	for _, s := range found {
		if s.Status != contracts.SkillStale || s.Version != "source" {
			t.Errorf("%s: %s %q (%s)", s.Name, s.Status, s.Version, s.Reason)
		}
	}
	if _, err := adapter.Install(loc, b, false); err != nil {
		t.Fatal(err)
	}
	found, _ = adapter.Inspect(loc, b)
	for _, s := range found {
		if s.Status != contracts.SkillCurrent {
			t.Errorf("after install %s: %s (%s)", s.Name, s.Status, s.Reason)
		}
	}
	if _, err := os.Stat(filepath.Join(project, "skills-lock.json")); err != nil {
		t.Errorf("the CLI's own lock file is gone: %v", err)
	}
}
