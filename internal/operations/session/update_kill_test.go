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
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/operations"
	"github.com/git-context-tree/git-context-tree/internal/testutil/fakegithub"
)

// stepHelperVar makes the test binary a one-shot `write update --continue`
// or `write prune` process (see TestMain).
const stepHelperVar = "GCT_TEST_STEP_HELPER"

// runStepHelper runs "<state-dir>|<project-dir>|<session-id>|<step>" and
// exits; step is "continue" or "prune".
func runStepHelper(spec string) int {
	parts := strings.Split(spec, "|")
	if len(parts) != 4 {
		fmt.Fprintln(os.Stderr, "bad helper spec", spec)
		return 2
	}
	env := killEnv(parts[0], parts[1])
	var err error
	switch parts[3] {
	case "continue":
		_, err = Update(context.Background(), env, UpdateRequest{ID: parts[2], Continue: true})
	case "prune":
		_, err = Prune(context.Background(), env, PruneRequest{})
	default:
		err = errors.New("unknown step " + parts[3])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// TestKilledUpdateAndPruneLoseNothing kills `write update --continue` and
// `write prune` with SIGKILL, process group and all, at random points, 50
// times (5 under -short; the first run of each step is not killed, and
// measures how long one takes). Each iteration makes a committed session
// whose publication is refused because upstream changed the same file,
// updates it into a conflict, resolves the conflict by editing the file
// only, and runs the step in a helper process that is killed. Afterwards
// no edit is lost: the resolved file is as written, the session is still
// known, running --continue again (when the update is still recorded)
// completes it, and finish --publish publishes exactly the resolved file.
func TestKilledUpdateAndPruneLoseNothing(t *testing.T) {
	skipKillLoopShort(t)
	gh := fakegithub.New(t)
	ctx := context.Background()
	gh.Publish("acme/handbook", "main", map[string]string{"docs/NODE.md": killRoot, "docs/area/NODE.md": killArea})
	env := handbookProject(t, ctx, t.TempDir())
	rng := rand.New(rand.NewPCG(29, 7))
	span := map[string]time.Duration{}
	outcomes := map[string]int{}
	for i := range killRuns() {
		s, resolved := conflictedUpdate(t, ctx, env, gh, i, rng)
		step := []string{"continue", "prune"}[i%2]
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), stepHelperVar+"="+env.Home.Root+"|"+env.Dir+"|"+s.ID+"|"+step)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		start := time.Now()
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		if _, measured := span[step]; !measured {
			cmd.Wait()
			span[step] = max(time.Since(start), 20*time.Millisecond)
		} else {
			time.Sleep(time.Duration(rng.Float64() * 1.25 * float64(span[step])))
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			cmd.Wait()
			for waited := time.Now(); groupAlive(cmd.Process.Pid); time.Sleep(time.Millisecond) {
				if time.Since(waited) > 10*time.Second {
					t.Fatalf("iteration %d: the killed %s's processes are still alive after 10 s", i, step)
				}
			}
		}
		what := fmt.Sprintf("iteration %d (%s, helper %v)", i, step, cmd.ProcessState)
		if st, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok && st.Exited() && st.ExitStatus() != 0 {
			t.Fatalf("%s failed before it was killed: %s", what, stderr.String())
		}
		area := filepath.Join(s.ContentRoot, "area", "NODE.md")
		if got := readKillFile(t, area); got != resolved {
			t.Fatalf("%s: the resolved file changed:\n%s\nwant\n%s", what, got, resolved)
		}
		after, err := loadSession(env, s.ID)
		if err != nil {
			t.Fatalf("%s: the session is gone: %v", what, err)
		}
		if after.Update != nil {
			outcomes[step+": update still recorded"]++
			if _, err := Update(ctx, env, UpdateRequest{ID: s.ID, Continue: true}); err != nil {
				t.Fatalf("%s: --continue after the kill: %v", what, err)
			}
		} else {
			outcomes[step+": update completed"]++
		}
		if got := readKillFile(t, area); got != resolved {
			t.Fatalf("%s: --continue changed the resolved file:\n%s", what, got)
		}
		res, err := Finish(ctx, env, FinishRequest{ID: s.ID, Publish: true})
		if err != nil || res.Result != contracts.ResultPublished {
			t.Fatalf("%s: finish --publish after the kill: %+v, %v", what, res, err)
		}
		if got := gh.Git(gh.Bare("acme/handbook"), "show", "main:docs/area/NODE.md"); got != strings.TrimSpace(resolved) {
			t.Fatalf("%s: published %q, want the resolved file", what, got)
		}
	}
	t.Logf("%d runs: %v", killRuns(), outcomes)
}

// conflictedUpdate makes a committed session whose publication upstream's
// change of the same file refuses, updates it into a conflict and resolves
// the conflict by writing the file; it returns the session and the file.
func conflictedUpdate(t *testing.T, ctx context.Context, env operations.Env, gh *fakegithub.GitHub, i int, rng *rand.Rand) (*contracts.Session, string) {
	t.Helper()
	prep, err := Prepare(ctx, env, "")
	if err != nil {
		t.Fatalf("iteration %d: prepare: %v", i, err)
	}
	s := prep.Session
	area := filepath.Join(s.ContentRoot, "area", "NODE.md")
	writeKillFile(t, area, killEdit(i, rng.Uint64()))
	if _, err := Finish(ctx, env, FinishRequest{ID: s.ID, Message: "Mine"}); err != nil {
		t.Fatalf("iteration %d: finish: %v", i, err)
	}
	gh.Publish("acme/handbook", "main", map[string]string{"docs/area/NODE.md": killEdit(1000+i, rng.Uint64())})
	var ce *contracts.Error
	if _, err := Finish(ctx, env, FinishRequest{ID: s.ID, Publish: true}); !errors.As(err, &ce) || ce.Code != contracts.CodePublishRejected {
		t.Fatalf("iteration %d: publish over upstream's change: %v", i, err)
	}
	if _, err := Update(ctx, env, UpdateRequest{ID: s.ID}); !errors.As(err, &ce) || ce.Code != contracts.CodeUpdateConflict {
		t.Fatalf("iteration %d: update: %v, want UPDATE_CONFLICT", i, err)
	}
	resolved := killEdit(2000+i, rng.Uint64())
	writeKillFile(t, area, resolved)
	return s, resolved
}
