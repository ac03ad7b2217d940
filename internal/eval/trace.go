package eval

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
)

// Trace formats: how tool calls are counted and the answer found in an
// agent's output.
const (
	TraceAuto       = "auto"
	TraceClaude     = "claude-stream-json"
	TraceCodex      = "codex-json"
	TraceText       = "text" // plain output: no tool calls known
	traceRegexStart = "regex:"
)

// Transcript is what a run made of an agent's output: the answer, and the
// tool calls (-1 when the format cannot tell).
type Transcript struct {
	Format    string
	Answer    string
	ToolCalls int
}

// CheckTraceFormat validates a --trace-format value: auto, a built-in
// format, or regex:<expression> (each match in stderr is one call).
func CheckTraceFormat(f string) error {
	switch {
	case f == TraceAuto || f == TraceClaude || f == TraceCodex || f == TraceText:
		return nil
	case strings.HasPrefix(f, traceRegexStart):
		_, err := regexp.Compile(strings.TrimPrefix(f, traceRegexStart))
		return err
	}
	return fmt.Errorf("unknown trace format %q: use auto, %s, %s, %s or regex:<expression>", f, TraceClaude, TraceCodex, TraceText)
}

// Read makes a transcript of an agent's stdout and stderr in format
// (auto: Claude Code's stream-json or Codex's exec --json when stdout is
// one, else text).
//
// Claude Code (--output-format stream-json): JSON lines; every tool_use
// block of an assistant message is one call (tool results, in user
// messages, are not); the answer is the result line's result.
// Codex (exec --json): JSON lines of events; every item.completed whose
// item is a command_execution, mcp_tool_call, file_change or web_search is
// one call, failed ones included; the answer is the last agent_message.
func Read(format string, stdout, stderr []byte) Transcript {
	if strings.HasPrefix(format, traceRegexStart) {
		re := regexp.MustCompile(strings.TrimPrefix(format, traceRegexStart)) // checked by CheckTraceFormat
		return Transcript{Format: format, Answer: string(stdout), ToolCalls: len(re.FindAll(stderr, -1))}
	}
	if format == TraceAuto {
		format = detect(stdout)
	}
	switch format {
	case TraceClaude:
		return readClaude(stdout)
	case TraceCodex:
		return readCodex(stdout)
	}
	return Transcript{Format: TraceText, Answer: string(stdout), ToolCalls: -1}
}

// detect names the format of the first JSON line of stdout.
func detect(stdout []byte) string {
	sc := lines(stdout)
	for sc.Scan() {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		var head struct {
			Type    string          `json:"type"`
			Message json.RawMessage `json:"message"`
		}
		if json.Unmarshal(line, &head) != nil {
			return TraceText
		}
		switch {
		case head.Type == "system" || head.Type == "assistant" || head.Type == "user" || head.Type == "result":
			return TraceClaude
		case strings.HasPrefix(head.Type, "thread.") || strings.HasPrefix(head.Type, "turn.") || strings.HasPrefix(head.Type, "item."):
			return TraceCodex
		}
		return TraceText
	}
	return TraceText
}

func lines(b []byte) *bufio.Scanner {
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 0, 64<<10), 64<<20)
	return sc
}

func readClaude(stdout []byte) Transcript {
	t := Transcript{Format: TraceClaude}
	sc := lines(stdout)
	for sc.Scan() {
		var ev struct {
			Type    string `json:"type"`
			Result  string `json:"result"`
			Message struct {
				Content []struct {
					Type string `json:"type"`
				} `json:"content"`
			} `json:"message"`
		}
		if json.Unmarshal(sc.Bytes(), &ev) != nil {
			continue
		}
		switch ev.Type {
		case "assistant":
			for _, c := range ev.Message.Content {
				if c.Type == "tool_use" {
					t.ToolCalls++
				}
			}
		case "result":
			t.Answer = ev.Result
		}
	}
	return t
}

// codexCalls are the Codex item types that are tool calls.
var codexCalls = map[string]bool{"command_execution": true, "mcp_tool_call": true, "file_change": true, "web_search": true}

func readCodex(stdout []byte) Transcript {
	t := Transcript{Format: TraceCodex}
	sc := lines(stdout)
	for sc.Scan() {
		var ev struct {
			Type string `json:"type"`
			Item struct {
				Type string `json:"type"`
				Text string `json:"text"`
			} `json:"item"`
		}
		if json.Unmarshal(sc.Bytes(), &ev) != nil || ev.Type != "item.completed" {
			continue
		}
		switch {
		case codexCalls[ev.Item.Type]:
			t.ToolCalls++
		case ev.Item.Type == "agent_message":
			t.Answer = ev.Item.Text
		}
	}
	return t
}
