package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/redact"
	"github.com/git-context-tree/git-context-tree/internal/redact/redacttest"
)

func corpusText(cs []redacttest.Case) string {
	var all []string
	for _, c := range cs {
		all = append(all, c.Text)
	}
	return strings.Join(all, "\n")
}

// The error path prints no corpus secret, from the message or the details,
// as JSON or as text, and the JSON stays valid.
func TestErrorsCorpusNoLeak(t *testing.T) {
	cs := redacttest.Corpus()
	text := corpusText(cs)
	for _, asJSON := range []bool{false, true} {
		var stdout, stderr bytes.Buffer
		c := &Context{Globals: Globals{JSON: asJSON}, Stdout: redact.Writer{W: &stdout}, Stderr: redact.Writer{W: &stderr}}
		errs := []error{
			contracts.Errorf(contracts.CodeFetchFailed, "fetch failed: %s", text).WithDetails(map[string]any{"stderr": text, "argv": []string{"agent", "--token", "hunter2hunter2"}}),
			errors.New(text),
		}
		for _, err := range errs {
			c.finish(err)
		}
		out := stdout.String() + stderr.String()
		if leaks := redacttest.Leaks(out, cs); len(leaks) > 0 {
			t.Errorf("json=%v: %d secrets leak: %q", asJSON, len(leaks), leaks)
		}
		if asJSON {
			dec := json.NewDecoder(&stdout)
			for dec.More() {
				var v map[string]any
				if err := dec.Decode(&v); err != nil {
					t.Fatalf("error envelope is not JSON: %v", err)
				}
			}
		}
	}
}

// A schedule record shows no token given in --agent-command, in JSON
// (arguments are stored split) or in text.
func TestScheduleRecordRedacted(t *testing.T) {
	var stdout bytes.Buffer
	c := &Context{Globals: Globals{JSON: true}, Stdout: redact.Writer{W: &stdout}}
	rec := &contracts.Schedule{ID: "x", Agent: "custom", AgentArgs: []string{"agent", "--token", "hunter2hunter2", "--api-key=QWERTY12345", "GITHUB_TOKEN=abc123"}}
	if err := c.writeJSON(contracts.ScheduleStatus{Schedule: rec}); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"hunter2hunter2", "QWERTY12345", "abc123"} {
		if strings.Contains(stdout.String(), s) {
			t.Errorf("schedule JSON shows %q:\n%s", s, stdout.String())
		}
	}
	if !strings.Contains(stdout.String(), `"--token"`) {
		t.Errorf("schedule JSON lost the flag name:\n%s", stdout.String())
	}
}

// Usage errors echo arguments; they pass the redactor too.
func TestUsageErrorRedacted(t *testing.T) {
	var stdout, stderr bytes.Buffer
	Main(Process{Dir: t.TempDir(), Stdout: &stdout, Stderr: &stderr}, []string{"--json", "cleanup", "schedule", "x", "--agent-comand", "agent --token hunter2hunter2"})
	if out := stdout.String() + stderr.String(); strings.Contains(out, "hunter2hunter2") {
		t.Errorf("usage error shows the token:\n%s", out)
	}
}
