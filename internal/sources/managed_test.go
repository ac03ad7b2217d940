package sources

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/adapters/git"
	"github.com/git-context-tree/git-context-tree/internal/adapters/state"
)

// fakeGitHub is a directory of bare repositories that git reaches for
// https://github.com/ through url.<file-url>.insteadOf, in a private HOME.
type fakeGitHub struct {
	t    *testing.T
	root string // holds <owner>/<repo>.git
	work string
}

func newFakeGitHub(t *testing.T) *fakeGitHub {
	base := t.TempDir()
	home := filepath.Join(base, "home")
	os.MkdirAll(home, 0o755)
	gh := &fakeGitHub{t: t, root: filepath.Join(base, "github"), work: filepath.Join(base, "work")}
	cfg := "[user]\n\tname = T\n\temail = t@example.com\n[init]\n\tdefaultBranch = main\n" +
		"[url \"file://" + gh.root + "/\"]\n\tinsteadOf = https://github.com/\n"
	os.WriteFile(filepath.Join(home, ".gitconfig"), []byte(cfg), 0o644)
	t.Setenv("HOME", home)
	t.Setenv("GIT_CONFIG_GLOBAL", filepath.Join(home, ".gitconfig"))
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	t.Setenv("GIT_CEILING_DIRECTORIES", base)
	return gh
}

func (gh *fakeGitHub) git(dir string, args ...string) string {
	gh.t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		gh.t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// publish creates or updates owner/repo: files written into a work clone,
// committed and pushed to branch. It returns the new commit.
func (gh *fakeGitHub) publish(repo, branch string, files map[string]string) string {
	gh.t.Helper()
	bare := filepath.Join(gh.root, repo+".git")
	work := filepath.Join(gh.work, repo, branch)
	if _, err := os.Stat(bare); err != nil {
		os.MkdirAll(bare, 0o755)
		gh.git(bare, "init", "-q", "--bare")
	}
	if _, err := os.Stat(work); err != nil {
		os.MkdirAll(work, 0o755)
		gh.git(work, "init", "-q")
		gh.git(work, "checkout", "-q", "-b", branch)
	}
	for name, content := range files {
		p := filepath.Join(work, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			gh.t.Fatal(err)
		}
	}
	gh.git(work, "add", "-A")
	gh.git(work, "commit", "-q", "-m", "update", "--allow-empty")
	gh.git(work, "push", "-q", "-f", bare, "HEAD:refs/heads/"+branch)
	return gh.git(work, "rev-parse", "HEAD")
}

const validRoot = "---\nschemaVersion: 1\ntitle: T\n---\n\nBody.\n"

func newManaged(t *testing.T) *Managed {
	return &Managed{Home: &state.Home{Root: filepath.Join(t.TempDir(), "state")}, Git: git.New(), LockWait: time.Second}
}

func gitConn(repo, branch, subtree string) Connection {
	return NewConnection("/", contracts.Source{Kind: contracts.SourceGit, Repository: repo, Path: subtree, Ref: branch})
}

func wantCode(t *testing.T, err error, code contracts.ErrorCode) {
	t.Helper()
	var ce *contracts.Error
	if !errors.As(err, &ce) || ce.Code != code {
		t.Fatalf("err = %v, want %s", err, code)
	}
}

func TestSyncCachesAndSnapshots(t *testing.T) {
	ctx := context.Background()
	gh := newFakeGitHub(t)
	c1 := gh.publish("acme/handbook", "main", map[string]string{"docs/NODE.md": validRoot, "team/NODE.md": validRoot})
	m := newManaged(t)

	if _, err := m.Sync(ctx, gitConn("acme/handbook", "main", "docs"), true); err != nil {
		wantCode(t, err, contracts.CodeCacheMissing)
	} else {
		t.Fatal("offline sync without a cache succeeded")
	}
	if _, err := m.Current(ctx, gitConn("acme/handbook", "main", "docs")); err == nil {
		t.Fatal("Current before any sync succeeded")
	} else {
		wantCode(t, err, contracts.CodeNotSynced)
	}

	s1, err := m.Sync(ctx, gitConn("Acme/Handbook", "main", "docs"), false)
	if err != nil {
		t.Fatal(err)
	}
	if s1.Commit != c1 || s1.Path != m.Home.Path("snapshots", "acme", "handbook", c1) || s1.TreeRoot != filepath.Join(s1.Path, "docs") {
		t.Fatalf("snapshot %+v", s1)
	}
	if url := gh.git(s1.Cache, "config", "--get", "remote.origin.url"); url != "https://github.com/acme/handbook.git" {
		t.Errorf("stored origin %q: insteadOf must not change the stored identity", url)
	}
	// A second subtree of the same repository shares the cache and snapshot.
	s2, err := m.Sync(ctx, gitConn("acme/handbook", "main", "team"), true)
	if err != nil || s2.Cache != s1.Cache || s2.Path != s1.Path {
		t.Fatalf("second subtree: %+v, %v", s2, err)
	}
	repos, _ := os.ReadDir(m.Home.Path("repos", "acme"))
	if len(repos) != 1 {
		t.Errorf("%d entries in repos/acme, want one cache", len(repos))
	}
	// Repeated sync: same snapshot path, nothing rebuilt.
	marker, _ := os.Stat(filepath.Join(s1.Path, ".git"))
	again, err := m.Sync(ctx, gitConn("acme/handbook", "main", "docs"), false)
	if err != nil || again.Path != s1.Path {
		t.Fatalf("repeated sync: %+v, %v", again, err)
	}
	if now, _ := os.Stat(filepath.Join(s1.Path, ".git")); !now.ModTime().Equal(marker.ModTime()) {
		t.Errorf("an unchanged snapshot was rebuilt")
	}
	// Upstream advance: a new snapshot, the old one intact.
	c2 := gh.publish("acme/handbook", "main", map[string]string{"docs/more.md": "---\ntitle: M\n---\n"})
	s3, err := m.Sync(ctx, gitConn("acme/handbook", "main", "docs"), false)
	if err != nil || s3.Commit != c2 || s3.Path == s1.Path {
		t.Fatalf("after upstream advance: %+v, %v", s3, err)
	}
	if _, err := os.Stat(filepath.Join(s1.Path, "docs", "NODE.md")); err != nil {
		t.Errorf("old snapshot damaged: %v", err)
	}
	cur, err := m.Current(ctx, gitConn("acme/handbook", "main", "docs"))
	if err != nil || cur.Commit != c2 {
		t.Errorf("Current = %+v, %v", cur, err)
	}
}

func TestSyncRebuildsTamperedSnapshots(t *testing.T) {
	ctx := context.Background()
	gh := newFakeGitHub(t)
	gh.publish("acme/x", "main", map[string]string{"NODE.md": validRoot})
	m := newManaged(t)
	conn := gitConn("acme/x", "main", ".")
	s, err := m.Sync(ctx, conn, false)
	if err != nil {
		t.Fatal(err)
	}
	tamper := map[string]func(){
		"edited file": func() { os.WriteFile(filepath.Join(s.Path, "NODE.md"), []byte("changed"), 0o644) },
		"extra file":  func() { os.WriteFile(filepath.Join(s.Path, "extra.md"), []byte("x"), 0o644) },
		"moved HEAD":  func() { gh.git(s.Path, "commit", "-q", "--allow-empty", "-m", "x") },
		"symlink": func() {
			target := t.TempDir()
			os.WriteFile(filepath.Join(target, "NODE.md"), []byte(validRoot), 0o644)
			os.RemoveAll(s.Path)
			os.Symlink(target, s.Path)
		},
	}
	for name, do := range tamper {
		t.Run(name, func(t *testing.T) {
			do()
			if _, err := m.Current(ctx, conn); err == nil {
				t.Fatal("tampered snapshot accepted by Current")
			}
			again, err := m.Sync(ctx, conn, true)
			if err != nil || again.Path != s.Path {
				t.Fatalf("rebuild: %+v, %v", again, err)
			}
			if fi, err := os.Lstat(s.Path); err != nil || !fi.IsDir() {
				t.Fatalf("snapshot path after rebuild: %v %v", fi, err)
			}
			if _, err := m.Current(ctx, conn); err != nil {
				t.Errorf("rebuilt snapshot: %v", err)
			}
		})
	}
}

func TestSyncRejections(t *testing.T) {
	ctx := context.Background()
	gh := newFakeGitHub(t)
	gh.publish("acme/x", "main", map[string]string{"NODE.md": validRoot, "file.md": "---\ntitle: F\n---\n"})
	m := newManaged(t)

	_, err := m.Sync(ctx, gitConn("acme/x", "nope", "."), false)
	wantCode(t, err, contracts.CodeBranchNotFound)
	_, err = m.Sync(ctx, gitConn("acme/missing", "main", "."), false)
	wantCode(t, err, contracts.CodeFetchFailed)
	if _, err := os.Lstat(m.Home.Path("repos", "acme", "missing.git")); !os.IsNotExist(err) {
		t.Errorf("a failed clone left a canonical cache: %v", err)
	}
	if left, _ := filepath.Glob(m.Home.Path("repos", "acme", ".staging-*")); len(left) > 0 {
		t.Errorf("a failed clone left %v", left)
	}
	_, err = m.Sync(ctx, gitConn("acme/x", "main", "nowhere"), false)
	wantCode(t, err, contracts.CodeSubtreeMissing)
	_, err = m.Sync(ctx, gitConn("acme/x", "main", "file.md"), false)
	wantCode(t, err, contracts.CodeNotATree)

	// A cache whose origin was changed by hand is not used.
	cache := m.Home.Path("repos", "acme", "x.git")
	gh.git(cache, "config", "remote.origin.url", "https://github.com/evil/x.git")
	_, err = m.Sync(ctx, gitConn("acme/x", "main", "."), false)
	wantCode(t, err, contracts.CodeOriginMismatch)
}

func TestSyncRejectsNestedRepositories(t *testing.T) {
	ctx := context.Background()
	gh := newFakeGitHub(t)
	sub := gh.publish("acme/sub", "main", map[string]string{"NODE.md": validRoot})
	work := filepath.Join(gh.work, "nested")
	os.MkdirAll(work, 0o755)
	gh.git(work, "init", "-q")
	os.MkdirAll(filepath.Join(work, "docs"), 0o755)
	os.WriteFile(filepath.Join(work, "docs", "NODE.md"), []byte(validRoot), 0o644)
	gh.git(work, "update-index", "--add", "--cacheinfo", "160000,"+sub+",docs/vendor")
	gh.git(work, "update-index", "--add", "--cacheinfo", "160000,"+sub+",owned")
	gh.git(work, "add", "docs/NODE.md")
	gh.git(work, "commit", "-q", "-m", "gitlinks")
	bare := filepath.Join(gh.root, "acme", "nested.git")
	os.MkdirAll(bare, 0o755)
	gh.git(bare, "init", "-q", "--bare")
	gh.git(work, "push", "-q", bare, "HEAD:refs/heads/main")

	m := newManaged(t)
	_, err := m.Sync(ctx, gitConn("acme/nested", "main", "docs"), false)
	wantCode(t, err, contracts.CodeNestedRepo)
	_, err = m.Sync(ctx, gitConn("acme/nested", "main", "owned"), false)
	wantCode(t, err, contracts.CodeNestedRepo)
}
