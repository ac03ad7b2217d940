package contracts

import "time"

// The evaluation recipe (`eval`, issue 31): frozen question sets, agent
// runs recorded answer by answer, blind grades on four levels, and a
// report of time and tool calls per setup.

// EvalQuestion is one question of a set (evals/<name>.toml, schema
// eval-set): Criteria are the grading criteria, written in advance.
type EvalQuestion struct {
	ID       string   `json:"id" toml:"id"`
	Question string   `json:"question" toml:"question"`
	Criteria string   `json:"criteria" toml:"criteria"`
	Tags     []string `json:"tags,omitempty" toml:"tags"`
}

// EvalSetRef names a set as a run used it: its name, file (project-
// relative), frozen digest and question count.
type EvalSetRef struct {
	Name      string `json:"name"`
	File      string `json:"file"`
	Digest    string `json:"digest"`
	Questions int    `json:"questions"`
}

// EvalFreezeResult is the result of `eval freeze`: the digest recorded in
// the set's frozen file (evals/<name>.frozen); Changed when it differs from the
// one recorded before.
type EvalFreezeResult struct {
	SchemaVersion int        `json:"schemaVersion"`
	Set           EvalSetRef `json:"set"`
	FrozenFile    string     `json:"frozenFile"`
	Changed       bool       `json:"changed"`
}

// Grades of an answer, the recipe's four levels.
const (
	GradeFully     = "fully-resolved"
	GradePartially = "partially-resolved"
	GradeWrong     = "materially-wrong"
	GradeNone      = "not-answered"
)

// EvalGrades lists the levels, best first.
var EvalGrades = []string{GradeFully, GradePartially, GradeWrong, GradeNone}

// EvalRun is a run's manifest (schema eval-run; <run>/manifest.json) and,
// with Answers, the result of `eval run`.
type EvalRun struct {
	SchemaVersion int        `json:"schemaVersion"`
	ID            string     `json:"id"`
	Label         string     `json:"label"`
	Set           EvalSetRef `json:"set"`
	AgentCommand  string     `json:"agentCommand"`
	TraceFormat   string     `json:"traceFormat"`
	Repeat        int        `json:"repeat"`
	Jobs          int        `json:"jobs"`
	TimeoutSec    float64    `json:"timeoutSeconds"`
	// In is where the agent ran: "snapshot" (a read-only copy of the
	// project at Project.Head) or "fresh" (an empty directory per answer).
	In       string       `json:"in"`
	Project  EvalProject  `json:"project"`
	Started  time.Time    `json:"started"`
	Finished *time.Time   `json:"finished,omitempty"`
	Answers  []EvalAnswer `json:"answers,omitempty"`
}

// EvalProject is the project a run read: its root, commit and dirtiness.
type EvalProject struct {
	Root  string `json:"root"`
	Head  string `json:"head,omitempty"`
	Dirty *bool  `json:"dirty,omitempty"`
}

// EvalAnswer is one question's repetition: wall time end to end (the
// agent process from start to exit), exit status, tool calls counted from
// the trace (-1 when the trace format is unknown), the answer text.
type EvalAnswer struct {
	Question   string  `json:"question"`
	Repetition int     `json:"repetition"`
	Seconds    float64 `json:"seconds"`
	ExitCode   int     `json:"exitCode"`
	TimedOut   bool    `json:"timedOut,omitempty"`
	ToolCalls  int     `json:"toolCalls"`
	Answer     string  `json:"answer"`
	Grade      string  `json:"grade,omitempty"`
	Reviewer   string  `json:"reviewer,omitempty"`
}

// EvalGradeResult is the result of `eval grade`: the answers graded now
// and by whom (the reviewer command, or "manual").
type EvalGradeResult struct {
	SchemaVersion int         `json:"schemaVersion"`
	Reviewer      string      `json:"reviewer"`
	Graded        []EvalGrade `json:"graded"`
	Remaining     int         `json:"remaining"`
}

// EvalGrade is one answer's grade.
type EvalGrade struct {
	Run        string `json:"run"`
	Question   string `json:"question"`
	Repetition int    `json:"repetition"`
	Grade      string `json:"grade"`
	Reviewer   string `json:"reviewer"`
}

// EvalReport is the result of `eval report` (schema eval-report).
type EvalReport struct {
	SchemaVersion int            `json:"schemaVersion"`
	Setups        []EvalSetup    `json:"setups"`
	Common        []string       `json:"commonSubset"`
	Questions     []EvalQuestRow `json:"questions"`
	Limits        []string       `json:"limits"`
}

// EvalSetup is one run's figures: answers per grade (ungraded counted
// apart), and time and tool calls over all answers and over the common
// fully-resolved subset.
type EvalSetup struct {
	Run        string         `json:"run"`
	Label      string         `json:"label"`
	Answers    int            `json:"answers"`
	Grades     map[string]int `json:"grades"`
	Ungraded   int            `json:"ungraded"`
	Seconds    EvalStats      `json:"seconds"`
	ToolCalls  EvalStats      `json:"toolCalls"`
	CommonTime EvalStats      `json:"commonSeconds"`
	CommonCall EvalStats      `json:"commonToolCalls"`
}

// EvalStats are the mean and the nearest-rank P50 and P90 of N values.
type EvalStats struct {
	N    int     `json:"n"`
	Mean float64 `json:"mean"`
	P50  float64 `json:"p50"`
	P90  float64 `json:"p90"`
}

// EvalQuestRow is one question across setups (by run id): its grades and
// median time.
type EvalQuestRow struct {
	Question string              `json:"question"`
	Grades   map[string][]string `json:"grades"`
	Seconds  map[string]float64  `json:"medianSeconds"`
}

// Eval error codes: a set edited since it was frozen (or never frozen),
// and a set file that is not a valid set.
const (
	CodeEvalSetChanged ErrorCode = "EVAL_SET_CHANGED"
	CodeEvalSetInvalid ErrorCode = "EVAL_SET_INVALID"
)
