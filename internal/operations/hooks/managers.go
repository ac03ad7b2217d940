package hooks

import (
	"os"
	"path/filepath"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/git-context-tree/git-context-tree/internal/tree"
)

// hookManager is a hook manager the user already runs. With one in use,
// installing our own shim would fight it, so install prints the lines to
// add to its configuration instead.
type hookManager struct {
	name    string
	where   string // where the snippet goes, for messages
	snippet string
	// config is the file that says what the manager runs in a hook,
	// repository-relative.
	config func(hook string) string
	// configured reports whether that file runs our check in the hook.
	configured func(top, hook string) bool
	// install is the command that installs the manager's git hook.
	install func(hook string) string
	// advice, when set and not empty, says how to make the configuration
	// run the check in a hook (instead of the generic reason).
	advice func(hook string) string
	// twice, when set, reports a configuration that runs the plain check
	// in prepare-commit-msg too, so every commit is checked twice.
	twice func(top string) bool
}

// verifyCommand is what every integration runs.
const verifyCommand = "git context-tree verify --staged"

// lefthookSnippet runs the check in every hook it belongs in; lefthook
// installs a git hook for each configured one.
const lefthookSnippet = "pre-commit:\n  commands:\n    context-tree:\n      run: " + verifyCommand + "\n" +
	"pre-merge-commit:\n  commands:\n    context-tree:\n      run: " + verifyCommand + "\n" +
	"prepare-commit-msg:\n  commands:\n    context-tree:\n      run: " + verifyCommand + " --hook prepare-commit-msg\n" +
	"pre-applypatch:\n  commands:\n    context-tree:\n      run: " + verifyCommand + "\n"

// detectManager finds husky (core.hooksPath in .husky, relative or
// absolute), lefthook (a lefthook config) or the pre-commit framework
// (.pre-commit-config.yaml).
func detectManager(top, hooksDir string) *hookManager {
	if _, ok := tree.Inside(filepath.Join(top, ".husky"), hooksDir); ok {
		return &hookManager{name: "husky", where: ".husky/pre-commit and .husky/pre-merge-commit", snippet: verifyCommand + "\n",
			config:     func(hook string) string { return ".husky/" + hook },
			configured: func(top, hook string) bool { return mentions(filepath.Join(top, ".husky", hook), verifyCommand) },
			install:    func(string) string { return "npx husky" }}
	}
	for _, name := range []string{"lefthook.yml", "lefthook.yaml", ".lefthook.yml", ".lefthook.yaml"} {
		if exists(filepath.Join(top, name)) {
			return &hookManager{name: "lefthook", where: name + " (then run `lefthook install`)", snippet: lefthookSnippet,
				config:     func(string) string { return name },
				configured: func(top, hook string) bool { return lefthookRuns(filepath.Join(top, name), hook) },
				install:    func(string) string { return "lefthook install" }}
		}
	}
	if exists(filepath.Join(top, ".pre-commit-config.yaml")) {
		return &hookManager{name: "pre-commit", where: ".pre-commit-config.yaml, under repos: (then run `pre-commit install --hook-type pre-commit --hook-type pre-merge-commit`)",
			snippet: "  - repo: local\n    hooks:\n      - id: context-tree-verify\n" +
				"        name: context-tree verify\n        entry: git-context-tree verify --staged\n        language: system\n" +
				"        pass_filenames: false\n        always_run: true\n" +
				// A passing hook's output (the evidence notes) is shown
				// only with verbose.
				"        verbose: true\n",
			config: func(string) string { return ".pre-commit-config.yaml" },
			// The framework runs a hook without stages in every hook type
			// it is installed for.
			configured: func(top, hook string) bool {
				return preCommitConfigured(filepath.Join(top, ".pre-commit-config.yaml"), hook)
			},
			advice: preCommitAdvice,
			twice:  func(top string) bool { return preCommitTwice(filepath.Join(top, ".pre-commit-config.yaml")) },
			install: func(hook string) string {
				if hook == "pre-commit" || hook == "pre-merge-commit" {
					return "pre-commit install --hook-type pre-commit --hook-type pre-merge-commit"
				}
				return "pre-commit install --hook-type " + hook
			}}
	}
	return nil
}

// mentions reports whether a file contains s.
func mentions(name, s string) bool {
	data, err := os.ReadFile(name)
	return err == nil && strings.Contains(string(data), s)
}

// lefthookRuns reports whether a lefthook configuration runs our check in
// the hook: its top-level section of that name mentions the command.
func lefthookRuns(name, hook string) bool {
	data, err := os.ReadFile(name)
	if err != nil {
		return false
	}
	var cfg map[string]any
	if yaml.Unmarshal(data, &cfg) != nil {
		return false
	}
	section, ok := cfg[hook]
	if !ok {
		return false
	}
	out, err := yaml.Marshal(section)
	return err == nil && strings.Contains(string(out), verifyCommand)
}

func exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}
