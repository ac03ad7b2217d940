package exports

import (
	"context"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/adapters/git"
	"github.com/git-context-tree/git-context-tree/internal/adapters/state"
	"github.com/git-context-tree/git-context-tree/internal/operations"
)

// Serve answers on loopback, refuses another Host, rebuilds after a
// change, and returns nil with its directory removed when its context ends.
func TestServeRebuildsAndStops(t *testing.T) {
	dir := t.TempDir()
	root := filepath.Join(dir, "tree")
	writeTestFile(t, filepath.Join(root, "NODE.md"), "---\nschemaVersion: 1\ntitle: First title\n---\nBody.\n")
	t.Setenv("CONTEXT_TREE_HOME", filepath.Join(dir, "home"))
	t.Setenv("TMPDIR", filepath.Join(dir, "tmp"))
	if err := os.MkdirAll(filepath.Join(dir, "tmp"), 0o755); err != nil {
		t.Fatal(err)
	}
	home, err := state.Locate(os.Environ(), "")
	if err != nil {
		t.Fatal(err)
	}
	env := operations.Env{Dir: dir, Vars: os.Environ(), Git: git.New(os.Environ()), Home: home}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	url, rebuilt, done := startServe(t, ctx, env, root)
	if !strings.HasPrefix(url, "http://127.0.0.1:") {
		t.Fatalf("url %q is not on loopback", url)
	}
	if body := get(t, url+"index.html"); !strings.Contains(body, "<h1>First title</h1>") {
		t.Fatalf("index.html:\n%s", body)
	}
	if code := status(t, url, "attacker.example"); code != http.StatusMisdirectedRequest {
		t.Errorf("a request for another host got %d", code)
	}
	writeTestFile(t, filepath.Join(root, "NODE.md"), "---\nschemaVersion: 1\ntitle: Second title\n---\nBody.\n")
	if err := <-rebuilt; err != nil {
		t.Fatalf("rebuild: %v", err)
	}
	if body := get(t, url+"index.html"); !strings.Contains(body, "<h1>Second title</h1>") {
		t.Fatalf("index.html after the rebuild:\n%s", body)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("Serve returned %v", err)
	}
	left, _ := filepath.Glob(filepath.Join(dir, "tmp", "git-context-tree-serve-*"))
	if len(left) > 0 {
		t.Errorf("left behind: %q", left)
	}
}

// startServe runs Serve on root, polling every 10 ms, until ctx ends; it
// returns once the site is served, with its URL, each rebuild's error and
// Serve's result.
func startServe(t *testing.T, ctx context.Context, env operations.Env, root string) (url string, rebuilt, done chan error) {
	t.Helper()
	ready := make(chan contracts.ServeResult, 1)
	rebuilt, done = make(chan error, 16), make(chan error, 1)
	go func() {
		done <- Serve(ctx, env, ServeRequest{
			Selector: root, Interval: 10 * time.Millisecond,
			Ready:   func(r contracts.ServeResult) { ready <- r },
			Rebuilt: func(_ int, err error) { rebuilt <- err },
		})
	}()
	select {
	case r := <-ready:
		return r.URL, rebuilt, done
	case err := <-done:
		t.Fatalf("Serve ended before serving: %v", err)
	}
	return "", nil, nil
}

func writeTestFile(t *testing.T, name, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func get(t *testing.T, url string) string {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func status(t *testing.T, url, host string) int {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Host = host
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// A stop that comes before the first build is served (a signal while git
// runs) is a stop, not a git failure: Serve returns nil, serves nothing and
// leaves no directory.
func TestServeStoppedBeforeServing(t *testing.T) {
	dir := t.TempDir()
	if out, err := exec.Command("git", "init", "-q", dir).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	root := filepath.Join(dir, "tree")
	writeTestFile(t, filepath.Join(root, "NODE.md"), "---\nschemaVersion: 1\ntitle: Tree\n---\nBody.\n")
	tmp := filepath.Join(dir, "tmp")
	t.Setenv("TMPDIR", tmp)
	if err := os.MkdirAll(tmp, 0o755); err != nil {
		t.Fatal(err)
	}
	env := operations.Env{Dir: dir, Vars: os.Environ(), Git: git.New(os.Environ()), Home: &state.Home{Root: filepath.Join(dir, "home")}}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err := Serve(ctx, env, ServeRequest{Selector: root, Ready: func(contracts.ServeResult) { t.Error("served after the stop") }})
	if err != nil {
		t.Fatalf("Serve after a stop: %v", err)
	}
	if left, _ := os.ReadDir(tmp); len(left) != 0 {
		t.Errorf("left behind: %v", left)
	}
}

// A commit that changes no file of the tree still rebuilds the site: its
// footer names the commit and the state.
func TestServeRebuildsOnACommit(t *testing.T) {
	dir := t.TempDir()
	gitIn := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=T", "-c", "user.email=t@example.com"}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	gitIn("init", "-q")
	root := filepath.Join(dir, "tree")
	writeTestFile(t, filepath.Join(root, "NODE.md"), "---\nschemaVersion: 1\ntitle: Tree\n---\nBody.\n")
	tmp := filepath.Join(dir, "tmp")
	t.Setenv("TMPDIR", tmp)
	if err := os.MkdirAll(tmp, 0o755); err != nil {
		t.Fatal(err)
	}
	gitIn("add", "tree")
	gitIn("commit", "-q", "-m", "first")
	env := operations.Env{Dir: dir, Vars: os.Environ(), Git: git.New(os.Environ()), Home: &state.Home{Root: filepath.Join(dir, "home")}}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	url, rebuilt, done := startServe(t, ctx, env, root)
	// An empty commit: no file of the tree changes, HEAD does.
	gitIn("commit", "-q", "--allow-empty", "-m", "second")
	out, err := exec.Command("git", "-C", dir, "rev-parse", "--short=12", "HEAD").Output()
	if err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-rebuilt:
		if err != nil {
			t.Fatalf("rebuild: %v", err)
		}
	case <-time.After(time.Minute): // a generous limit: it turns a hang into a failure
		t.Fatal("no rebuild a minute after a commit")
	}
	if body := get(t, url+"index.html"); !strings.Contains(body, strings.TrimSpace(string(out))) {
		t.Errorf("the footer does not name the new commit %s:\n%s", out, body)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("Serve returned %v", err)
	}
}
