// Package gitrepo makes small git repositories for tests: a directory
// whose files are one commit, as a git source's snapshot is (its .git
// serving as the snapshot's cache).
package gitrepo

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Commit writes files (repository path -> content) into a new repository
// and commits them all, returning the repository's directory and the
// commit. The host's and user's git configuration are not read.
func Commit(t testing.TB, files map[string]string) (dir, commit string) {
	t.Helper()
	dir = t.TempDir()
	for name, content := range files {
		Write(t, dir, name, content)
	}
	Git(t, dir, "init", "-q")
	Git(t, dir, "add", "-A")
	Git(t, dir, "commit", "-q", "-m", "files")
	return dir, Git(t, dir, "rev-parse", "HEAD")
}

// Write writes content to the file at name (a "/" path) below dir,
// making its directories; it keeps the file's inode when the file exists.
func Write(t testing.TB, dir, name, content string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Git runs git in dir and returns its trimmed output.
func Git(t testing.TB, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=T", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=T", "GIT_COMMITTER_EMAIL=t@example.com")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}
