// Package annotations turns verify and drift reports into what code
// review shows: GitHub Actions workflow commands (annotations on the
// lines of a pull request) and SARIF 2.1.0 logs (code scanning and every
// SARIF viewer). Paths are made relative to the repository root; a
// location outside the repository (a git source's snapshot, code of
// another repository) is left out rather than pointed somewhere wrong.
package annotations

import (
	"path/filepath"

	"github.com/git-context-tree/git-context-tree/internal/tree"
)

// Formats the commands print besides text and JSON.
const (
	GitHub = "github"
	SARIF  = "sarif"
)

// Levels of an annotation, shared by both formats.
const (
	levelError   = "error"
	levelWarning = "warning"
	levelNote    = "note"
)

// Location is a place in the repository: a repository-relative path
// ("/"-separated) and lines (0: none).
type Location struct {
	Path               string
	StartLine, EndLine int
}

// Annotation is one result: the rule (a finding code or drift status),
// its level, the message and where it applies (Where nil: the repository
// as a whole). Related are other places it concerns.
type Annotation struct {
	Rule    string
	Level   string
	Title   string
	Message string
	Where   *Location
	Related []Location
}

// repoPath is file (absolute) relative to the repository root top, false
// when it lies outside it.
func repoPath(top, file string) (string, bool) {
	if top == "" {
		return "", false
	}
	rel, ok := tree.Inside(top, file)
	if !ok || rel == "." {
		return "", false
	}
	return filepath.ToSlash(rel), true
}
