package test

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/cli"
	"github.com/git-context-tree/git-context-tree/internal/eval"
)

// TestCleanupWorkflow checks contrib's GitHub Actions cleanup workflow: a
// cron trigger, and a step running `git context-tree cleanup run …
// --publish` whose flags the CLI accepts (run in an empty directory it
// fails for want of a project, never with a usage error).
func TestCleanupWorkflow(t *testing.T) {
	data, err := os.ReadFile("../contrib/github-actions/context-tree-cleanup.yml")
	if err != nil {
		t.Fatal(err)
	}
	var wf struct {
		On struct {
			Schedule []struct {
				Cron string `yaml:"cron"`
			} `yaml:"schedule"`
		} `yaml:"on"`
		Env  map[string]string `yaml:"env"`
		Jobs map[string]struct {
			Steps []struct {
				Run string `yaml:"run"`
			} `yaml:"steps"`
		} `yaml:"jobs"`
	}
	if err := yaml.Unmarshal(data, &wf); err != nil {
		t.Fatal(err)
	}
	if len(wf.On.Schedule) == 0 || len(strings.Fields(wf.On.Schedule[0].Cron)) != 5 {
		t.Errorf("no cron trigger: %+v", wf.On)
	}
	var run string
	for _, job := range wf.Jobs {
		for _, s := range job.Steps {
			if strings.HasPrefix(s.Run, "git context-tree cleanup run ") {
				run = strings.TrimSpace(s.Run)
			}
		}
	}
	if run == "" || !strings.Contains(run, " --publish") {
		t.Fatalf("no step runs `git context-tree cleanup run … --publish`")
	}
	args := strings.Fields(strings.ReplaceAll(run, `"$TREE"`, wf.Env["TREE"]))[2:]
	var stdout, stderr bytes.Buffer
	code := cli.Main(scratchProcess(t, &stdout, &stderr), append([]string{"--json"}, args...))
	if code == contracts.ExitUsage || code == contracts.ExitOK {
		t.Errorf("%q: exit %d\n%s%s", args, code, stdout.String(), stderr.String())
	}
}

// TestDriftWorkflow checks contrib's pull-request drift workflow: it runs
// on pull requests with the whole history, and its drift command (with
// the base replaced by a revision) is one the CLI accepts; it fails the
// check only when STRICT is "true".
func TestDriftWorkflow(t *testing.T) {
	data, err := os.ReadFile("../contrib/github-actions/context-tree-drift.yml")
	if err != nil {
		t.Fatal(err)
	}
	var wf struct {
		On   map[string]any    `yaml:"on"`
		Env  map[string]string `yaml:"env"`
		Jobs map[string]struct {
			Steps []struct {
				Run  string         `yaml:"run"`
				With map[string]any `yaml:"with"`
			} `yaml:"steps"`
		} `yaml:"jobs"`
	}
	if err := yaml.Unmarshal(data, &wf); err != nil {
		t.Fatal(err)
	}
	if _, ok := wf.On["pull_request"]; !ok || wf.Env["STRICT"] != "false" {
		t.Errorf("trigger %v, STRICT %q", wf.On, wf.Env["STRICT"])
	}
	var drift string
	fullHistory := false
	for _, job := range wf.Jobs {
		for _, s := range job.Steps {
			if d, ok := s.With["fetch-depth"]; ok && d == 0 {
				fullHistory = true
			}
			for _, line := range strings.Split(s.Run, "\n") {
				if strings.HasPrefix(line, "git context-tree drift ") {
					drift = line
				}
			}
		}
	}
	if !fullHistory || drift == "" || !strings.Contains(drift, "--format github") {
		t.Fatalf("checkout with fetch-depth 0: %v; drift step: %q", fullHistory, drift)
	}
	cmdline, _, _ := strings.Cut(drift, " ||")
	args := strings.Fields(strings.ReplaceAll(cmdline, `"$base"`, "HEAD"))[2:]
	var stdout, stderr bytes.Buffer
	if code := cli.Main(scratchProcess(t, &stdout, &stderr), args); code == contracts.ExitUsage {
		t.Errorf("%q: usage error\n%s", args, stderr.String())
	}
}

// TestExampleEvalSetIsFrozen: the example question set's frozen digest is
// the set's own, so `eval run examples/evals/handbook.toml` runs as shipped.
func TestExampleEvalSetIsFrozen(t *testing.T) {
	data, err := os.ReadFile("../examples/evals/handbook.toml")
	if err != nil {
		t.Fatal(err)
	}
	s, err := eval.ParseSet("examples/evals/handbook.toml", data)
	if err != nil {
		t.Fatal(err)
	}
	var frozen struct{ Digest string }
	raw, err := os.ReadFile("../examples/evals/handbook.frozen")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &frozen); err != nil || frozen.Digest != s.Digest() {
		t.Errorf("examples/evals/handbook.frozen holds %q, the set is %s: run git context-tree eval freeze examples/evals/handbook.toml (%v)", frozen.Digest, s.Digest(), err)
	}
}

// TestCtxfileWorkflow checks contrib's envelope refresh workflow: on push,
// the export it runs is one the CLI accepts, and it commits only
// .ctxfile/.
func TestCtxfileWorkflow(t *testing.T) {
	data, err := os.ReadFile("../contrib/github-actions/context-tree-ctxfile.yml")
	if err != nil {
		t.Fatal(err)
	}
	var wf struct {
		On   map[string]any `yaml:"on"`
		Jobs map[string]struct {
			Steps []struct {
				Run string `yaml:"run"`
			} `yaml:"steps"`
		} `yaml:"jobs"`
	}
	if err := yaml.Unmarshal(data, &wf); err != nil {
		t.Fatal(err)
	}
	if _, ok := wf.On["push"]; !ok {
		t.Errorf("trigger %v", wf.On)
	}
	var export, commit string
	for _, job := range wf.Jobs {
		for _, s := range job.Steps {
			switch {
			case strings.HasPrefix(s.Run, "git context-tree export ctxfile"):
				export = strings.TrimSpace(s.Run)
			case strings.Contains(s.Run, "git commit"):
				commit = s.Run
			}
		}
	}
	if export == "" || !strings.Contains(commit, "git add .ctxfile/context.json .ctxfile/context.md") {
		t.Fatalf("export %q, commit step %q", export, commit)
	}
	var stdout, stderr bytes.Buffer
	if code := cli.Main(scratchProcess(t, &stdout, &stderr), strings.Fields(export)[2:]); code == contracts.ExitUsage {
		t.Errorf("%q: usage error\n%s", export, stderr.String())
	}
}
