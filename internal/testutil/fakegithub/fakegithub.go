// Package fakegithub stands in for GitHub in tests: a directory of bare
// repositories that host git reaches for https://github.com/ through
// url.<file-url>.insteadOf, configured in a private HOME. Nothing is mocked:
// every operation is real git.
package fakegithub

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// GitHub is a set of bare repositories under Root/<owner>/<repo>.git.
type GitHub struct {
	tb   testing.TB
	Root string
	work string
}

// New creates the repositories directory and a private HOME whose git
// configuration rewrites https://github.com/ to it; it sets HOME,
// GIT_CONFIG_GLOBAL, GIT_CONFIG_NOSYSTEM and GIT_CEILING_DIRECTORIES for
// the rest of the test.
func New(tb testing.TB) *GitHub {
	base := tb.TempDir()
	home := filepath.Join(base, "home")
	if err := os.MkdirAll(home, 0o755); err != nil {
		tb.Fatal(err)
	}
	gh := &GitHub{tb: tb, Root: filepath.Join(base, "github"), work: filepath.Join(base, "work")}
	cfg := "[user]\n\tname = T\n\temail = t@example.com\n[init]\n\tdefaultBranch = main\n" +
		"[maintenance]\n\tauto = false\n[receive]\n\tautogc = false\n" + // no processes the tests do not need
		"[url \"file://" + gh.Root + "/\"]\n\tinsteadOf = https://github.com/\n"
	if err := os.WriteFile(filepath.Join(home, ".gitconfig"), []byte(cfg), 0o644); err != nil {
		tb.Fatal(err)
	}
	tb.Setenv("HOME", home)
	tb.Setenv("GIT_CONFIG_GLOBAL", filepath.Join(home, ".gitconfig"))
	tb.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	tb.Setenv("GIT_CEILING_DIRECTORIES", base)
	return gh
}

// Git runs git in dir and returns its trimmed output, failing the test on error.
func (gh *GitHub) Git(dir string, args ...string) string {
	gh.tb.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		gh.tb.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// Bare returns the bare repository of owner/repo, creating it empty.
func (gh *GitHub) Bare(repo string) string {
	gh.tb.Helper()
	bare := filepath.Join(gh.Root, repo+".git")
	if _, err := os.Stat(bare); err != nil {
		if err := os.MkdirAll(bare, 0o755); err != nil {
			gh.tb.Fatal(err)
		}
		gh.Git(bare, "init", "-q", "--bare")
	}
	return bare
}

// Publish writes files into a work clone of owner/repo's branch, commits
// and force-pushes them, and returns the new commit.
func (gh *GitHub) Publish(repo, branch string, files map[string]string) string {
	gh.tb.Helper()
	bare := gh.Bare(repo)
	work := filepath.Join(gh.work, repo, branch)
	if _, err := os.Stat(work); err != nil {
		os.MkdirAll(work, 0o755)
		gh.Git(work, "init", "-q")
		gh.Git(work, "checkout", "-q", "-b", branch)
	}
	for name, content := range files {
		p := filepath.Join(work, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			gh.tb.Fatal(err)
		}
	}
	gh.Git(work, "add", "-A")
	gh.Git(work, "commit", "-q", "-m", "update", "--allow-empty")
	gh.Git(work, "push", "-q", "-f", bare, "HEAD:refs/heads/"+branch)
	return gh.Git(work, "rev-parse", "HEAD")
}

// WorkDir is a scratch directory for building unusual histories.
func (gh *GitHub) WorkDir(name string) string {
	dir := filepath.Join(gh.work, name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		gh.tb.Fatal(err)
	}
	return dir
}
