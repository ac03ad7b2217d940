package hooks

import (
	"os"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
)

// preCommitHook is one hook of a .pre-commit-config.yaml, as far as the
// tree check cares.
type preCommitHook struct {
	ID     string   `yaml:"id"`
	Entry  string   `yaml:"entry"`
	Stages []string `yaml:"stages"`
}

// sequencerID is the .pre-commit-hooks.yaml hook that judges the commits
// cherry-pick, revert and rebase make (verify --staged --hook
// prepare-commit-msg, stages: [prepare-commit-msg]).
const sequencerID = "context-tree-verify-sequencer"

// preCommitHooks reads the hooks of a pre-commit configuration; ok is
// false when it is not YAML of the framework's shape.
func preCommitHooks(name string) (hooks []preCommitHook, ok bool) {
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, false
	}
	var cfg struct {
		Repos []struct {
			Hooks []preCommitHook `yaml:"hooks"`
		} `yaml:"repos"`
	}
	if yaml.Unmarshal(data, &cfg) != nil {
		return nil, false
	}
	for _, r := range cfg.Repos {
		hooks = append(hooks, r.Hooks...)
	}
	return hooks, true
}

// sequencer reports a hook that runs the check for sequencer commits.
func (h preCommitHook) sequencer() bool {
	return h.ID == sequencerID || strings.Contains(h.Entry, "verify --staged --hook prepare-commit-msg")
}

// verifies reports a hook that runs the plain check (every commit).
func (h preCommitHook) verifies() bool {
	if h.sequencer() {
		return false
	}
	return h.ID == "context-tree-verify" || h.ID == "context-tree-verify-system" || strings.Contains(h.Entry, "context-tree verify --staged")
}

// runsIn reports whether the framework runs the hook in a git hook: a hook
// without stages runs in every hook type the framework is installed for;
// stages may use the names of before pre-commit 3.2 (commit,
// merge-commit).
func (h preCommitHook) runsIn(hook string) bool {
	if len(h.Stages) == 0 {
		return true
	}
	old := map[string]string{"pre-commit": "commit", "pre-merge-commit": "merge-commit"}[hook]
	return slices.Contains(h.Stages, hook) || (old != "" && slices.Contains(h.Stages, old))
}

// preCommitConfigured reports whether the configuration runs the check in
// a git hook: the plain check in pre-commit and pre-merge-commit, the
// sequencer hook in prepare-commit-msg; the framework has no
// pre-applypatch hook type. A file that is not the framework's YAML is
// judged by what it mentions.
func preCommitConfigured(name, hook string) bool {
	hooks, ok := preCommitHooks(name)
	if !ok {
		return hook != "prepare-commit-msg" && hook != "pre-applypatch" &&
			(mentions(name, "context-tree verify --staged") || mentions(name, "context-tree-verify"))
	}
	switch hook {
	case "pre-applypatch":
		return false
	case "prepare-commit-msg":
		return slices.ContainsFunc(hooks, func(h preCommitHook) bool { return h.sequencer() && h.runsIn(hook) })
	}
	return slices.ContainsFunc(hooks, func(h preCommitHook) bool { return h.verifies() && h.runsIn(hook) })
}

// preCommitTwice reports whether the framework, installed for
// prepare-commit-msg, runs the plain check there too: every commit is then
// checked twice (in pre-commit and again in prepare-commit-msg).
func preCommitTwice(name string) bool {
	hooks, _ := preCommitHooks(name)
	return slices.ContainsFunc(hooks, func(h preCommitHook) bool { return h.verifies() && h.runsIn("prepare-commit-msg") })
}

// preCommitStages is the advice that keeps the plain check out of
// prepare-commit-msg.
const preCommitStages = "give context-tree-verify `stages: [pre-commit, pre-merge-commit]` (`[commit, merge-commit]` before pre-commit 3.2)"

// preCommitAdvice is what to do so the framework runs the check in a hook
// it does not run it in yet.
func preCommitAdvice(hook string) string {
	switch hook {
	case "prepare-commit-msg":
		return "add the hook " + sequencerID + " (entry `git-context-tree verify --staged --hook prepare-commit-msg`, stages: [prepare-commit-msg]), " +
			preCommitStages + " so it does not run a second time in prepare-commit-msg, and run `pre-commit install --hook-type prepare-commit-msg`"
	case "pre-applypatch":
		return "the pre-commit framework has no pre-applypatch hook type (let CI run `git context-tree verify`)"
	}
	return ""
}
