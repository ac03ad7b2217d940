package cli

import (
	"fmt"
	"time"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/eval"
	"github.com/git-context-tree/git-context-tree/internal/operations/evals"
)

type evalCmd struct {
	Freeze evalFreezeCmd `cmd:"" help:"Record a question set's digest (evals/<set>.frozen) so runs name exactly the questions they used."`
	Run    evalRunCmd    `cmd:"" help:"Run an agent command on every question of a frozen set and record each answer, its time and tool calls."`
	Grade  evalGradeCmd  `cmd:"" help:"Grade the answers of runs blind: a reviewer command, or --manual at the terminal."`
	Report evalReportCmd `cmd:"" help:"Report per setup: grades, mean/P50/P90 time and tool calls, on all answers and the common subset."`
}

func (cmd *evalCmd) Help() string {
	return `Measure whether a tree helps agents answer. The recipe: write questions with
their grading criteria in advance (evals/<set>.toml: [[question]] tables
with id, question, criteria, optional tags; schema eval-set) and freeze
them; run the same agent with and without the tree (eval run --label
with-tree, --label without); grade every answer blind (the reviewer sees
the question, its criteria and one answer, never the setup); report time
and tool calls per setup, also on the common subset of questions every
setup fully resolved. The tool never calls a model itself: it runs the
commands you give and computes. Runs are kept in ~/.context-tree/evals/.`
}

type evalFreezeCmd struct {
	Set string `arg:"" name:"set" help:"The set: a name (evals/<name>.toml in the project) or a path to a .toml file."`
}

func (cmd *evalFreezeCmd) Run(c *Context) error {
	res, err := evals.Freeze(c, c.Env, cmd.Set)
	if err != nil {
		return err
	}
	return c.emit(res, func() {
		state := "unchanged"
		if res.Changed {
			state = "frozen"
		}
		fmt.Fprintf(c.Stdout, "%s: %d questions, %s (%s)\n", res.Set.File, res.Set.Questions, res.Set.Digest, state)
		fmt.Fprintf(c.Stderr, "Commit %s with the set; a later edit makes eval run refuse it (EVAL_SET_CHANGED) until it is frozen again.\n", c.display(res.FrozenFile))
	})
}

type evalRunCmd struct {
	Set          string        `arg:"" name:"set" help:"The frozen set (a name in evals/ or a path)."`
	AgentCommand string        `name:"agent-command" placeholder:"<command>" help:"The agent: a command line (no shell) that reads the question on stdin and answers on stdout, e.g. \"claude -p --output-format stream-json --verbose\"."`
	Label        string        `name:"label" placeholder:"<setup>" help:"The setup's name in the report (e.g. with-tree, without)."`
	Repeat       int           `name:"repeat" default:"1" help:"Repetitions of each question (pooled in the report)."`
	Timeout      time.Duration `name:"timeout" default:"10m" help:"Stop an answer after this long (recorded as timed out)."`
	Jobs         int           `name:"jobs" default:"1" help:"Answers run at once."`
	In           string        `name:"in" default:"snapshot" enum:"snapshot,fresh" help:"Where the agent runs: snapshot (a read-only copy of the project at HEAD, shared by the run) or fresh (an empty directory per answer)."`
	TraceFormat  string        `name:"trace-format" default:"auto" placeholder:"<format>" help:"How tool calls are counted: auto, claude-stream-json, codex-json, text (none counted), or regex:<expression> (matches in stderr)."`
	Resume       string        `name:"resume" placeholder:"<run>" help:"Continue an interrupted run: only the answers it lacks are made."`
}

func (cmd *evalRunCmd) Help() string {
	return `Runs the agent command once per question and repetition, the question on
stdin, and records each answer when the agent ends: wall time from start to
exit, exit status, the answer (stdout, or the final message of a Claude Code
stream-json or Codex exec --json trace), its stdout and stderr (redacted),
and the tool calls counted from the trace: Claude Code's
--output-format stream-json (each tool_use block of an assistant message is
one call; tool results are not) and Codex's exec --json (each completed
command_execution, mcp_tool_call, file_change or web_search item, failed
ones included). The set must be frozen and unchanged (EVAL_SET_CHANGED).
The run's id is printed first; a run killed midway loses only the answers
in flight, and --resume <run> makes the rest.`
}

func (cmd *evalRunCmd) Run(c *Context) error {
	req := evals.RunRequest{Set: cmd.Set, AgentCommand: cmd.AgentCommand, Label: cmd.Label, TraceFormat: cmd.TraceFormat, In: cmd.In,
		Repeat: cmd.Repeat, Jobs: cmd.Jobs, Timeout: cmd.Timeout, Resume: cmd.Resume}
	if isTerminal(c.Stderr) {
		req.Progress = func(done, total int, a contracts.EvalAnswer) {
			fmt.Fprintf(c.Stderr, "[%d/%d] %s #%d: %.1fs, %s, exit %d\n", done, total, a.Question, a.Repetition, a.Seconds, callsText(a.ToolCalls), a.ExitCode)
		}
	}
	res, err := evals.Run(c, c.Env, req)
	if err != nil {
		return err
	}
	return c.emit(res, func() {
		fmt.Fprintf(c.Stdout, "%s\n", res.ID)
		fmt.Fprintf(c.Stderr, "%s: %d answers of %d questions × %d; grade them with git context-tree eval grade %s --reviewer-command <command> (or --manual)\n",
			res.Label, len(res.Answers), res.Set.Questions, res.Repeat, res.ID)
	})
}

func callsText(n int) string {
	if n < 0 {
		return "tool calls unknown"
	}
	return countOf(n, "tool call")
}

type evalGradeCmd struct {
	Runs            []string      `arg:"" name:"run" help:"Runs to grade together (ids or unique prefixes), of one set."`
	ReviewerCommand string        `name:"reviewer-command" placeholder:"<command>" help:"The reviewer: a command line that reads the question, its criteria and one answer on stdin and prints the grade on its first line."`
	Manual          bool          `name:"manual" help:"Grade by hand at the terminal, one answer at a time."`
	Timeout         time.Duration `name:"timeout" default:"5m" help:"Stop a reviewer after this long (the answer stays ungraded)."`
}

func (cmd *evalGradeCmd) Help() string {
	return `Grades every ungraded answer of the runs blind: one at a time, shuffled
across the runs, the reviewer seeing the question, its grading criteria and
the answer, never the setup's label, command or trace. The grade is the
reviewer's first line, one of fully-resolved, partially-resolved,
materially-wrong, not-answered (case and separators ignored); another
line leaves the answer ungraded (said on stderr). The reviewer command is
recorded with each grade. --manual shows the same queue at the terminal
(1-4 or a level's name; s skips, q stops).`
}

func (cmd *evalGradeCmd) Run(c *Context) error {
	req := evals.GradeRequest{Runs: cmd.Runs, ReviewerCommand: cmd.ReviewerCommand, Manual: cmd.Manual, Timeout: cmd.Timeout, In: c.Stdin, Out: c.Stderr,
		Skipped: func(q, why string) { fmt.Fprintf(c.Stderr, "warning: %s left ungraded: %s\n", q, why) }}
	res, err := evals.Grade(c, c.Env, req)
	if err != nil {
		return err
	}
	return c.emit(res, func() {
		fmt.Fprintf(c.Stdout, "%s graded, %d left\n", countOf(len(res.Graded), "answer"), res.Remaining)
	})
}

type evalReportCmd struct {
	Runs   []string `arg:"" name:"run" help:"Runs to compare (ids or unique prefixes), of one set."`
	Format string   `name:"format" default:"md" enum:"md,json,html" help:"md (Markdown), json (as --json) or html (one page with a chart)."`
}

func (cmd *evalReportCmd) Help() string {
	return `Per setup: the answers per grade, and the mean, P50 and P90 of time (s) and
tool calls, over all answers and over the common subset (the questions every
setup fully resolved in every repetition); per-question grades and median
time; the limits, from the runs' manifests. Percentiles are nearest-rank:
Pp is the ⌈p/100·N⌉-th smallest of N values. Repetitions are pooled.`
}

func (cmd *evalReportCmd) Run(c *Context) error {
	if cmd.Format == "json" {
		c.JSON = true
	}
	rep, err := evals.Report(c, c.Env, cmd.Runs)
	if err != nil {
		return err
	}
	return c.emit(rep, func() {
		if cmd.Format == "html" {
			fmt.Fprint(c.Stdout, eval.HTML(rep))
		} else {
			fmt.Fprint(c.Stdout, eval.Markdown(rep))
		}
	})
}
