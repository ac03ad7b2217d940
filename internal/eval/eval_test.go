package eval

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/git-context-tree/git-context-tree/contracts"
)

func TestNearestRank(t *testing.T) {
	v := []float64{15, 20, 35, 40, 50}
	for p, want := range map[float64]float64{0: 15, 5: 15, 30: 20, 40: 20, 50: 35, 90: 50, 100: 50} {
		if got := NearestRank(v, p); got != want {
			t.Errorf("P%g = %g, want %g", p, got, want)
		}
	}
	ten := []float64{10, 9, 8, 7, 6, 5, 4, 3, 2, 1}
	if NearestRank(ten, 50) != 5 || NearestRank(ten, 90) != 9 || NearestRank(nil, 50) != 0 {
		t.Errorf("ten: P50 %g P90 %g", NearestRank(ten, 50), NearestRank(ten, 90))
	}
}

func TestReportCommonSubsetAndPooling(t *testing.T) {
	ans := func(q string, rep int, secs float64, calls int, grade string) contracts.EvalAnswer {
		return contracts.EvalAnswer{Question: q, Repetition: rep, Seconds: secs, ToolCalls: calls, Grade: grade, Reviewer: "rev"}
	}
	set := contracts.EvalSetRef{Name: "s", Digest: "sha256:x", Questions: 3}
	with := contracts.EvalRun{ID: "r1", Label: "with", Set: set, Repeat: 2, Started: time.Date(2026, 12, 2, 9, 0, 0, 0, time.UTC), Answers: []contracts.EvalAnswer{
		ans("a", 1, 10, 2, contracts.GradeFully), ans("a", 2, 12, 3, contracts.GradeFully),
		ans("b", 1, 20, 4, contracts.GradeFully), ans("b", 2, 30, 6, contracts.GradePartially),
		ans("c", 1, 5, 1, contracts.GradeFully), ans("c", 2, 7, -1, contracts.GradeFully),
	}}
	without := contracts.EvalRun{ID: "r2", Label: "without", Set: set, Repeat: 2, Started: with.Started, Answers: []contracts.EvalAnswer{
		ans("a", 1, 40, 20, contracts.GradeFully), ans("a", 2, 50, 30, contracts.GradeFully),
		ans("b", 1, 60, 40, contracts.GradeFully), ans("b", 2, 70, 50, contracts.GradeFully),
		ans("c", 1, 80, 60, contracts.GradeWrong), ans("c", 2, 90, 70, ""),
	}}
	rep, err := Report([]contracts.EvalRun{with, without})
	if err != nil {
		t.Fatal(err)
	}
	// b is partial once in "with", c wrong in "without": only a is common.
	if d := cmp.Diff([]string{"a"}, rep.Common); d != "" {
		t.Errorf("common (-want +got):\n%s", d)
	}
	w := rep.Setups[0]
	// Times 5 7 10 12 20 30: mean 14, P50 = 3rd = 10, P90 = ⌈5.4⌉ = 6th = 30.
	if d := cmp.Diff(contracts.EvalStats{N: 6, Mean: 14, P50: 10, P90: 30}, w.Seconds); d != "" {
		t.Errorf("with seconds (-want +got):\n%s", d)
	}
	// Tool calls without the unknown one: 1 2 3 4 6 → mean 3.2, P50 3rd = 3, P90 ⌈4.5⌉ = 5th = 6.
	if d := cmp.Diff(contracts.EvalStats{N: 5, Mean: 3.2, P50: 3, P90: 6}, w.ToolCalls); d != "" {
		t.Errorf("with tool calls (-want +got):\n%s", d)
	}
	if d := cmp.Diff(contracts.EvalStats{N: 2, Mean: 11, P50: 10, P90: 12}, w.CommonTime); d != "" {
		t.Errorf("with common time (-want +got):\n%s", d)
	}
	if rep.Setups[1].Ungraded != 1 || rep.Setups[1].Grades[contracts.GradeWrong] != 1 {
		t.Errorf("without grades: %+v", rep.Setups[1])
	}
	md := Markdown(rep)
	for _, want := range []string{"| with | 6 | 5 | 1 | 0 | 0 | 0 | 14 / 10 / 30 (n=6) |", "2026-12-02", "common subset (1 questions"} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
	if !strings.Contains(HTML(rep), "<svg role=\"img\"") {
		t.Error("html has no chart")
	}
	other := without
	other.Set.Digest = "sha256:y"
	if _, err := Report([]contracts.EvalRun{with, other}); err == nil {
		t.Error("runs of different sets compared")
	}
}

func TestTraces(t *testing.T) {
	claude := `{"type":"system","subtype":"init","session_id":"s"}
{"type":"assistant","message":{"content":[{"type":"text","text":"Let me look."},{"type":"tool_use","id":"t1","name":"Read","input":{"file_path":"a"}},{"type":"tool_use","id":"t2","name":"Grep","input":{}}]}}
{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"t1","content":"x"}]}}
{"type":"assistant","message":{"content":[{"type":"tool_use","id":"t3","name":"Bash","input":{}}]}}
{"type":"result","subtype":"success","result":"The answer.","num_turns":3}
`
	if got := Read(TraceAuto, []byte(claude), nil); got != (Transcript{Format: TraceClaude, Answer: "The answer.", ToolCalls: 3}) {
		t.Errorf("claude: %+v", got)
	}
	codex := `{"type":"thread.started","thread_id":"t"}
{"type":"turn.started"}
{"type":"item.started","item":{"id":"item_0","type":"command_execution","command":"ls","status":"in_progress"}}
{"type":"item.completed","item":{"id":"item_0","type":"command_execution","command":"ls","exit_code":0,"status":"completed"}}
{"type":"item.completed","item":{"id":"item_1","type":"command_execution","command":"false","exit_code":1,"status":"failed"}}
{"type":"item.completed","item":{"id":"item_2","type":"reasoning","text":"thinking"}}
{"type":"item.completed","item":{"id":"item_3","type":"mcp_tool_call","server":"context-tree","tool":"search","status":"completed"}}
{"type":"item.completed","item":{"id":"item_4","type":"agent_message","text":"Done."}}
{"type":"turn.completed","usage":{"input_tokens":1}}
`
	if got := Read(TraceAuto, []byte(codex), nil); got != (Transcript{Format: TraceCodex, Answer: "Done.", ToolCalls: 3}) {
		t.Errorf("codex: %+v", got)
	}
	if got := Read(TraceAuto, []byte("plain answer\n"), nil); got.ToolCalls != -1 || got.Answer != "plain answer\n" {
		t.Errorf("text: %+v", got)
	}
	if got := Read("regex:^tool:", []byte("ans"), []byte("tool: a\nnote\ntool: b\n")); got.ToolCalls != 1 {
		// ^ anchors at the start of the input only without (?m).
		t.Errorf("regex: %+v", got)
	}
	if got := Read("regex:(?m)^tool:", []byte("ans"), []byte("tool: a\nnote\ntool: b\n")); got.ToolCalls != 2 {
		t.Errorf("regex multiline: %+v", got)
	}
}

func TestParseSet(t *testing.T) {
	good := "[[question]]\nid = \"q1\"\nquestion = \"How?\"\ncriteria = \"Says how.\"\ntags = [\"a\"]\n"
	s, err := ParseSet("evals/s.toml", []byte(good))
	if err != nil || len(s.Question) != 1 || !strings.HasPrefix(s.Digest(), "sha256:") {
		t.Fatalf("%+v %v", s, err)
	}
	reformatted := "# a comment\n[[question]]\nid='q1'\nquestion='How?'\ncriteria='Says how.'\ntags=['a']\n"
	if s2, _ := ParseSet("x", []byte(reformatted)); s2.Digest() != s.Digest() {
		t.Error("the digest depends on formatting")
	}
	for text, want := range map[string]string{
		good + "extra = 1\n":                              "evals/s.toml: question 1 (q1): unknown key extra",
		good + "[[question]]\nid = \"q2\"\nnotes.x = 1\n": "evals/s.toml: question 2 (q2): unknown key notes.x",
		"title = \"t\"\n" + good:                          "evals/s.toml: unknown key title",
		good + "id = = 1\n":                               "evals/s.toml:6: ",
		"[[question]]\nid = \"q1\"\nquestion = \"x\"\n":   "has no criteria",
		good + good: "appears twice",
		"[[question]]\nid = \"bad id\"\nquestion = \"x\"\ncriteria = \"y\"\n": "must be",
		"": "has no [[question]]",
	} {
		_, err := ParseSet("evals/s.toml", []byte(text))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", text, err, want)
		}
	}
}
