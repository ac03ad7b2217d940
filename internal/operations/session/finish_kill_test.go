package session

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/adapters/git"
	"github.com/git-context-tree/git-context-tree/internal/adapters/state"
	"github.com/git-context-tree/git-context-tree/internal/operations"
	"github.com/git-context-tree/git-context-tree/internal/testutil/fakegithub"
)

// finishHelperVar makes the test binary a one-shot `write finish` process
// (see TestMain).
const finishHelperVar = "GCT_TEST_FINISH_HELPER"

func TestMain(m *testing.M) {
	if spec := os.Getenv(finishHelperVar); spec != "" {
		os.Exit(runFinishHelper(spec))
	}
	if spec := os.Getenv(stepHelperVar); spec != "" {
		os.Exit(runStepHelper(spec))
	}
	os.Exit(m.Run())
}

// runFinishHelper finishes "<state-dir>|<project-dir>|<session-id>|<publish>"
// and exits.
func runFinishHelper(spec string) int {
	parts := strings.Split(spec, "|")
	if len(parts) != 4 {
		fmt.Fprintln(os.Stderr, "bad helper spec", spec)
		return 2
	}
	env := killEnv(parts[0], parts[1])
	if _, err := Finish(context.Background(), env, FinishRequest{ID: parts[2], Message: "Killed finish", Publish: parts[3] == "1", Keep: true}); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// directorySession opens a write session on the directory tree docs/ctx
// (killRoot, killArea) of a new committed project in base, with extra
// files beside it.
func directorySession(t *testing.T, ctx context.Context, base string, extra map[string]string) (operations.Env, *contracts.Session) {
	t.Helper()
	proj := filepath.Join(base, "proj")
	for name, content := range extra {
		writeKillFile(t, filepath.Join(proj, name), content)
	}
	writeKillFile(t, filepath.Join(proj, "docs/ctx/NODE.md"), killRoot)
	writeKillFile(t, filepath.Join(proj, "docs/ctx/area/NODE.md"), killArea)
	runGit(t, proj, "init", "-q")
	env := killEnv(filepath.Join(base, "state"), proj)
	if _, err := operations.Connect(ctx, env, operations.ConnectRequest{Target: "docs/ctx"}); err != nil {
		t.Fatal(err)
	}
	runGit(t, proj, "add", "-A")
	runGit(t, proj, "commit", "-q", "-m", "init")
	res, err := Prepare(ctx, env, "")
	if err != nil {
		t.Fatal(err)
	}
	return env, res.Session
}

// gitSourceSession opens a write session on acme/handbook's docs (main,
// already published to gh), declared in a new project and synced.
func gitSourceSession(t *testing.T, ctx context.Context) (operations.Env, *contracts.Session) {
	t.Helper()
	env := handbookProject(t, ctx, t.TempDir())
	res, err := Prepare(ctx, env, "")
	if err != nil {
		t.Fatal(err)
	}
	return env, res.Session
}

// handbookProject is a new project under base (its state beside it) that
// declares acme/handbook's docs (main, already published) and has synced.
func handbookProject(t *testing.T, ctx context.Context, base string) operations.Env {
	t.Helper()
	proj := filepath.Join(base, "proj")
	if err := os.MkdirAll(proj, 0o755); err != nil {
		t.Fatal(err)
	}
	runGit(t, proj, "init", "-q")
	env := killEnv(filepath.Join(base, "state"), proj)
	if _, err := operations.Connect(ctx, env, operations.ConnectRequest{Target: "acme/handbook", Ref: "main", Path: "docs"}); err != nil {
		t.Fatal(err)
	}
	if _, err := operations.Sync(ctx, env, nil, false); err != nil {
		t.Fatal(err)
	}
	return env
}

func killEnv(stateRoot, dir string) operations.Env {
	return operations.Env{Dir: dir, Vars: os.Environ(), Git: git.New(os.Environ()), Home: &state.Home{Root: stateRoot}, LockWait: 10 * time.Second}
}

const (
	killRoot = "---\nschemaVersion: 1\ntitle: Handbook\n---\n\nThe handbook.\n"
	killArea = "---\ntitle: Area\n---\n\nThe area.\n"
)

// killEdit is the valid edit iteration i makes inside the tree. Its size
// grows with i, so it never has the size of the file it replaces (the
// previous iteration's edit, for --publish): an edit of the same size made
// within the second of prepare is TestFinishSeesSameSizeEdit's case.
func killEdit(i int, token uint64) string {
	return fmt.Sprintf("---\ntitle: Area %d\n---\n\nEdit %d, token %016x.%s\n", i, i, token, strings.Repeat(" More.", i))
}

// killRuns is how many runs a kill loop makes (the first run of each
// kind is never killed).
func killRuns() int { return 50 }

// skipKillLoopShort skips a kill loop under -short: the loops are most of
// what the README's test command would spend beyond its budget, and CI's
// "long loops" step runs them in full. The windows they found have
// deterministic tests of their own (TestFinishAfterKilledRefUpdate,
// TestFinishSettlesKilledSessionIndex, and in internal/sources
// TestPublishKilledAfterLandingConverges).
func skipKillLoopShort(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("a kill -9 loop: run without -short (CI's long-loops step does)")
	}
}

// TestKilledFinishConverges kills `write finish` of a directory source's
// session (a tree in a git checkout) with SIGKILL, process group and all,
// at random points, 50 times (5 under -short); TestKilledPublishConverges
// does the same for `write finish --publish` of a git source's session,
// with a local bare repository standing in for GitHub. Each iteration
// prepares a session, makes a valid edit, runs finish in a helper process
// (the first run is not killed: it times a finish) and checks the state
// the kill left:
//
//   - the session record is readable, and its state agrees with the
//     session branch of the home repository (the checkout's repository,
//     or the cache), which is the base or exactly one commit on the base
//     that changes only the edited file, to the edit;
//   - the edit is still on disk in the session;
//   - abort refuses the edited session (SESSION_NOT_EMPTY) and removes
//     nothing;
//   - the project configuration is unchanged; the checkout's HEAD is
//     unchanged and it is clean; the cache keeps its origin; no repository
//     has replace refs and the checkout's repository passes fsck;
//   - with --publish, upstream main is the base or the session's commit.
//
// Then finish runs again and must converge: committed (published), with
// the commit the killed run made if it made one, that commit alone on the
// base, the session repository on it with nothing pending, upstream main
// on it, and the cache passing fsck (after an offline sync if a killed
// snapshot build left a record, which sync removes). Every fifth iteration
// also fscks the session repository and finishes once more, which must
// report the same commit.
func TestKilledFinishConverges(t *testing.T) {
	skipKillLoopShort(t)
	fakegithub.New(t) // a private HOME and git identity; no GitHub needed
	ctx := context.Background()
	base := t.TempDir()
	proj := filepath.Join(base, "proj")
	for name, content := range map[string]string{
		"README.md":               "The project.\n",
		"docs/ctx/NODE.md":        killRoot,
		"docs/ctx/area/NODE.md":   killArea,
		"docs/ctx/guide/NODE.md":  "---\ntitle: Guide\n---\n\nThe guide.\n",
		"docs/ctx/guide/setup.md": "---\ntitle: Setup\n---\n\nSetup.\n",
	} {
		writeKillFile(t, filepath.Join(proj, name), content)
	}
	runGit(t, proj, "init", "-q")
	env := killEnv(filepath.Join(base, "state"), proj)
	if _, err := operations.Connect(ctx, env, operations.ConnectRequest{Target: "docs/ctx"}); err != nil {
		t.Fatal(err)
	}
	runGit(t, proj, "add", "-A")
	runGit(t, proj, "commit", "-q", "-m", "init")
	k := &killLoop{t: t, env: env, subtree: "docs/ctx", checkout: proj, rng: rand.New(rand.NewPCG(11, 7))}
	k.config = readKillFile(t, filepath.Join(env.Dir, contracts.ConfigFile))
	k.checkoutHead = runGit(t, proj, "rev-parse", "HEAD")
	k.run(killRuns())
}

// TestKilledPublishConverges is the --publish loop (see
// TestKilledFinishConverges).
func TestKilledPublishConverges(t *testing.T) {
	skipKillLoopShort(t)
	gh := fakegithub.New(t)
	ctx := context.Background()
	gh.Publish("acme/handbook", "main", map[string]string{
		"README.md":            "The repository.\n",
		"docs/NODE.md":         killRoot,
		"docs/area/NODE.md":    killArea,
		"docs/guide/NODE.md":   "---\ntitle: Guide\n---\n\nThe guide.\n",
		"team/NODE.md":         "---\nschemaVersion: 1\ntitle: Team\n---\n\nThe team.\n",
		"docs/guide/setup.md":  "---\ntitle: Setup\n---\n\nSetup.\n",
		"docs/area/history.md": "---\ntitle: History\n---\n\nHistory.\n",
	})
	env := handbookProject(t, ctx, t.TempDir())
	k := &killLoop{t: t, env: env, subtree: "docs", publish: true, upstream: gh.Bare("acme/handbook"),
		rng: rand.New(rand.NewPCG(23, 5))}
	k.config = readKillFile(t, filepath.Join(env.Dir, contracts.ConfigFile))
	k.run(killRuns())
}

// TestFinishSeesSameSizeEdit: an edit that keeps a file's size, made within
// the second in which prepare checked the file out, must be committed by a
// finish run in a later second (and so must keep abort from removing the
// session). Git trusts an index entry whose size and whole-second mtime and
// ctime match the file unless the entry is "racily clean" (as new as the
// index file itself); finish stages through a fresh copy of the session's
// private index, whose file is newer than the checkout, so git skips such a
// file and the edit is not seen. The --publish kill loop found this (its
// edits used to keep the size): finish reported the edited session
// unchanged, abort then removed it with the edit, and a finish killed after
// committing could not adopt its own commit (SESSION_MOVED).
func TestFinishSeesSameSizeEdit(t *testing.T) {
	fakegithub.New(t) // a private HOME and git identity
	ctx := context.Background()
	base := t.TempDir()
	proj := filepath.Join(base, "proj")
	writeKillFile(t, filepath.Join(proj, "docs/ctx/NODE.md"), killRoot)
	writeKillFile(t, filepath.Join(proj, "docs/ctx/area/NODE.md"), "---\ntitle: Area\n---\n\nAAAA.\n")
	runGit(t, proj, "init", "-q")
	env := killEnv(filepath.Join(base, "state"), proj)
	if _, err := operations.Connect(ctx, env, operations.ConnectRequest{Target: "docs/ctx"}); err != nil {
		t.Fatal(err)
	}
	runGit(t, proj, "add", "-A")
	runGit(t, proj, "commit", "-q", "-m", "init")
	const edit = "---\ntitle: Area\n---\n\nBBBB.\n" // the same size
	var s *contracts.Session
	for try := 0; s == nil; try++ {
		// Start at the beginning of a second, so that prepare and the
		// edit happen within it.
		time.Sleep(time.Until(time.Now().Truncate(time.Second).Add(time.Second)))
		second := time.Now().Unix()
		res, err := Prepare(ctx, env, "")
		if err != nil {
			t.Fatal(err)
		}
		writeKillFile(t, filepath.Join(res.Session.ContentRoot, "area", "NODE.md"), edit)
		if time.Now().Unix() == second {
			s = res.Session
		} else if try == 3 {
			t.Skip("prepare and the edit never fit in one second")
		}
	}
	time.Sleep(time.Until(time.Now().Truncate(time.Second).Add(time.Second + 50*time.Millisecond)))
	res, err := Finish(ctx, env, FinishRequest{ID: s.ID})
	if err != nil {
		t.Fatal(err)
	}
	if res.Result != contracts.ResultCommitted {
		t.Fatalf("finish of a session whose edit kept the file's size: %s, want committed (the edit is %q on disk)",
			res.Result, readKillFile(t, filepath.Join(s.ContentRoot, "area", "NODE.md")))
	}
	out, err := env.Git.InRepo(ctx, s.Repository.CommonDir, "cat-file", "blob", res.Commit+":docs/ctx/area/NODE.md")
	if err != nil || string(out) != edit {
		t.Fatalf("the commit holds %q (%v), want the edit", out, err)
	}
}

// TestFinishAfterKilledRefUpdate: a finish killed while git update-ref
// held the lock of the session branch (or of its keep ref, moved in the
// same transaction; the update kill loop found that one) leaves
// <ref>.lock behind, in the home repository (commitSession) or in the
// session repository
// (settleSessionRepo), where the branch is HEAD's, so HEAD.lock too. The
// kill loops left all three, and every later finish failed with "cannot
// lock ref ... File exists" while abort refused the edited or committed
// session. Only the tool writes the session branch and finish holds the
// session lock, so the next finish must still complete the session.
func TestFinishAfterKilledRefUpdate(t *testing.T) {
	for _, where := range []string{"home", "keep", "session", "session-HEAD"} {
		t.Run(where, func(t *testing.T) {
			fakegithub.New(t) // a private HOME and git identity
			ctx := context.Background()
			env, s := directorySession(t, ctx, t.TempDir(), nil)
			edit := killEdit(1, 1)
			writeKillFile(t, filepath.Join(s.ContentRoot, "area", "NODE.md"), edit)
			gitDir := s.Repository.CommonDir
			lock := filepath.FromSlash(homeRef(s)) + ".lock"
			if where == "keep" {
				// The keep ref moves in the branch's transaction.
				lock = filepath.FromSlash(keepRef(s)) + ".lock"
			}
			if where != "home" && where != "keep" {
				// The state of a finish killed in settleSessionRepo's
				// update-ref: committed and recorded, the session
				// repository's branch still at the base.
				if _, err := Finish(ctx, env, FinishRequest{ID: s.ID}); err != nil {
					t.Fatal(err)
				}
				gitDir = sessionGitDir(s)
				runGit(t, s.Worktree, "update-ref", homeRef(s), s.Base)
			}
			// What the killed update-ref left: its lock, created, not yet
			// renamed into place.
			if where == "session-HEAD" {
				lock = "HEAD.lock"
			}
			// A run killed a while ago: no git can still be finishing it.
			writeKillFile(t, filepath.Join(gitDir, lock), "")
			old := time.Now().Add(-time.Minute)
			if err := os.Chtimes(filepath.Join(gitDir, lock), old, old); err != nil {
				t.Fatal(err)
			}
			fr, err := Finish(ctx, env, FinishRequest{ID: s.ID})
			if err != nil {
				t.Fatalf("finish after a kill that left %s in %s: %v", lock, gitDir, err)
			}
			out, err := env.Git.InRepo(ctx, s.Repository.CommonDir, "cat-file", "blob", fr.Commit+":docs/ctx/area/NODE.md")
			if fr.Result != contracts.ResultCommitted || err != nil || string(out) != edit {
				t.Fatalf("finish: %s %s, holding %q (%v); want the edit committed", fr.Result, fr.Commit, out, err)
			}
		})
	}
}

// TestFinishSettlesKilledSessionIndex: a finish killed in
// settleSessionRepo after it moved the session repository's branch to the
// commit but before it installed the committed index leaves that
// repository's index at the base, so `git status` in the session shows the
// edit as a staged revert plus an unstaged change. The directory kill loop
// left this; the next finish reported the session committed but did not
// settle it, although finish promises a session with no pending change.
func TestFinishSettlesKilledSessionIndex(t *testing.T) {
	fakegithub.New(t) // a private HOME and git identity
	ctx := context.Background()
	base := t.TempDir()
	proj := filepath.Join(base, "proj")
	writeKillFile(t, filepath.Join(proj, "docs/ctx/NODE.md"), killRoot)
	writeKillFile(t, filepath.Join(proj, "docs/ctx/area/NODE.md"), killArea)
	runGit(t, proj, "init", "-q")
	env := killEnv(filepath.Join(base, "state"), proj)
	if _, err := operations.Connect(ctx, env, operations.ConnectRequest{Target: "docs/ctx"}); err != nil {
		t.Fatal(err)
	}
	runGit(t, proj, "add", "-A")
	runGit(t, proj, "commit", "-q", "-m", "init")
	res, err := Prepare(ctx, env, "")
	if err != nil {
		t.Fatal(err)
	}
	s := res.Session
	writeKillFile(t, filepath.Join(s.ContentRoot, "area", "NODE.md"), killEdit(1, 1))
	index := filepath.Join(sessionGitDir(s), "index")
	baseIndex := readKillFile(t, index)
	first, err := Finish(ctx, env, FinishRequest{ID: s.ID})
	if err != nil {
		t.Fatal(err)
	}
	writeKillFile(t, index, baseIndex) // the index the kill left
	again, err := Finish(ctx, env, FinishRequest{ID: s.ID})
	if err != nil || again.Commit != first.Commit {
		t.Fatalf("finish again: %v, %+v; want commit %s", err, again, first.Commit)
	}
	if st := runGit(t, s.Worktree, "status", "--porcelain"); st != "" {
		t.Fatalf("the finished session shows pending changes:\n%s", st)
	}
}

// killLoop is one kill -9 loop over finish.
type killLoop struct {
	t        *testing.T
	env      operations.Env
	subtree  string
	publish  bool
	upstream string // the bare repository standing in for GitHub (--publish)
	config   string // the project configuration, which must never change
	// checkout and checkoutHead: the directory source's checkout, whose
	// HEAD finish never moves.
	checkout, checkoutHead string
	rng                    *rand.Rand
	groupWait              time.Duration // spent in awaitGroup
}

func (k *killLoop) run(n int) {
	t := k.t
	ctx := context.Background()
	var span time.Duration // how long an uninterrupted finish takes
	var lastCommit string
	outcomes := map[string]int{}
	for i := range n {
		res, err := Prepare(ctx, k.env, "")
		if err != nil {
			t.Fatalf("iteration %d: prepare: %v", i, err)
		}
		s := res.Session
		if k.publish && lastCommit != "" && s.Base != lastCommit {
			t.Fatalf("iteration %d: the session's base %s is not the commit published last, %s", i, s.Base, lastCommit)
		}
		if !k.publish && s.Base != k.checkoutHead {
			t.Fatalf("iteration %d: the session's base %s is not the checkout's HEAD %s", i, s.Base, k.checkoutHead)
		}
		edit := killEdit(i, k.rng.Uint64())
		writeKillFile(t, filepath.Join(s.ContentRoot, "area", "NODE.md"), edit)

		cmd := exec.Command(os.Args[0], "-test.run=^$")
		publish := "0"
		if k.publish {
			publish = "1"
		}
		cmd.Env = append(os.Environ(), finishHelperVar+"="+k.env.Home.Root+"|"+k.env.Dir+"|"+s.ID+"|"+publish)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		// Its own process group, so the kill takes its git children too.
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		start := time.Now()
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		var delay time.Duration
		if i == 0 {
			// The first run is not killed: it measures how long a finish
			// takes, and the kills are spread over 1.25 times that.
			cmd.Wait()
			span = max(time.Since(start), 20*time.Millisecond)
			t.Logf("an uninterrupted finish (publish=%v) takes %v", k.publish, span)
		} else {
			delay = time.Duration(k.rng.Float64() * 1.25 * float64(span))
			time.Sleep(delay)
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			cmd.Wait()
			k.awaitGroup(cmd.Process.Pid, outcomes)
		}
		if k.publish {
			// The kill took the fake GitHub's receive-pack too, which
			// GitHub's would survive: the locks it left (main's, and
			// HEAD's, which names main) are not finish's to clear.
			for _, lock := range []string{"refs/heads/main.lock", "HEAD.lock"} {
				if os.Remove(filepath.Join(k.upstream, filepath.FromSlash(lock))) == nil {
					outcomes["(upstream "+lock+" of the killed receive-pack removed)"]++
				}
			}
		}
		what := fmt.Sprintf("iteration %d (session %s, kill after %v, helper %v)", i, s.ID, delay.Round(time.Microsecond), cmd.ProcessState)
		if st, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok && st.Exited() && st.ExitStatus() != 0 {
			t.Fatalf("%s: finish failed before it was killed: %s", what, stderr.String())
		}
		after, tip := k.checkKilled(what, s, edit, cmd.ProcessState.Success())
		outcomes[after]++
		lastCommit = k.checkConverges(what, s, edit, tip, i%5 == 0)
		if k.publish {
			k.checkCache(what, s.Repository.CommonDir, outcomes)
		}
	}
	t.Logf("%d runs, state after the kill: %v; waited %v for killed groups", n, outcomes, k.groupWait)
}

// awaitGroup waits until no live process of the killed process group is
// left: a git child killed inside a system call (a rename, say) dies only
// when the call returns, which can be after the helper itself has been
// reaped. The fake GitHub's receive-pack is one of them (GitHub's would
// survive the client, and not race with the next push).
func (k *killLoop) awaitGroup(pgid int, outcomes map[string]int) {
	start := time.Now()
	defer func() { k.groupWait += time.Since(start) }()
	for waited := false; groupAlive(pgid); waited = true {
		if !waited {
			outcomes["(waited for the killed group's last processes)"]++
		}
		if time.Since(start) > 10*time.Second {
			k.t.Fatalf("processes of the killed group %d are still alive after 10 s", pgid)
		}
		time.Sleep(time.Millisecond)
	}
}

// groupAlive reports whether a process of group pgid is alive. Killed
// children orphaned by the helper stay zombies until init reaps them,
// which can take seconds; zombies do nothing, so /proc is read to skip
// them. Without /proc (not Linux) zombies and the living cannot be told
// apart, and nothing is waited for.
func groupAlive(pgid int) bool {
	if syscall.Kill(-pgid, 0) != nil {
		return false
	}
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return false
	}
	for _, e := range entries {
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid pgrp ...
		fields := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
		if len(fields) > 2 && fields[2] == strconv.Itoa(pgid) && fields[0] != "Z" {
			return true
		}
	}
	return false
}

// checkKilled checks the state a killed finish left; it returns that state
// in words and the tip of the session's branch in the home repository.
func (k *killLoop) checkKilled(what string, prepared *contracts.Session, edit string, finished bool) (string, string) {
	t := k.t
	ctx := context.Background()
	s, err := loadSession(k.env, prepared.ID)
	if err != nil {
		t.Fatalf("%s: the session record is unreadable after the kill: %v", what, err)
	}
	tip := k.checkHome(what, s, edit, true)
	after := s.State
	switch s.State {
	case contracts.SessionOpen:
		if s.Commit != "" {
			t.Fatalf("%s: an open session records commit %s", what, s.Commit)
		}
		if finished {
			t.Fatalf("%s: finish exited successfully but left the edited session open at its base (it saw no change)", what)
		}
		if tip != s.Base {
			after = "open, commit made but not recorded"
		}
	case contracts.SessionCommitted, contracts.SessionPublished:
		if s.Commit != tip {
			t.Fatalf("%s: the session records commit %s but its branch is at %s", what, s.Commit, tip)
		}
	default:
		t.Fatalf("%s: unknown session state %q", what, s.State)
	}
	if finished && k.publish && s.State != contracts.SessionPublished {
		t.Fatalf("%s: finish --publish exited successfully but left the session %s", what, s.State)
	}
	// No edit is lost: it is still on disk, and committed if a commit
	// exists (checkHome).
	if got := readKillFile(t, filepath.Join(s.ContentRoot, "area", "NODE.md")); got != edit {
		t.Fatalf("%s: the edit on disk changed to %q", what, got)
	}
	if k.publish {
		up := k.upstreamTip(what)
		switch {
		case up == s.Base:
			if s.State == contracts.SessionPublished {
				t.Fatalf("%s: the session is recorded published but upstream is still at its base", what)
			}
		case up == tip:
			if s.State != contracts.SessionPublished {
				after += ", pushed but not recorded"
			}
		default:
			t.Fatalf("%s: upstream main is at %s, neither the base %s nor the session's commit %s", what, up, s.Base, tip)
		}
	}
	// Abort never drops an edited or committed session.
	ares, err := Abort(ctx, k.env, s.ID)
	var ce *contracts.Error
	if !errors.As(err, &ce) || ce.Code != contracts.CodeSessionNotEmpty {
		t.Fatalf("%s: abort of the edited session (state %s, branch at %s) returned %+v, %v; want SESSION_NOT_EMPTY", what, s.State, tip, ares, err)
	}
	if _, err := loadSession(k.env, s.ID); err != nil {
		t.Fatalf("%s: abort removed the session record: %v", what, err)
	}
	if got := readKillFile(t, filepath.Join(s.ContentRoot, "area", "NODE.md")); got != edit {
		t.Fatalf("%s: abort changed the edit on disk to %q", what, got)
	}
	if again, err := k.env.Git.ResolveCommit(ctx, s.Repository.CommonDir, homeRef(s)); err != nil || again != tip {
		t.Fatalf("%s: abort moved the session branch from %s to %s (%v)", what, tip, again, err)
	}
	return after, tip
}

// checkConverges runs finish again and checks it completes the session with
// exactly one commit on the base holding the edit (killedTip if the killed
// run had made it). With thorough it also checks the session repository
// and that finishing once more reports the same commit. It returns the
// commit.
func (k *killLoop) checkConverges(what string, prepared *contracts.Session, edit, killedTip string, thorough bool) string {
	t := k.t
	ctx := context.Background()
	res, err := Finish(ctx, k.env, FinishRequest{ID: prepared.ID, Message: "Recovered finish", Publish: k.publish, Keep: true})
	if err != nil {
		t.Fatalf("%s: finish after the kill does not converge: %v", what, err)
	}
	want := contracts.ResultCommitted
	if k.publish {
		want = contracts.ResultPublished
	}
	if res.Result != want || res.Commit == "" {
		t.Fatalf("%s: finish after the kill: result %q, commit %q; want %s", what, res.Result, res.Commit, want)
	}
	if killedTip != prepared.Base && res.Commit != killedTip {
		t.Fatalf("%s: the killed finish made %s but finish again reports %s", what, killedTip, res.Commit)
	}
	s, err := loadSession(k.env, prepared.ID)
	if err != nil {
		t.Fatal(err)
	}
	if s.State != want || s.Commit != res.Commit {
		t.Fatalf("%s: after finish the session is %s at %q, want %s at %s", what, s.State, s.Commit, want, res.Commit)
	}
	if tip := k.checkHome(what+", after finish", s, edit, false); tip != res.Commit {
		t.Fatalf("%s: after finish the session branch is at %s, not at the reported commit %s", what, tip, res.Commit)
	}
	// The session repository is settled on the commit with nothing pending.
	sessionGit := sessionGitDir(s)
	head, ref, err := git.ReadHead(sessionGit)
	if err != nil || head != res.Commit || ref != "refs/heads/"+s.Branch {
		t.Fatalf("%s: the session repository is on %s at %s (%v), want %s at %s", what, ref, head, err, s.Branch, res.Commit)
	}
	if out := k.gitIn(what, s.Worktree, "status", "--porcelain", "--untracked-files=all"); out != "" {
		// Nothing is lost (the commit and the files are right), but
		// finish promises a settled session; go on with the loop.
		t.Errorf("%s: the finished session shows pending changes in its own git status (its index is not the commit's):\n%s", what, out)
	}
	if k.publish {
		if up := k.upstreamTip(what); up != res.Commit {
			t.Fatalf("%s: after finish --publish upstream main is at %s, not at %s", what, up, res.Commit)
		}
	}
	if thorough {
		k.mustCheckRepo(what, sessionGit)
		// Once more: a finished session reports the same commit.
		again, err := Finish(ctx, k.env, FinishRequest{ID: prepared.ID, Publish: k.publish, Keep: true})
		if err != nil || again.Commit != res.Commit || again.Result != want {
			t.Fatalf("%s: finishing the finished session again: %v, %+v", what, err, again)
		}
	}
	return res.Commit
}

// checkHome checks the home repository (the checkout's, or the git
// source's cache), the project and, for a directory source, the checkout;
// it returns the tip of the session branch in the home repository, which
// must be the base or one commit on it holding the edit and nothing else.
// With fsck it also checks a checkout's repository (a cache: checkCache).
func (k *killLoop) checkHome(what string, s *contracts.Session, edit string, fsck bool) string {
	t := k.t
	ctx := context.Background()
	home := s.Repository.CommonDir
	tip, err := k.env.Git.ResolveCommit(ctx, home, homeRef(s))
	if err != nil || tip == "" {
		t.Fatalf("%s: the session branch %s is gone from %s (%v)", what, s.Branch, home, err)
	}
	if tip != s.Base {
		parents, err := k.env.Git.CommitParents(ctx, home, tip)
		if err != nil || len(parents) != 1 || parents[0] != s.Base {
			t.Fatalf("%s: the session's commit %s has parents %v (%v), want only the base %s", what, tip, parents, err, s.Base)
		}
		if got := k.gitRepo(what, home, "cat-file", "blob", tip+":"+k.subtree+"/area/NODE.md"); got != strings.TrimSuffix(edit, "\n") {
			t.Fatalf("%s: the session's commit %s holds %q, not the edit %q", what, tip, got, edit)
		}
		if changed := k.gitRepo(what, home, "diff-tree", "-r", "--name-only", "--no-commit-id", s.Base, tip); changed != k.subtree+"/area/NODE.md" {
			t.Fatalf("%s: the session's commit changes %q, want only the edit", what, changed)
		}
	}
	if fsck && !k.publish {
		k.mustCheckRepo(what, home)
	}
	if got := readKillFile(t, filepath.Join(k.env.Dir, contracts.ConfigFile)); got != k.config {
		t.Fatalf("%s: the project configuration changed:\n%s", what, got)
	}
	if k.publish {
		url, ok, err := k.env.Git.ConfigGet(ctx, home, "remote.origin.url")
		if err != nil || !ok || url != s.Repository.Origin {
			t.Fatalf("%s: the cache's origin is %q (%v, %v), want %s", what, url, ok, err, s.Repository.Origin)
		}
	} else {
		if head := k.gitIn(what, k.checkout, "rev-parse", "HEAD"); head != k.checkoutHead {
			t.Fatalf("%s: the checkout's HEAD moved to %s", what, head)
		}
		if st := k.gitIn(what, k.checkout, "status", "--porcelain", "--untracked-files=all", "--ignored"); st != "" {
			t.Fatalf("%s: the checkout is no longer clean:\n%s", what, st)
		}
	}
	return tip
}

// checkRepo checks a repository has no replace refs and that `git fsck
// --connectivity-only` passes; it returns fsck's error, for the caller to
// judge.
func (k *killLoop) checkRepo(what, gitDir string) error {
	if refs := k.gitRepo(what, gitDir, "for-each-ref", "refs/replace/"); refs != "" {
		k.t.Fatalf("%s: %s has replace refs:\n%s", what, gitDir, refs)
	}
	_, err := k.env.Git.InRepo(context.Background(), gitDir, "fsck", "--connectivity-only", "--no-progress")
	return err
}

// mustCheckRepo is checkRepo, failing the test if fsck fails.
func (k *killLoop) mustCheckRepo(what, gitDir string) {
	if err := k.checkRepo(what, gitDir); err != nil {
		k.t.Fatalf("%s: %s fails fsck: %v", what, gitDir, err)
	}
}

// checkCache checks the git source's cache after finish has converged. A
// snapshot build killed inside finish --publish (the published commit's
// snapshot) leaves a worktree record in the cache that fails fsck until the
// next sync removes it (see sources.removeLeftoverWorktrees): the cache
// must pass fsck, if need be after an offline sync.
func (k *killLoop) checkCache(what, cache string, outcomes map[string]int) {
	if k.checkRepo(what, cache) == nil {
		return
	}
	if _, err := operations.Sync(context.Background(), k.env, nil, true); err != nil {
		k.t.Fatalf("%s: offline sync: %v", what, err)
	}
	outcomes["(cache failed fsck until an offline sync)"]++
	k.mustCheckRepo(what+", after an offline sync", cache)
}

func (k *killLoop) upstreamTip(what string) string {
	return k.gitRepo(what, k.upstream, "rev-parse", "--verify", "refs/heads/main^{commit}")
}

// gitIn runs git in dir through the adapter (no replace objects, hooks or
// inherited repository variables) and returns its trimmed output.
func (k *killLoop) gitIn(what, dir string, args ...string) string {
	k.t.Helper()
	out, err := k.env.Git.Run(context.Background(), git.Isolated, dir, args...)
	if err != nil {
		k.t.Fatalf("%s: git %v in %s: %v", what, args, dir, err)
	}
	return strings.TrimSpace(string(out))
}

// gitRepo runs git against the repository whose git directory is gitDir.
func (k *killLoop) gitRepo(what, gitDir string, args ...string) string {
	k.t.Helper()
	out, err := k.env.Git.InRepo(context.Background(), gitDir, args...)
	if err != nil {
		k.t.Fatalf("%s: git %v in %s: %v", what, args, gitDir, err)
	}
	return strings.TrimSpace(string(out))
}

func runGit(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

func writeKillFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readKillFile(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}
