package operations

import (
	"os"
	"path/filepath"
	"strings"
)

// hookManager is a hook manager the user already runs. With one in use,
// installing our own shim would fight it, so install prints the line to add
// to its configuration instead.
type hookManager struct {
	name    string
	config  string // the file the user edits, repository-relative
	snippet string
}

// verifyCommand is what every integration runs.
const verifyCommand = "git context-tree verify --staged"

// detectManager finds husky (core.hooksPath in .husky), lefthook (a
// lefthook config) or the pre-commit framework (.pre-commit-config.yaml).
func detectManager(top, hooksPath string) *hookManager {
	if hooksPath == ".husky" || strings.HasPrefix(filepath.ToSlash(hooksPath), ".husky/") {
		return &hookManager{name: "husky", config: ".husky/pre-commit", snippet: verifyCommand + "\n"}
	}
	for _, name := range []string{"lefthook.yml", "lefthook.yaml", ".lefthook.yml", ".lefthook.yaml"} {
		if exists(filepath.Join(top, name)) {
			return &hookManager{name: "lefthook", config: name, snippet: "pre-commit:\n  commands:\n    context-tree:\n      run: " + verifyCommand + "\n"}
		}
	}
	if exists(filepath.Join(top, ".pre-commit-config.yaml")) {
		return &hookManager{name: "pre-commit", config: ".pre-commit-config.yaml", snippet: "  - repo: local\n    hooks:\n      - id: context-tree-verify\n" +
			"        name: context-tree verify\n        entry: git-context-tree verify --staged\n        language: system\n" +
			"        pass_filenames: false\n        always_run: true\n"}
	}
	return nil
}

// configured reports whether the manager's configuration runs our check.
func (m *hookManager) configured(top string) bool {
	data, err := os.ReadFile(filepath.Join(top, m.config))
	return err == nil && (strings.Contains(string(data), "context-tree verify --staged") || strings.Contains(string(data), "context-tree-verify"))
}

func exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}
