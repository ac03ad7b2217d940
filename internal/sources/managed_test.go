package sources

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/adapters/git"
	"github.com/git-context-tree/git-context-tree/internal/adapters/state"
	"github.com/git-context-tree/git-context-tree/internal/testutil/fakegithub"
)

const validRoot = "---\nschemaVersion: 1\ntitle: T\n---\n\nBody.\n"

func newManaged(t *testing.T) *Managed {
	return &Managed{Home: &state.Home{Root: filepath.Join(t.TempDir(), "state")}, Git: git.New(os.Environ()), LockWait: time.Second}
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
	gh := fakegithub.New(t)
	c1 := gh.Publish("acme/handbook", "main", map[string]string{"docs/NODE.md": validRoot, "team/NODE.md": validRoot})
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
	if url := gh.Git(s1.Cache, "config", "--get", "remote.origin.url"); url != "https://github.com/acme/handbook.git" {
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
	marker, _ := os.Stat(s1.Path + ".index")
	again, err := m.Sync(ctx, gitConn("acme/handbook", "main", "docs"), false)
	if err != nil || again.Path != s1.Path {
		t.Fatalf("repeated sync: %+v, %v", again, err)
	}
	if now, _ := os.Stat(s1.Path + ".index"); !now.ModTime().Equal(marker.ModTime()) {
		t.Errorf("an unchanged snapshot was rebuilt")
	}
	// Upstream advance: a new snapshot, the old one intact.
	c2 := gh.Publish("acme/handbook", "main", map[string]string{"docs/more.md": "---\ntitle: M\n---\n"})
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
	gh := fakegithub.New(t)
	gh.Publish("acme/x", "main", map[string]string{"NODE.md": validRoot})
	m := newManaged(t)
	conn := gitConn("acme/x", "main", ".")
	s, err := m.Sync(ctx, conn, false)
	if err != nil {
		t.Fatal(err)
	}
	tamper := map[string]func(){
		"edited file":       func() { os.WriteFile(filepath.Join(s.Path, "NODE.md"), []byte("changed"), 0o644) },
		"extra file":        func() { os.WriteFile(filepath.Join(s.Path, "extra.md"), []byte("x"), 0o644) },
		"a .git made in it": func() { gh.Git(s.Path, "init", "-q") },
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

// A snapshot is a plain checkout: git run inside it finds no repository,
// and a cache ref moved behind the tool's back (by git run in an earlier
// version's snapshot, or through a session's commondir) is never read:
// every reader and an offline sync say CACHE_TAMPERED until an online
// sync fetches the branch again.
func TestSnapshotsReachNoRepositoryAndMovedRefsAreRefused(t *testing.T) {
	ctx := context.Background()
	gh := fakegithub.New(t)
	c1 := gh.Publish("acme/x", "main", map[string]string{"NODE.md": validRoot})
	m := newManaged(t)
	conn := gitConn("acme/x", "main", ".")
	s, err := m.Sync(ctx, conn, false)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(filepath.Join(s.Path, ".git")); !os.IsNotExist(err) {
		t.Fatalf("snapshot has a .git: %v", err)
	}
	cmd := exec.Command("git", "rev-parse", "--git-dir")
	cmd.Dir = s.Path
	cmd.Env = append(os.Environ(), "GIT_CEILING_DIRECTORIES="+filepath.Dir(m.Home.Path()))
	if out, err := cmd.CombinedOutput(); err == nil {
		t.Fatalf("git in a snapshot found a repository: %s", out)
	}

	cache := m.Home.Path("repos", "acme", "x.git")
	planted := gh.Git(cache, "commit-tree", "-p", c1, "-m", "planted", c1+"^{tree}")
	gh.Git(cache, "update-ref", "refs/remotes/origin/main", planted)
	_, err = m.Current(ctx, conn)
	wantCode(t, err, contracts.CodeCacheTampered)
	_, err = m.Sync(ctx, conn, true)
	wantCode(t, err, contracts.CodeCacheTampered)
	_, err = m.Tip(ctx, "acme/x", "main")
	wantCode(t, err, contracts.CodeCacheTampered)

	again, err := m.Sync(ctx, conn, false)
	if err != nil || again.Commit != c1 {
		t.Fatalf("online sync after a moved ref: %+v, %v", again, err)
	}
	if cur, err := m.Current(ctx, conn); err != nil || cur.Commit != c1 {
		t.Fatalf("Current after the online sync: %+v, %v", cur, err)
	}
}

func TestSyncRejections(t *testing.T) {
	ctx := context.Background()
	gh := fakegithub.New(t)
	gh.Publish("acme/x", "main", map[string]string{"NODE.md": validRoot, "file.md": "---\ntitle: F\n---\n"})
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
	gh.Git(cache, "config", "remote.origin.url", "https://github.com/evil/x.git")
	_, err = m.Sync(ctx, gitConn("acme/x", "main", "."), false)
	wantCode(t, err, contracts.CodeOriginMismatch)
}

func TestSyncRejectsNestedRepositories(t *testing.T) {
	ctx := context.Background()
	gh := fakegithub.New(t)
	sub := gh.Publish("acme/sub", "main", map[string]string{"NODE.md": validRoot})
	work := gh.WorkDir("nested")
	gh.Git(work, "init", "-q")
	os.MkdirAll(filepath.Join(work, "docs"), 0o755)
	os.WriteFile(filepath.Join(work, "docs", "NODE.md"), []byte(validRoot), 0o644)
	gh.Git(work, "update-index", "--add", "--cacheinfo", "160000,"+sub+",docs/vendor")
	gh.Git(work, "update-index", "--add", "--cacheinfo", "160000,"+sub+",owned")
	gh.Git(work, "add", "docs/NODE.md")
	gh.Git(work, "commit", "-q", "-m", "gitlinks")
	bare := gh.Bare("acme/nested")
	gh.Git(work, "push", "-q", bare, "HEAD:refs/heads/main")

	m := newManaged(t)
	_, err := m.Sync(ctx, gitConn("acme/nested", "main", "docs"), false)
	wantCode(t, err, contracts.CodeNestedRepo)
	_, err = m.Sync(ctx, gitConn("acme/nested", "main", "owned"), false)
	wantCode(t, err, contracts.CodeNestedRepo)
}
