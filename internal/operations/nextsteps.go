package operations

import (
	"path/filepath"
	"strings"

	"github.com/git-context-tree/git-context-tree/internal/tree"
)

// DisplayPath is a path as the user types it from the command's directory,
// for the commands a result suggests running next.
func DisplayPath(env Env, p string) string {
	if rel, err := filepath.Rel(tree.RealPath(env.Dir), p); err == nil {
		return rel
	}
	return p
}

// ShellWord quotes a path for a POSIX shell when it needs it, for the
// commands a result suggests running next.
func ShellWord(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./-+@%:,=") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
