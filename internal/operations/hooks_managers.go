package operations

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/git-context-tree/git-context-tree/internal/tree"
)

// hookManager is a hook manager the user already runs. With one in use,
// installing our own shim would fight it, so install prints the line to add
// to its configuration instead.
type hookManager struct {
	name    string
	config  string // the file the user edits, repository-relative
	snippet string
	install string // the command that installs the manager's git hook
}

// verifyCommand is what every integration runs.
const verifyCommand = "git context-tree verify --staged"

// detectManager finds husky (core.hooksPath in .husky, relative or
// absolute), lefthook (a lefthook config) or the pre-commit framework
// (.pre-commit-config.yaml).
func detectManager(top, hooksDir string) *hookManager {
	if _, ok := tree.Inside(filepath.Join(top, ".husky"), hooksDir); ok {
		return &hookManager{name: "husky", config: ".husky/pre-commit", snippet: verifyCommand + "\n", install: "npx husky"}
	}
	for _, name := range []string{"lefthook.yml", "lefthook.yaml", ".lefthook.yml", ".lefthook.yaml"} {
		if exists(filepath.Join(top, name)) {
			return &hookManager{name: "lefthook", config: name, snippet: "pre-commit:\n  commands:\n    context-tree:\n      run: " + verifyCommand + "\n", install: "lefthook install"}
		}
	}
	if exists(filepath.Join(top, ".pre-commit-config.yaml")) {
		return &hookManager{name: "pre-commit", config: ".pre-commit-config.yaml", snippet: "  - repo: local\n    hooks:\n      - id: context-tree-verify\n" +
			"        name: context-tree verify\n        entry: git-context-tree verify --staged\n        language: system\n" +
			"        pass_filenames: false\n        always_run: true\n", install: "pre-commit install"}
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
