package evals

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"hash/fnv"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/adapters/agent"
	"github.com/git-context-tree/git-context-tree/internal/operations"
	"github.com/git-context-tree/git-context-tree/internal/redact"
)

// GradeRequest is `eval grade`: a reviewer command, or a person at the
// terminal (Manual, reading In and writing Out).
type GradeRequest struct {
	Runs            []string
	ReviewerCommand string
	Manual          bool
	In              io.Reader
	Out             io.Writer
	Timeout         time.Duration
	// Skipped, when set, is told of an answer the reviewer gave no grade.
	Skipped func(question string, why string)
}

// ManualReviewer is the reviewer recorded for grades given by hand.
const ManualReviewer = "manual"

// item is one answer in the blind queue.
type item struct {
	run, dir string
	a        contracts.EvalAnswer
	q        contracts.EvalQuestion
}

// Grade has every ungraded answer of the runs graded blind: one at a
// time, shuffled across runs, the reviewer seeing the question, its
// criteria and the answer, never the setup's label, command or trace.
func Grade(ctx context.Context, env operations.Env, req GradeRequest) (*contracts.EvalGradeResult, error) {
	if req.Manual == (req.ReviewerCommand != "") {
		return nil, contracts.Errorf(contracts.CodeUsage, "grade with --reviewer-command <command> or --manual (one of them)")
	}
	queue, err := gradeQueue(ctx, env, req.Runs)
	if err != nil {
		return nil, err
	}
	reviewer := ManualReviewer
	var args []string
	if !req.Manual {
		if args, err = agent.CommandLine("", req.ReviewerCommand, env.Vars, env.Dir); err != nil {
			return nil, err
		}
		reviewer = redact.String(req.ReviewerCommand)
	}
	res := &contracts.EvalGradeResult{SchemaVersion: contracts.CLIVersion, Reviewer: reviewer, Graded: []contracts.EvalGrade{}}
	in := bufio.NewReader(req.In)
	for i, it := range queue {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		var grade string
		if req.Manual {
			var quit bool
			if grade, quit = askPerson(in, req.Out, it, i+1, len(queue)); quit {
				res.Remaining = len(queue) - i
				return res, nil
			}
		} else {
			var why string
			if grade, why = askReviewer(ctx, env, args, it, req.Timeout); grade == "" && req.Skipped != nil {
				req.Skipped(it.a.Question, why)
			}
		}
		if grade == "" {
			res.Remaining++
			continue
		}
		if err := writeJSON(env.Home, filepath.Join(it.dir, gradesDir), answerKey(it.a.Question, it.a.Repetition)+".json", gradeRecord{Grade: grade, Reviewer: reviewer}); err != nil {
			return nil, err
		}
		res.Graded = append(res.Graded, contracts.EvalGrade{Run: it.run, Question: it.a.Question, Repetition: it.a.Repetition, Grade: grade, Reviewer: reviewer})
	}
	return res, nil
}

// gradeQueue is every ungraded answer of the runs (of one set), in an
// order shuffled by the runs' ids: the same runs give the same order.
func gradeQueue(ctx context.Context, env operations.Env, runs []string) ([]item, error) {
	if len(runs) == 0 {
		return nil, contracts.Errorf(contracts.CodeUsage, "name the runs to grade (their ids, as eval run prints them)")
	}
	var queue []item
	var digest string
	seed := fnv.New64a()
	for _, arg := range runs {
		id, err := resolveRun(env, arg)
		if err != nil {
			return nil, err
		}
		m, dir, err := loadRun(env, id)
		if err != nil {
			return nil, err
		}
		if digest != "" && m.Set.Digest != digest {
			return nil, contracts.Errorf(contracts.CodeEvalSetChanged, "run %s used another question set (%s): grade runs of one set together", id, m.Set.Digest)
		}
		digest = m.Set.Digest
		s, err := openSet(ctx, env, filepath.Join(m.Project.Root, m.Set.File))
		if err != nil {
			return nil, err
		}
		if s.Digest != m.Set.Digest {
			return nil, contracts.Errorf(contracts.CodeEvalSetChanged, "%s changed since run %s: its questions and criteria are not the ones answered", m.Set.File, id)
		}
		byID := map[string]contracts.EvalQuestion{}
		for _, q := range s.set.Question {
			byID[q.ID] = q
		}
		seed.Write([]byte(id))
		if _, err := env.Home.Dir(runsDir, id, gradesDir); err != nil {
			return nil, err
		}
		for _, a := range m.Answers {
			if a.Grade == "" {
				queue = append(queue, item{run: id, dir: dir, a: a, q: byID[a.Question]})
			}
		}
	}
	r := rand.New(rand.NewPCG(seed.Sum64(), 31))
	r.Shuffle(len(queue), func(i, j int) { queue[i], queue[j] = queue[j], queue[i] })
	return queue, nil
}

// reviewText is all a reviewer sees of an answer.
func reviewText(it item) string {
	return "Question:\n" + strings.TrimSpace(it.q.Question) + "\n\nGrading criteria (written before the answers):\n" + strings.TrimSpace(it.q.Criteria) +
		"\n\nAnswer:\n" + strings.TrimSpace(it.a.Answer) +
		"\n\nGrade the answer against the criteria. Reply with one of these on the first line: fully-resolved, partially-resolved, materially-wrong, not-answered.\n"
}

// ParseGrade reads a grade from a line: one of the four levels, case and
// separators (spaces, '-', '_') ignored; "" when it is none.
func ParseGrade(line string) string {
	norm := strings.Map(func(r rune) rune {
		switch r {
		case ' ', '-', '_', '\t', '.', '*', '`':
			return -1
		}
		return r
	}, strings.ToLower(strings.TrimSpace(line)))
	for _, g := range contracts.EvalGrades {
		if strings.ReplaceAll(g, "-", "") == norm {
			return g
		}
	}
	return ""
}

func askReviewer(ctx context.Context, env operations.Env, args []string, it item, timeout time.Duration) (string, string) {
	dir, err := os.MkdirTemp(env.Abs(env.Vars.TempDir()), "git-context-tree-review-*")
	if err != nil {
		return "", err.Error()
	}
	defer os.RemoveAll(dir)
	var out, errOut capped
	res := agent.Run(ctx, agent.Request{Args: args, Dir: dir, Prompt: reviewText(it), Timeout: timeout, Env: agent.Environment(env.Vars), Output: &out, Stderr: &errOut})
	switch {
	case res.Err != nil:
		return "", res.Err.Error()
	case res.TimedOut:
		return "", "the reviewer timed out"
	case res.ExitCode != 0:
		return "", fmt.Sprintf("the reviewer exited %d", res.ExitCode)
	}
	first, _, _ := strings.Cut(string(bytes.TrimLeft(out.Bytes(), "\r\n\t ")), "\n")
	if g := ParseGrade(first); g != "" {
		return g, ""
	}
	return "", fmt.Sprintf("the reviewer's first line %q is not a grade", redact.String(first))
}

// askPerson shows one answer and reads a grade: 1-4, a level's name, s to
// skip, q to stop (quit true).
func askPerson(in *bufio.Reader, out io.Writer, it item, n, total int) (grade string, quit bool) {
	fmt.Fprintf(out, "\n=== Answer %d of %d ===\n%s", n, total, redact.String(reviewText(it)))
	for {
		fmt.Fprint(out, "Grade [1 fully-resolved, 2 partially-resolved, 3 materially-wrong, 4 not-answered, s skip, q quit]: ")
		line, err := in.ReadString('\n')
		line = strings.TrimSpace(line)
		switch {
		case line == "q" || (err != nil && line == ""):
			return "", true
		case line == "s":
			return "", false
		case len(line) == 1 && line[0] >= '1' && line[0] <= '4':
			return contracts.EvalGrades[line[0]-'1'], false
		}
		if g := ParseGrade(line); g != "" {
			return g, false
		}
	}
}
