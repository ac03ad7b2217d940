package test

// Real hook clients: commits through the pre-commit framework and lefthook,
// each running `git-context-tree verify --staged` as its configuration says
// (and pre-commit the .ctxfile check, `export ctxfile --check`, too),
// in temporary repositories with their own HOME, XDG directories, git
// configuration and PRE_COMMIT_HOME (nothing touches the network: the
// pre-commit hooks are `repo: local`, a local try-repo or a local hook
// repository, and the Go build of the `language: golang` hook runs with
// GOPROXY=off on the module cache this test's own build filled).
//
// The product is built once with `go build -o` and put first on the
// subprocesses' PATH. The clients come from GCT_PRE_COMMIT and GCT_LEFTHOOK
// (paths to the programs), else from PATH. .ci/run installs both (pre-commit
// from Debian, lefthook from the npm registry, pinned) and sets
// GCT_REQUIRE_HOOK_CLIENTS=1: then a missing client fails the test instead
// of skipping it. With -short it is skipped: .ci/run runs it in a step of
// its own.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

const (
	rcTreeConfig = `{"schemaVersion": 3, "trees": [{"kind": "directory", "path": "docs/ctx"}]}` + "\n"
	rcRoot       = "---\nschemaVersion: 1\ntitle: Project context\n---\n\nThe root.\n"
	rcGood       = "---\ntitle: Topic\ndescription: A topic.\n---\n\nGood.\n"
	rcGood2      = "---\ntitle: Topic, fixed\n---\n\nGood again.\n"
	rcGood3      = "---\ntitle: Topic, third\n---\n\nGood once more.\n"
	rcBad        = "---\ndescription: No title.\n---\n\nBroken.\n"
	// rcCiting cites src/handler.go; rcNote is the hook's evidence note
	// for a commit that changes that file alone.
	rcCiting = "---\ntitle: Handler\nsources:\n  - path: src/handler.go\n---\n\nThe handler.\n"
	rcNote   = "note: docs/ctx/handler.md cites src/handler.go, changed in this commit"
	// rcFinding is the line the hook prints for rcBad at docs/ctx/topic.md.
	rcFinding = "docs/ctx/topic.md:1: TREE_TITLE_MISSING document has no title"
)

// skipRealClientInShort skips a test of a real client (the hook clients,
// the browser, the TypeScript MCP SDK) under -short: the README's test
// command stays within its budget on a loaded laptop, and .ci/run runs
// these in a step of their own, where a missing client fails them.
func skipRealClientInShort(tb testing.TB) {
	tb.Helper()
	if testing.Short() {
		tb.Skip("a real client: skipped with -short (.ci/run runs it in its own step)")
	}
}

// hookClient finds a client program: $envVar, else name on PATH. Without
// one the test is skipped, or fails when GCT_REQUIRE_HOOK_CLIENTS=1.
func hookClient(t *testing.T, name, envVar, install string) string {
	t.Helper()
	p := os.Getenv(envVar)
	if p == "" {
		p, _ = exec.LookPath(name)
	}
	if p != "" {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	why := fmt.Sprintf("%s is not installed (set %s or put it on PATH; %s)", name, envVar, install)
	if os.Getenv("GCT_REQUIRE_HOOK_CLIENTS") == "1" {
		t.Fatalf("GCT_REQUIRE_HOOK_CLIENTS=1 but %s", why)
	}
	t.Skipf("skipping the real-client check: %s", why)
	return ""
}

// clientEnv runs programs in a private environment.
type clientEnv struct {
	t   *testing.T
	env []string
}

// dropped are inherited variables that would leak the machine's (or an
// enclosing git hook's) state into the subprocesses.
var dropped = regexp.MustCompile(`^(GIT_|HOME=|XDG_|PRE_COMMIT|LEFTHOOK|CONTEXT_TREE_HOME=|PATH=|LANG=|LC_|NO_COLOR=|GOFLAGS=)`)

// newClientEnv gives a fresh HOME, XDG directories, git configuration and
// PRE_COMMIT_HOME; pathDirs come first on PATH (the product's directory
// first of all), then the inherited PATH.
func newClientEnv(t *testing.T, pathDirs ...string) *clientEnv {
	base := t.TempDir()
	home := filepath.Join(base, "home")
	for _, d := range []string{home, filepath.Join(base, "xdg-config"), filepath.Join(base, "xdg-cache"), filepath.Join(base, "xdg-data"), filepath.Join(base, "xdg-state")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	gitconfig := filepath.Join(base, "gitconfig")
	if err := os.WriteFile(gitconfig, []byte(gitConfig), 0o644); err != nil {
		t.Fatal(err)
	}
	var env []string
	for _, kv := range os.Environ() {
		if !dropped.MatchString(kv) {
			env = append(env, kv)
		}
	}
	env = append(env,
		"PATH="+strings.Join(append(pathDirs, os.Getenv("PATH")), string(os.PathListSeparator)),
		"HOME="+home,
		"XDG_CONFIG_HOME="+filepath.Join(base, "xdg-config"),
		"XDG_CACHE_HOME="+filepath.Join(base, "xdg-cache"),
		"XDG_DATA_HOME="+filepath.Join(base, "xdg-data"),
		"XDG_STATE_HOME="+filepath.Join(base, "xdg-state"),
		"GIT_CONFIG_GLOBAL="+gitconfig,
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_CEILING_DIRECTORIES="+base,
		"PRE_COMMIT_HOME="+filepath.Join(base, "pre-commit"),
		"CONTEXT_TREE_HOME="+filepath.Join(home, ".context-tree"),
		"LANG=C.UTF-8",
		"NO_COLOR=1",
	)
	return &clientEnv{t: t, env: env}
}

func (e *clientEnv) with(kv ...string) *clientEnv {
	return &clientEnv{t: e.t, env: append(append([]string(nil), e.env...), kv...)}
}

// run runs a program in dir and returns its combined output and error.
func (e *clientEnv) run(dir, prog string, args ...string) (string, error) {
	e.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, prog, args...)
	cmd.Dir, cmd.Env = dir, e.env
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if ctx.Err() != nil {
		e.t.Fatalf("%s %s: timed out\n%s", prog, strings.Join(args, " "), out.String())
	}
	return out.String(), err
}

// stdout runs a program that has to succeed and returns its stdout alone.
func (e *clientEnv) stdout(dir, prog string, args ...string) string {
	e.t.Helper()
	cmd := exec.Command(prog, args...)
	cmd.Dir, cmd.Env = dir, e.env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		e.t.Fatalf("%s %s: %v\n%s%s", prog, strings.Join(args, " "), err, out, stderr.String())
	}
	return string(out)
}

// must runs a program that has to succeed.
func (e *clientEnv) must(dir, prog string, args ...string) string {
	e.t.Helper()
	out, err := e.run(dir, prog, args...)
	if err != nil {
		e.t.Fatalf("%s %s: %v\n%s", prog, strings.Join(args, " "), err, out)
	}
	return out
}

// exitCode runs a program and returns its exit code.
func (e *clientEnv) exitCode(dir, prog string, args ...string) (int, string) {
	e.t.Helper()
	out, err := e.run(dir, prog, args...)
	var xe *exec.ExitError
	switch {
	case err == nil:
		return 0, out
	case errors.As(err, &xe):
		return xe.ExitCode(), out
	}
	e.t.Fatalf("%s %s: %v", prog, strings.Join(args, " "), err)
	return -1, ""
}

func writeFile(t *testing.T, name, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// buildProduct is a directory holding git-context-tree, the product built
// with go build (once per test run, shared: nothing may change it).
func buildProduct(t *testing.T) string {
	t.Helper()
	dir, err := theProduct.get()
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// theProduct is the product built once per test run: linking the binary
// took seconds for each test that needs one.
var theProduct builtProduct

// builtProduct is a `go build -o` of the product in a directory of its
// own, made on first use and removed after every test ran (runTests).
type builtProduct struct {
	once sync.Once
	dir  string
	err  error
}

func (b *builtProduct) get() (string, error) {
	b.once.Do(func() {
		if b.dir, b.err = os.MkdirTemp("", "git-context-tree-test-product"); b.err != nil {
			return
		}
		cmd := exec.Command("go", "build", "-o", filepath.Join(b.dir, "git-context-tree"), "./cmd/git-context-tree")
		cmd.Dir = ".."
		if out, err := cmd.CombinedOutput(); err != nil {
			b.err = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	return b.dir, b.err
}

// remove removes the build, once no test runs.
func (b *builtProduct) remove() {
	if b.dir != "" {
		os.RemoveAll(b.dir)
	}
}

// newTreeRepo makes a repository with a valid tree declared (the
// configuration staged, as hooks status wants it, nothing committed yet)
// and the given extra files.
func newTreeRepo(t *testing.T, e *clientEnv, files map[string]string) string {
	t.Helper()
	repo := filepath.Join(t.TempDir(), "repo")
	e.must(filepath.Dir(repo), "git", "init", "-q", repo)
	writeFile(t, filepath.Join(repo, ".context-tree.json"), rcTreeConfig)
	writeFile(t, filepath.Join(repo, "docs/ctx/NODE.md"), rcRoot)
	for name, content := range files {
		writeFile(t, filepath.Join(repo, name), content)
	}
	e.must(repo, "git", "add", ".context-tree.json")
	return repo
}

// commitThroughClient makes real commits in repo, whose pre-commit hook is
// the client's, and checks each is judged on what is staged: the first
// commit of the valid tree and a valid staged document commit; an invalid
// staged document is rejected with our finding line; a fix staged while
// the work tree is broken commits; a broken version staged while the work
// tree is fixed is rejected. The work tree is never changed by the check.
// passed matches the client's output for a check that passed (pre-commit
// shows a passing hook's name only, lefthook its output).
func commitThroughClient(t *testing.T, e *clientEnv, repo string, passed *regexp.Regexp) {
	t.Helper()
	topic := filepath.Join(repo, "docs/ctx/topic.md")
	head := func() string { return strings.TrimSpace(e.must(repo, "git", "rev-parse", "HEAD")) }
	staged := func() string { return e.must(repo, "git", "show", ":docs/ctx/topic.md") }
	committed := func() string { return e.must(repo, "git", "show", "HEAD:docs/ctx/topic.md") }
	workTree := func() string {
		data, err := os.ReadFile(topic)
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}

	// The valid tree, with the client's configuration, is the first commit.
	e.must(repo, "git", "add", "-A")
	out := e.must(repo, "git", "commit", "-m", "init")
	if !passed.MatchString(out) {
		t.Errorf("first commit: the check did not report the tree:\n%s", out)
	}

	// A valid staged document commits.
	writeFile(t, topic, rcGood)
	e.must(repo, "git", "add", "docs/ctx/topic.md")
	out = e.must(repo, "git", "commit", "-m", "valid topic")
	if !passed.MatchString(out) {
		t.Errorf("valid commit: the check did not report the tree:\n%s", out)
	}

	// An invalid staged document is rejected with our finding line.
	before := head()
	writeFile(t, topic, rcBad)
	e.must(repo, "git", "add", "docs/ctx/topic.md")
	code, out := e.exitCode(repo, "git", "commit", "-m", "invalid topic")
	if code == 0 || !strings.Contains(out, rcFinding) {
		t.Errorf("invalid commit: exit %d, want non-zero with %q:\n%s", code, rcFinding, out)
	}
	if head() != before {
		t.Errorf("invalid commit: HEAD moved")
	}

	// The fix staged, the work tree broken again: the fix commits.
	writeFile(t, topic, rcGood2)
	e.must(repo, "git", "add", "docs/ctx/topic.md")
	writeFile(t, topic, rcBad)
	out = e.must(repo, "git", "commit", "-m", "fix staged")
	if !passed.MatchString(out) {
		t.Errorf("partially staged fix: the check did not pass:\n%s", out)
	}
	if got := committed(); got != rcGood2 {
		t.Errorf("partially staged fix: committed %q, want %q\n%s", got, rcGood2, out)
	}
	if got := workTree(); got != rcBad {
		t.Errorf("partially staged fix: the work tree changed to %q", got)
	}

	// A broken version staged, the work tree fixed: rejected.
	before = head()
	e.must(repo, "git", "add", "docs/ctx/topic.md")
	writeFile(t, topic, rcGood3)
	code, out = e.exitCode(repo, "git", "commit", "-m", "broken staged")
	if code == 0 || !strings.Contains(out, rcFinding) {
		t.Errorf("broken version staged: exit %d, want non-zero with %q:\n%s", code, rcFinding, out)
	}
	if head() != before {
		t.Errorf("broken version staged: HEAD moved")
	}
	if got := workTree(); got != rcGood3 {
		t.Errorf("broken version staged: the work tree changed to %q", got)
	}
	if got := staged(); got != rcBad {
		t.Errorf("broken version staged: the index changed to %q", got)
	}
}

func TestRealHookClients(t *testing.T) {
	skipRealClientInShort(t)
	product := buildProduct(t)
	// The clients run side by side: each has its own HOME, repositories
	// and caches.

	t.Run("pre-commit", func(t *testing.T) {
		t.Parallel()
		pc := hookClient(t, "pre-commit", "GCT_PRE_COMMIT", "apt-get install -y pre-commit")
		e := newClientEnv(t, product, filepath.Dir(pc))
		t.Logf("%s", strings.TrimSpace(e.must("", pc, "--version")))
		repo := newTreeRepo(t, e, map[string]string{".pre-commit-config.yaml": "repos:\n"})
		// hooks install delegates: its snippet is the configuration used.
		snippet := e.stdout(repo, "git-context-tree", "hooks", "install")
		if !strings.Contains(snippet, "repo: local") {
			t.Fatalf("hooks install printed no pre-commit snippet:\n%s", snippet)
		}
		writeFile(t, filepath.Join(repo, ".pre-commit-config.yaml"), "repos:\n"+snippet)
		install := "pre-commit install --hook-type pre-commit --hook-type pre-merge-commit"
		if code, out := e.exitCode(repo, "git-context-tree", "hooks", "status"); code != 1 || !strings.Contains(out, "run `"+install+"`") {
			t.Errorf("status before pre-commit install: exit %d, want 1 naming `%s`:\n%s", code, install, out)
		}
		// The pre-commit hook type alone leaves merges unchecked.
		e.must(repo, pc, "install")
		if code, out := e.exitCode(repo, "git-context-tree", "hooks", "status"); code != 1 || !strings.Contains(out, "so merges are not checked") {
			t.Errorf("status after a bare pre-commit install: exit %d, want 1 for merges:\n%s", code, out)
		}
		e.must(repo, pc, "install", "--hook-type", "pre-commit", "--hook-type", "pre-merge-commit")
		if code, out := e.exitCode(repo, "git-context-tree", "hooks", "status"); code != 0 || !strings.Contains(out, "(pre-commit)") {
			t.Errorf("status after pre-commit install: exit %d, want 0 through pre-commit:\n%s", code, out)
		}
		commitThroughClient(t, e, repo, regexp.MustCompile(`context-tree verify\.+Passed`))
		mergeThroughClient(t, e, repo)
		noteThroughClient(t, e, repo)
	})

	// Doctor's fix and hooks status's advice, followed through the real
	// framework, lead to one check per commit (issue 34): doctor names the
	// framework's install, not hooks install (which would only delegate
	// back); installing the framework for prepare-commit-msg with a
	// stage-less context-tree-verify is said to check every commit twice,
	// and the advice (stages and the sequencer hook) makes it once.
	t.Run("pre-commit-once", func(t *testing.T) {
		t.Parallel()
		pc := hookClient(t, "pre-commit", "GCT_PRE_COMMIT", "apt-get install -y pre-commit")
		e := newClientEnv(t, product, filepath.Dir(pc))
		repo := newTreeRepo(t, e, map[string]string{".pre-commit-config.yaml": "repos:\n"})
		snippet := e.stdout(repo, "git-context-tree", "hooks", "install")
		writeFile(t, filepath.Join(repo, ".pre-commit-config.yaml"), "repos:\n"+snippet)
		install := "pre-commit install --hook-type pre-commit --hook-type pre-merge-commit"
		if _, out := e.exitCode(repo, "git-context-tree", "doctor"); !strings.Contains(out, "fix: "+install+"\n") || strings.Contains(out, "fix: git context-tree hooks install") {
			t.Errorf("doctor before the framework is installed: want the fix %q:\n%s", install, out)
		}
		fix := strings.Fields(install)
		e.must(repo, pc, fix[1:]...)
		e.must(repo, pc, "install", "--hook-type", "prepare-commit-msg")
		if code, out := e.exitCode(repo, "git-context-tree", "hooks", "status"); code != 0 || !strings.Contains(out, "every commit is checked twice") {
			t.Errorf("status with a stage-less hook in prepare-commit-msg: exit %d, want 0 and the double-run warning:\n%s", code, out)
		}
		passed := regexp.MustCompile(`context-tree verify\.+Passed`)
		e.must(repo, "git", "add", "-A")
		if out := e.must(repo, "git", "commit", "-m", "init"); len(passed.FindAllString(out, -1)) != 2 {
			t.Errorf("a stage-less hook with prepare-commit-msg installed: want the check twice:\n%s", out)
		}
		commit, merge := "pre-commit", "pre-merge-commit"
		if v := e.must(repo, pc, "--version"); regexp.MustCompile(`pre-commit (2\.|3\.[01]\.)`).MatchString(v) {
			commit, merge = "commit", "merge-commit" // the stage names before 3.2
		}
		writeFile(t, filepath.Join(repo, ".pre-commit-config.yaml"), "repos:\n"+
			strings.Replace(snippet, "        verbose: true\n", "        verbose: true\n        stages: ["+commit+", "+merge+"]\n", 1)+
			"      - id: context-tree-verify-sequencer\n        name: context-tree verify (cherry-pick, revert, rebase)\n"+
			"        entry: git-context-tree verify --staged --hook prepare-commit-msg\n        language: system\n"+
			"        pass_filenames: false\n        always_run: true\n        stages: [prepare-commit-msg]\n")
		if code, out := e.exitCode(repo, "git-context-tree", "hooks", "status"); code != 0 || strings.Contains(out, "twice") || strings.Contains(out, "also: pre-commit is in use and .pre-commit-config.yaml does not run the check in prepare-commit-msg") {
			t.Errorf("status after the advice: exit %d, want 0, no warning, prepare-commit-msg judged:\n%s", code, out)
		}
		writeFile(t, filepath.Join(repo, "docs/ctx/topic.md"), rcGood)
		e.must(repo, "git", "add", "-A")
		if out := e.must(repo, "git", "commit", "-m", "once"); len(passed.FindAllString(out, -1)) != 1 {
			t.Errorf("after the advice: want the check once per commit:\n%s", out)
		}
		cherryPickThroughClient(t, e, repo)
	})

	t.Run("pre-commit-hooks.yaml", func(t *testing.T) {
		t.Parallel()
		pc := hookClient(t, "pre-commit", "GCT_PRE_COMMIT", "apt-get install -y pre-commit")
		e := newClientEnv(t, product, filepath.Dir(pc))
		manifest, err := os.ReadFile("../.pre-commit-hooks.yaml")
		if err != nil {
			t.Fatal(err)
		}
		e.must("..", pc, "validate-manifest", ".pre-commit-hooks.yaml")
		// The system hook, from a hook repository holding the manifest.
		hookRepo := filepath.Join(t.TempDir(), "hooks")
		e.must("", "git", "init", "-q", hookRepo)
		writeFile(t, filepath.Join(hookRepo, ".pre-commit-hooks.yaml"), string(manifest))
		e.must(hookRepo, "git", "add", "-A")
		e.must(hookRepo, "git", "commit", "-q", "-m", "hooks")
		tryRepo(t, e, pc, hookRepo, "context-tree-verify-system")
	})

	t.Run("pre-commit-hooks.yaml-ctxfile", func(t *testing.T) {
		t.Parallel()
		pc := hookClient(t, "pre-commit", "GCT_PRE_COMMIT", "apt-get install -y pre-commit")
		e := newClientEnv(t, product, filepath.Dir(pc))
		hookRepo, rev := manifestRepo(t, e)
		config := "repos:\n  - repo: " + hookRepo + "\n    rev: " + rev + "\n    hooks:\n      - id: context-tree-ctxfile-system\n"
		repo := newTreeRepo(t, e, map[string]string{".pre-commit-config.yaml": config, "docs/ctx/topic.md": rcGood})
		e.must(repo, pc, "install")
		commitThroughCtxfileHook(t, e, repo)
	})

	t.Run("pre-commit-hooks.yaml-ctxfile-refresh", func(t *testing.T) {
		t.Parallel()
		pc := hookClient(t, "pre-commit", "GCT_PRE_COMMIT", "apt-get install -y pre-commit")
		e := newClientEnv(t, product, filepath.Dir(pc))
		hookRepo, rev := manifestRepo(t, e)
		config := "repos:\n  - repo: " + hookRepo + "\n    rev: " + rev + "\n    hooks:\n      - id: context-tree-verify-system\n      - id: context-tree-ctxfile-refresh-system\n"
		repo := newTreeRepo(t, e, map[string]string{".pre-commit-config.yaml": config, "docs/ctx/topic.md": rcGood})
		e.must(repo, pc, "install")
		commitThroughRefreshHook(t, e, repo)
	})

	t.Run("pre-commit-hooks.yaml-golang", func(t *testing.T) {
		t.Parallel()
		pc := hookClient(t, "pre-commit", "GCT_PRE_COMMIT", "apt-get install -y pre-commit")
		goBin, err := exec.LookPath("go")
		if err != nil {
			t.Skip("no go on PATH")
		}
		goEnv := func(name string) string {
			out, err := exec.Command(goBin, "env", name).Output()
			if err != nil {
				t.Fatal(err)
			}
			return strings.TrimSpace(string(out))
		}
		// The hook repository is this module as the work tree has it (its
		// tracked and untracked, not ignored, files), built offline.
		hookRepo := filepath.Join(t.TempDir(), "src")
		copyWorkTree(t, "..", hookRepo)
		// Not the product on PATH: the hook must run what pre-commit built.
		e := newClientEnv(t, filepath.Dir(pc), filepath.Dir(goBin)).with(
			"GOCACHE="+goEnv("GOCACHE"), "GOMODCACHE="+goEnv("GOMODCACHE"),
			"GOPROXY=off", "GOTOOLCHAIN=local", "GOFLAGS=-mod=readonly")
		e.must(hookRepo, "git", "init", "-q")
		e.must(hookRepo, "git", "add", "-A")
		e.must(hookRepo, "git", "commit", "-q", "-m", "src")
		tryRepo(t, e, pc, hookRepo, "context-tree-verify")
	})

	t.Run("lefthook", func(t *testing.T) {
		t.Parallel()
		lh := hookClient(t, "lefthook", "GCT_LEFTHOOK", "npm install --prefix <dir> -E lefthook@2.2.1, then GCT_LEFTHOOK=<dir>/node_modules/.bin/lefthook")
		e := newClientEnv(t, product, filepath.Dir(lh)).with("LEFTHOOK_BIN=" + lh)
		t.Logf("lefthook %s", strings.TrimSpace(e.must("", lh, "version")))
		contrib, err := os.ReadFile("../contrib/lefthook/lefthook.yml")
		if err != nil {
			t.Fatal(err)
		}
		repo := newTreeRepo(t, e, map[string]string{"lefthook.yml": "# another team's hooks\npre-push:\n  commands:\n    noop:\n      run: true\n"})
		// hooks install delegates; its snippet is what contrib/ ships.
		snippet := e.stdout(repo, "git-context-tree", "hooks", "install")
		if !strings.Contains(string(contrib), snippet) {
			t.Errorf("the lefthook snippet of hooks install is not in contrib/lefthook/lefthook.yml:\n%s", snippet)
		}
		writeFile(t, filepath.Join(repo, "lefthook.yml"), string(contrib))
		if code, out := e.exitCode(repo, "git-context-tree", "hooks", "status"); code != 1 || !strings.Contains(out, "run `lefthook install`") {
			t.Errorf("status before lefthook install: exit %d, want 1 naming `lefthook install`:\n%s", code, out)
		}
		e.must(repo, lh, "install")
		if code, out := e.exitCode(repo, "git-context-tree", "hooks", "status"); code != 0 || !strings.Contains(out, "(lefthook)") {
			t.Errorf("status after lefthook install: exit %d, want 0 through lefthook:\n%s", code, out)
		}
		// The check is quiet on success: lefthook's own mark says it passed.
		commitThroughClient(t, e, repo, regexp.MustCompile(`(?m)^✓ context-tree \(`))
		mergeThroughClient(t, e, repo)
		cherryPickThroughClient(t, e, repo)
		noteThroughClient(t, e, repo)
	})
}

// commitThroughCtxfileHook commits, through pre-commit running the
// context-tree-ctxfile hook of .pre-commit-hooks.yaml, in a repository
// whose tree is exported to .ctxfile: a commit with the envelope current
// passes; a staged document change without a new envelope is rejected
// with the stale message (also when the new envelope is written but not
// staged: pre-commit checks what is staged); staging the new envelope
// commits, and so does a current envelope of profile full.
func commitThroughCtxfileHook(t *testing.T, e *clientEnv, repo string) {
	t.Helper()
	passed := regexp.MustCompile(`context-tree \.ctxfile envelope is current\.+Passed`)
	head := func() string { return strings.TrimSpace(e.must(repo, "git", "rev-parse", "HEAD")) }
	e.must(repo, "git-context-tree", "export", "ctxfile")
	e.must(repo, "git", "add", "-A")
	if out := e.must(repo, "git", "commit", "-q", "-m", "tree and envelope"); !passed.MatchString(out) {
		t.Errorf("commit with a current envelope: the hook did not pass:\n%s", out)
	}
	before := head()

	writeFile(t, filepath.Join(repo, "docs/ctx/topic.md"), rcGood2)
	e.must(repo, "git", "add", "docs/ctx/topic.md")
	stale := "is stale; run `git context-tree export ctxfile` and commit it"
	if code, out := e.exitCode(repo, "git", "commit", "-q", "-m", "topic changed"); code == 0 || !strings.Contains(out, stale) {
		t.Errorf("commit with a stale envelope: exit %d, want non-zero with %q:\n%s", code, stale, out)
	}
	e.must(repo, "git-context-tree", "export", "ctxfile")
	if code, out := e.exitCode(repo, "git", "commit", "-q", "-m", "topic changed"); code == 0 || !strings.Contains(out, stale) {
		t.Errorf("commit with the new envelope not staged: exit %d, want non-zero with %q:\n%s", code, stale, out)
	}
	if head() != before {
		t.Fatalf("a rejected commit moved HEAD")
	}
	e.must(repo, "git", "add", ".ctxfile")
	if out := e.must(repo, "git", "commit", "-q", "-m", "topic changed"); !passed.MatchString(out) {
		t.Errorf("commit with the new envelope staged: the hook did not pass:\n%s", out)
	}
	if out := e.must(repo, "git", "status", "--porcelain"); out != "" {
		t.Errorf("the hook left changes behind:\n%s", out)
	}
	// A full envelope is checked as full: the entry needs no arguments.
	e.must(repo, "git-context-tree", "export", "ctxfile", "--profile", "full")
	e.must(repo, "git", "add", ".ctxfile")
	if out := e.must(repo, "git", "commit", "-q", "-m", "full envelope"); !passed.MatchString(out) {
		t.Errorf("commit with a current full envelope: the hook did not pass:\n%s", out)
	}
}

// manifestRepo is a hook repository holding this repository's
// .pre-commit-hooks.yaml, and its commit.
func manifestRepo(t *testing.T, e *clientEnv) (repo, rev string) {
	t.Helper()
	manifest, err := os.ReadFile("../.pre-commit-hooks.yaml")
	if err != nil {
		t.Fatal(err)
	}
	repo = filepath.Join(t.TempDir(), "hooks")
	e.must("", "git", "init", "-q", repo)
	writeFile(t, filepath.Join(repo, ".pre-commit-hooks.yaml"), string(manifest))
	e.must(repo, "git", "add", "-A")
	e.must(repo, "git", "commit", "-q", "-m", "hooks")
	return repo, strings.TrimSpace(e.must(repo, "git", "rev-parse", "HEAD"))
}

// commitThroughRefreshHook commits documents through the framework's
// envelope refresh: each commit carries the envelope of its own trees, so
// export ctxfile --check passes right after it and nothing is left
// unstaged.
func commitThroughRefreshHook(t *testing.T, e *clientEnv, repo string) {
	t.Helper()
	e.must(repo, "git", "add", "-A")
	e.must(repo, "git", "commit", "-q", "-m", "tree")
	for i, content := range []string{rcGood2, rcGood} {
		writeFile(t, filepath.Join(repo, "docs/ctx/topic.md"), content)
		e.must(repo, "git", "add", "docs/ctx/topic.md")
		e.must(repo, "git", "commit", "-q", "-m", fmt.Sprintf("topic %d", i))
		if out := e.must(repo, "git", "status", "--porcelain"); out != "" {
			t.Errorf("commit %d left changes behind:\n%s", i, out)
		}
		if files := e.must(repo, "git", "show", "--name-only", "--format=", "HEAD"); !strings.Contains(files, ".ctxfile/context.json") {
			t.Errorf("commit %d does not carry the envelope:\n%s", i, files)
		}
		if code, out := e.exitCode(repo, "git-context-tree", "export", "ctxfile", "--check"); code != 0 {
			t.Errorf("after commit %d the committed envelope is stale:\n%s", i, out)
		}
	}
}

// mergeThroughClient merges, in a repository whose hooks are the
// client's, a branch that brings an invalid document (committed with
// --no-verify): the client's pre-merge-commit hook rejects the merge with
// our finding line and HEAD stays. A valid merge goes through.
func mergeThroughClient(t *testing.T, e *clientEnv, repo string) {
	t.Helper()
	head := func() string { return strings.TrimSpace(e.must(repo, "git", "rev-parse", "HEAD")) }
	e.must(repo, "git", "reset", "-q", "--hard")
	e.must(repo, "git", "checkout", "-q", "-b", "invalid-branch")
	writeFile(t, filepath.Join(repo, "docs/ctx/merged.md"), rcBad)
	e.must(repo, "git", "add", "docs/ctx/merged.md")
	e.must(repo, "git", "commit", "-q", "--no-verify", "-m", "invalid, unchecked")
	e.must(repo, "git", "checkout", "-q", "-")
	writeFile(t, filepath.Join(repo, "outside.txt"), "outside the tree\n")
	e.must(repo, "git", "add", "outside.txt")
	e.must(repo, "git", "commit", "-q", "-m", "main moves on")
	before := head()
	code, out := e.exitCode(repo, "git", "merge", "--no-edit", "invalid-branch")
	finding := "docs/ctx/merged.md:1: TREE_TITLE_MISSING document has no title"
	if code == 0 || !strings.Contains(out, finding) {
		t.Errorf("merge of an invalid branch: exit %d, want non-zero with %q:\n%s", code, finding, out)
	}
	if head() != before {
		t.Errorf("merge of an invalid branch: HEAD moved")
	}
	e.must(repo, "git", "merge", "--abort")
	e.must(repo, "git", "checkout", "-q", "-b", "valid-branch", "HEAD~1")
	writeFile(t, filepath.Join(repo, "docs/ctx/merged.md"), rcGood)
	e.must(repo, "git", "add", "docs/ctx/merged.md")
	e.must(repo, "git", "commit", "-q", "-m", "valid")
	e.must(repo, "git", "checkout", "-q", "-")
	e.must(repo, "git", "merge", "--no-edit", "valid-branch")
	if head() == before {
		t.Errorf("merge of a valid branch: HEAD did not move")
	}
}

// noteThroughClient commits, through the client's hook, a node citing
// code with its code (no note), then the code alone: the commit is made
// and the client shows the advisory evidence note.
func noteThroughClient(t *testing.T, e *clientEnv, repo string) {
	t.Helper()
	head := func() string { return strings.TrimSpace(e.must(repo, "git", "rev-parse", "HEAD")) }
	writeFile(t, filepath.Join(repo, "docs/ctx/handler.md"), rcCiting)
	writeFile(t, filepath.Join(repo, "src/handler.go"), "package src\n")
	e.must(repo, "git", "add", "docs/ctx/handler.md", "src/handler.go")
	if out := e.must(repo, "git", "commit", "-m", "node and code"); strings.Contains(out, "note:") {
		t.Errorf("a commit staging the citing node printed a note:\n%s", out)
	}
	before := head()
	writeFile(t, filepath.Join(repo, "src/handler.go"), "package src\n\n// edited\n")
	e.must(repo, "git", "add", "src/handler.go")
	if out := e.must(repo, "git", "commit", "-m", "code only"); !strings.Contains(out, rcNote) {
		t.Errorf("a code-only commit: the client did not show %q:\n%s", rcNote, out)
	}
	if head() == before {
		t.Errorf("a code-only commit with a note: HEAD did not move")
	}
}

// cherryPickThroughClient cherry-picks an invalid commit: git runs no
// pre-commit hook for it, the client's prepare-commit-msg rejects it.
func cherryPickThroughClient(t *testing.T, e *clientEnv, repo string) {
	t.Helper()
	head := func() string { return strings.TrimSpace(e.must(repo, "git", "rev-parse", "HEAD")) }
	e.must(repo, "git", "checkout", "-q", "-b", "pick-source")
	writeFile(t, filepath.Join(repo, "docs/ctx/picked.md"), rcBad)
	e.must(repo, "git", "add", "docs/ctx/picked.md")
	e.must(repo, "git", "commit", "-q", "--no-verify", "-m", "invalid, to pick")
	e.must(repo, "git", "checkout", "-q", "-")
	writeFile(t, filepath.Join(repo, "outside2.txt"), "outside the tree\n")
	e.must(repo, "git", "add", "outside2.txt")
	e.must(repo, "git", "commit", "-q", "-m", "main moves on again")
	before := head()
	code, out := e.exitCode(repo, "git", "cherry-pick", "pick-source")
	finding := "docs/ctx/picked.md:1: TREE_TITLE_MISSING document has no title"
	if code == 0 || !strings.Contains(out, finding) {
		t.Errorf("cherry-pick of an invalid commit: exit %d, want non-zero with %q:\n%s", code, finding, out)
	}
	if head() != before {
		t.Errorf("cherry-pick of an invalid commit: HEAD moved")
	}
	e.must(repo, "git", "cherry-pick", "--abort")
}

// tryRepo runs `pre-commit try-repo <hookRepo> <id>` in a tree repository:
// passing with nothing staged, passing with the evidence note shown when
// code a node cites is staged alone, failing with our finding line when an
// invalid document is staged.
func tryRepo(t *testing.T, e *clientEnv, pc, hookRepo, id string) {
	t.Helper()
	repo := newTreeRepo(t, e, nil)
	e.must(repo, "git", "add", "-A")
	e.must(repo, "git", "commit", "-q", "-m", "init")
	out := e.must(repo, pc, "try-repo", hookRepo, id, "--all-files")
	if !regexp.MustCompile(`context-tree verify\.+Passed`).MatchString(out) {
		t.Errorf("try-repo %s on a valid tree did not pass:\n%s", id, out)
	}
	writeFile(t, filepath.Join(repo, "docs/ctx/handler.md"), rcCiting)
	writeFile(t, filepath.Join(repo, "src/handler.go"), "package src\n")
	e.must(repo, "git", "add", "-A")
	e.must(repo, "git", "commit", "-q", "-m", "node and code")
	writeFile(t, filepath.Join(repo, "src/handler.go"), "package src\n\n// edited\n")
	e.must(repo, "git", "add", "src/handler.go")
	out = e.must(repo, pc, "try-repo", hookRepo, id, "--all-files")
	if !regexp.MustCompile(`context-tree verify\.+Passed`).MatchString(out) || !strings.Contains(out, rcNote) {
		t.Errorf("try-repo %s on staged cited code: want a pass showing %q:\n%s", id, rcNote, out)
	}
	writeFile(t, filepath.Join(repo, "docs/ctx/topic.md"), rcBad)
	e.must(repo, "git", "add", "docs/ctx/topic.md")
	code, out := e.exitCode(repo, pc, "try-repo", hookRepo, id, "--all-files")
	if code == 0 || !strings.Contains(out, rcFinding) {
		t.Errorf("try-repo %s on an invalid staged document: exit %d, want non-zero with %q:\n%s", id, code, rcFinding, out)
	}
}

// copyWorkTree copies the files git would show in src's work tree (tracked
// and untracked, not ignored) to dst.
func copyWorkTree(t *testing.T, src, dst string) {
	t.Helper()
	out, err := exec.Command("git", "-C", src, "ls-files", "-z", "--cached", "--others", "--exclude-standard").Output()
	if err != nil {
		t.Skipf("%s is not a git checkout: %v", src, err)
	}
	for _, name := range strings.Split(string(out), "\x00") {
		if name == "" {
			continue
		}
		from := filepath.Join(src, name)
		fi, err := os.Lstat(from)
		if err != nil || !fi.Mode().IsRegular() {
			continue // deleted in the work tree, or not a file
		}
		data, err := os.ReadFile(from)
		if err != nil {
			t.Fatal(err)
		}
		to := filepath.Join(dst, name)
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(to, data, fi.Mode().Perm()); err != nil {
			t.Fatal(err)
		}
	}
}
