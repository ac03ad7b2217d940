package evals

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/adapters/agent"
	"github.com/git-context-tree/git-context-tree/internal/adapters/git"
	"github.com/git-context-tree/git-context-tree/internal/eval"
	"github.com/git-context-tree/git-context-tree/internal/operations"
	"github.com/git-context-tree/git-context-tree/internal/redact"
	"github.com/git-context-tree/git-context-tree/internal/sources"
)

// RunRequest is `eval run`. With Resume, the run's recorded settings are
// used and only the answers it lacks are made.
type RunRequest struct {
	Set          string
	AgentCommand string
	Label        string
	TraceFormat  string
	In           string // snapshot or fresh
	Repeat, Jobs int
	Timeout      time.Duration
	Resume       string
	// Progress, when set, is told of each answer as it is recorded.
	Progress func(done, total int, a contracts.EvalAnswer)
}

// maxOutput bounds what is kept of an agent's stdout and of its stderr.
const maxOutput = 8 << 20

var labelPattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,39}$`) })

// Run runs the agent command once per question and repetition, the
// question on stdin, and records each answer as it ends.
func Run(ctx context.Context, env operations.Env, req RunRequest) (*contracts.EvalRun, error) {
	s, err := openSet(ctx, env, req.Set)
	if err != nil {
		return nil, err
	}
	if err := checkFrozen(s); err != nil {
		return nil, err
	}
	m, dir, err := startRun(ctx, env, s, req)
	if err != nil {
		return nil, err
	}
	args, err := agent.CommandLine("", m.AgentCommand, env.Vars, env.Dir)
	if err != nil {
		return nil, err
	}
	have, _, err := loadRun(env, m.ID)
	if err != nil {
		return nil, err
	}
	done := map[string]bool{}
	for _, a := range have.Answers {
		done[answerKey(a.Question, a.Repetition)] = true
	}
	type job struct {
		q   contracts.EvalQuestion
		rep int
	}
	var jobs []job
	for _, q := range s.set.Question {
		for rep := 1; rep <= m.Repeat; rep++ {
			if !done[answerKey(q.ID, rep)] {
				jobs = append(jobs, job{q, rep})
			}
		}
	}
	workDir, cleanup, err := prepareWork(ctx, env, m, dir)
	if err != nil {
		return nil, err
	}
	defer cleanup()
	total, finished := len(s.set.Question)*m.Repeat, len(done)
	var mu sync.Mutex
	var firstErr error
	queue := make(chan job)
	var wg sync.WaitGroup
	for range max(1, m.Jobs) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range queue {
				a, err := answer(ctx, env, args, m, workDir, j.q, j.rep)
				mu.Lock()
				if err != nil && firstErr == nil {
					firstErr = err
				}
				if err == nil {
					finished++
					if req.Progress != nil {
						req.Progress(finished, total, a)
					}
				}
				mu.Unlock()
			}
		}()
	}
	for _, j := range jobs {
		if ctx.Err() != nil {
			break
		}
		queue <- j
	}
	close(queue)
	wg.Wait()
	if firstErr != nil {
		return nil, firstErr
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	now := time.Now().UTC()
	m.Finished = &now
	if err := writeJSON(env.Home, dir, manifestName, m); err != nil {
		return nil, err
	}
	out, _, err := loadRun(env, m.ID)
	return out, err
}

// startRun makes a new run's manifest, or reads the resumed one.
func startRun(ctx context.Context, env operations.Env, s *loadedSet, req RunRequest) (*contracts.EvalRun, string, error) {
	if req.Resume != "" {
		id, err := resolveRun(env, req.Resume)
		if err != nil {
			return nil, "", err
		}
		m, dir, err := loadRun(env, id)
		if err != nil {
			return nil, "", err
		}
		if m.Set.Digest != s.Digest {
			return nil, "", contracts.Errorf(contracts.CodeEvalSetChanged, "run %s used %s %s; the set is now %s: start a new run", id, m.Set.File, m.Set.Digest, s.Digest)
		}
		if req.AgentCommand != "" && req.AgentCommand != m.AgentCommand || req.Label != "" && req.Label != m.Label {
			return nil, "", contracts.Errorf(contracts.CodeUsage, "--resume continues run %s with its own agent command and label; leave them out", id)
		}
		m.Answers = nil
		return m, dir, nil
	}
	if err := checkRunRequest(req); err != nil {
		return nil, "", err
	}
	proj, err := projectState(ctx, env, req.In)
	if err != nil {
		return nil, "", err
	}
	m := &contracts.EvalRun{SchemaVersion: contracts.CLIVersion, ID: newRunID(req.Label), Label: req.Label, Set: s.EvalSetRef,
		AgentCommand: redact.String(req.AgentCommand), TraceFormat: req.TraceFormat, Repeat: req.Repeat, Jobs: req.Jobs,
		TimeoutSec: req.Timeout.Seconds(), In: req.In, Project: proj, Started: time.Now().UTC()}
	if m.AgentCommand != req.AgentCommand {
		return nil, "", contracts.Errorf(contracts.CodeUsage, "--agent-command holds a secret; pass it in the environment instead, the command is recorded")
	}
	dir, err := runDir(env, m.ID)
	if err != nil {
		return nil, "", err
	}
	return m, dir, writeJSON(env.Home, dir, manifestName, m)
}

func checkRunRequest(req RunRequest) error {
	switch {
	case strings.TrimSpace(req.AgentCommand) == "":
		return contracts.Errorf(contracts.CodeUsage, "name the agent with --agent-command <command> (it reads the question on stdin)")
	case !labelPattern().MatchString(req.Label):
		return contracts.Errorf(contracts.CodeUsage, "--label %q: name the setup with 1-40 letters, digits, '.', '_' or '-' (e.g. with-tree)", req.Label)
	case req.Repeat < 1 || req.Repeat > 100:
		return contracts.Errorf(contracts.CodeUsage, "--repeat must be 1 to 100")
	case req.Jobs < 1 || req.Jobs > 32:
		return contracts.Errorf(contracts.CodeUsage, "--jobs must be 1 to 32")
	case req.Timeout <= 0:
		return contracts.Errorf(contracts.CodeUsage, "--timeout must be positive")
	case req.In != "snapshot" && req.In != "fresh":
		return contracts.Errorf(contracts.CodeUsage, "--in must be snapshot (a read-only copy of the project at HEAD) or fresh (an empty directory)")
	}
	if err := eval.CheckTraceFormat(req.TraceFormat); err != nil {
		return contracts.Errorf(contracts.CodeUsage, "--trace-format: %v", err)
	}
	return nil
}

// projectState is the project's root, commit and dirtiness; a snapshot
// needs a commit.
func projectState(ctx context.Context, env operations.Env, in string) (contracts.EvalProject, error) {
	p, err := sources.Discover(ctx, env.Git, env.Dir)
	if err != nil {
		return contracts.EvalProject{}, err
	}
	out := contracts.EvalProject{Root: p.Root}
	if p.Checkout != "" {
		st, err := env.Git.CheckoutState(ctx, git.Isolated, p.Checkout)
		if err != nil {
			return out, operations.GitError(err)
		}
		dirty := st.Dirty
		out.Head, out.Dirty = st.Head, &dirty
	}
	if in == "snapshot" && out.Head == "" {
		return out, contracts.Errorf(contracts.CodeNoRepository, "--in snapshot copies the project at HEAD, and %s has no commit; use --in fresh", p.Root)
	}
	return out, nil
}

func newRunID(label string) string {
	b := make([]byte, 3)
	_, _ = rand.Read(b)
	return time.Now().UTC().Format("20060102-150405") + "-" + strings.ToLower(label) + "-" + hex.EncodeToString(b)
}

// prepareWork makes where the agent runs: for a snapshot, a read-only
// plain copy of the project at its recorded commit, shared by the run's
// answers and removed when it ends; for fresh, "" (each answer gets its
// own empty directory).
func prepareWork(ctx context.Context, env operations.Env, m *contracts.EvalRun, dir string) (string, func(), error) {
	if m.In != "snapshot" {
		return "", func() {}, nil
	}
	removeTree(filepath.Join(dir, snapshotDir))
	common, err := env.Git.CommonDir(ctx, git.Isolated, m.Project.Root)
	if err != nil {
		return "", nil, operations.GitError(err)
	}
	snap, err := env.Home.Dir(runsDir, m.ID, snapshotDir)
	if err != nil {
		return "", nil, err
	}
	w := git.WorkTree{GitDir: common, Dir: snap, Index: snap + ".index"}
	if err := env.Git.CheckoutPlain(ctx, w, m.Project.Head, []string{"."}); err != nil {
		removeTree(snap)
		return "", nil, operations.GitError(err)
	}
	os.Remove(w.Index)
	sub, err := filepath.Rel(topOf(ctx, env, m.Project.Root), m.Project.Root)
	if err != nil {
		sub = "."
	}
	readOnly(snap)
	return filepath.Join(snap, sub), func() { removeTree(snap) }, nil
}

func topOf(ctx context.Context, env operations.Env, dir string) string {
	top, err := env.Git.Toplevel(ctx, git.Isolated, dir)
	if err != nil || top == "" {
		return dir
	}
	return top
}

// answer runs the agent on one question and records the answer.
func answer(ctx context.Context, env operations.Env, args []string, m *contracts.EvalRun, workDir string, q contracts.EvalQuestion, rep int) (contracts.EvalAnswer, error) {
	key := answerKey(q.ID, rep)
	if workDir == "" {
		d, err := os.MkdirTemp(env.Abs(env.Vars.TempDir()), "git-context-tree-eval-*")
		if err != nil {
			return contracts.EvalAnswer{}, contracts.Errorf(contracts.CodeIO, "cannot make a directory for the agent: %v", err)
		}
		defer os.RemoveAll(d)
		workDir = d
	}
	var stdout, stderr capped
	start := time.Now()
	res := agent.Run(ctx, agent.Request{Args: args, Dir: workDir, Prompt: q.Question, Timeout: time.Duration(m.TimeoutSec * float64(time.Second)),
		Env: agent.Environment(env.Vars, "CONTEXT_TREE_EVAL_RUN="+m.ID, "CONTEXT_TREE_EVAL_QUESTION="+q.ID), Output: &stdout, Stderr: &stderr})
	elapsed := time.Since(start)
	if res.Err != nil {
		return contracts.EvalAnswer{}, contracts.Errorf(contracts.CodeAgentNotFound, "%v", res.Err)
	}
	if res.Cancelled {
		return contracts.EvalAnswer{}, ctx.Err()
	}
	t := eval.Read(m.TraceFormat, stdout.Bytes(), stderr.Bytes())
	a := contracts.EvalAnswer{Question: q.ID, Repetition: rep, Seconds: roundSeconds(elapsed), ExitCode: res.ExitCode, TimedOut: res.TimedOut,
		ToolCalls: t.ToolCalls, Answer: redact.String(t.Answer)}
	// Through the state's own writes: the agents (of this answer, of
	// others running beside it) must not redirect them with a symlink.
	answers, err := env.Home.Dir(runsDir, m.ID, answersDir)
	if err != nil {
		return a, err
	}
	// The trace first, the answer last: an answer file means the answer
	// is whole.
	for name, data := range map[string][]byte{key + ".stdout": stdout.Bytes(), key + ".stderr": stderr.Bytes()} {
		if err := env.Home.WriteFile(answers, name, []byte(redact.String(string(data)))); err != nil {
			return a, err
		}
	}
	return a, writeJSON(env.Home, answers, key+".json", a)
}

func roundSeconds(d time.Duration) float64 { return float64(d.Milliseconds()) / 1000 }

// capped keeps the first maxOutput bytes written to it.
type capped struct{ bytes.Buffer }

func (c *capped) Write(p []byte) (int, error) {
	if room := maxOutput - c.Len(); room > 0 {
		c.Buffer.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}
