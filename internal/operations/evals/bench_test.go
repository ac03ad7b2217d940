package evals

import (
	"context"
	"fmt"
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

// The issue 31 goals, measured side by side with their yardsticks:
// the harness's overhead per answer beyond the agent's own time (≤ 20 ms),
// and eval report over 10,000 recorded answers (≤ 1 s).
// Run: go test -run '^$' -bench . ./internal/operations/evals

func benchProject(b *testing.B, questions int) (operations.Env, string) {
	dir := b.TempDir()
	repo := filepath.Join(dir, "repo")
	if out, err := exec.Command("git", "init", "-q", repo).CombinedOutput(); err != nil {
		b.Fatalf("%v %s", err, out)
	}
	var set strings.Builder
	for i := range questions {
		fmt.Fprintf(&set, "[[question]]\nid = \"q%d\"\nquestion = \"Question %d?\"\ncriteria = \"Answers %d.\"\n\n", i, i, i)
	}
	if err := os.MkdirAll(filepath.Join(repo, SetsDir), 0o755); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(repo, SetsDir, "bench.toml"), []byte(set.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	env := operations.Env{Dir: repo, Vars: os.Environ(), Git: git.New(os.Environ()), Home: &state.Home{Root: filepath.Join(dir, "home")}, LockWait: time.Second}
	if _, err := Freeze(context.Background(), env, "bench"); err != nil {
		b.Fatal(err)
	}
	return env, dir
}

// BenchmarkRunOverhead runs 50 questions with an agent that answers at
// once (/bin/echo) through eval run, and the same agent 50 times
// directly: overhead-ms/answer is the difference per answer.
func BenchmarkRunOverhead(b *testing.B) {
	const n = 50
	env, _ := benchProject(b, n)
	echo, err := exec.LookPath("echo")
	if err != nil {
		b.Fatal(err)
	}
	var harness, direct time.Duration
	for b.Loop() {
		start := time.Now()
		res, err := Run(context.Background(), env, RunRequest{Set: "bench", AgentCommand: echo + " answer", Label: "bench", TraceFormat: "auto", In: "fresh", Repeat: 1, Jobs: 1, Timeout: time.Minute})
		if err != nil || len(res.Answers) != n {
			b.Fatalf("%v %d", err, len(res.Answers))
		}
		harness += time.Since(start)
		start = time.Now()
		for range n {
			cmd := exec.Command(echo, "answer")
			cmd.Stdin = strings.NewReader("Question?")
			if err := cmd.Run(); err != nil {
				b.Fatal(err)
			}
		}
		direct += time.Since(start)
	}
	per := float64(harness-direct) / float64(b.N*n) / float64(time.Millisecond)
	b.ReportMetric(per, "overhead-ms/answer")
	b.ReportMetric(float64(direct)/float64(b.N*n)/float64(time.Millisecond), "agent-ms/answer")
}

// BenchmarkReport10k reports two runs of 5,000 graded answers each.
func BenchmarkReport10k(b *testing.B) {
	env, _ := benchProject(b, 1000)
	var ids []string
	for r, label := range []string{"with", "without"} {
		id := fmt.Sprintf("run-%s", label)
		dir, err := runDir(env, id)
		if err != nil {
			b.Fatal(err)
		}
		m := contracts.EvalRun{SchemaVersion: 3, ID: id, Label: label, Set: contracts.EvalSetRef{Name: "bench", Digest: "sha256:x", Questions: 1000},
			AgentCommand: "agent", TraceFormat: "auto", Repeat: 5, Jobs: 1, TimeoutSec: 60, In: "fresh", Started: time.Now()}
		if err := writeJSON(env.Home, dir, manifestName, m); err != nil {
			b.Fatal(err)
		}
		for _, sub := range []string{answersDir, gradesDir} {
			if err := os.MkdirAll(filepath.Join(dir, sub), 0o700); err != nil {
				b.Fatal(err)
			}
		}
		for q := range 1000 {
			for rep := 1; rep <= 5; rep++ {
				a := contracts.EvalAnswer{Question: fmt.Sprintf("q%d", q), Repetition: rep, Seconds: float64(q%97 + rep + r), ToolCalls: q % 13, Answer: "An answer of a few words."}
				key := answerKey(a.Question, rep)
				if err := writeJSON(env.Home, filepath.Join(dir, answersDir), key+".json", a); err != nil {
					b.Fatal(err)
				}
				if err := writeJSON(env.Home, filepath.Join(dir, gradesDir), key+".json", gradeRecord{Grade: contracts.EvalGrades[(q+rep)%4], Reviewer: "r"}); err != nil {
					b.Fatal(err)
				}
			}
		}
		ids = append(ids, id)
	}
	for b.Loop() {
		rep, err := Report(context.Background(), env, ids)
		if err != nil || rep.Setups[0].Answers != 5000 {
			b.Fatalf("%v", err)
		}
	}
}
