package agenthooks

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/operations"
	"github.com/git-context-tree/git-context-tree/internal/operations/evidence"
	"github.com/git-context-tree/git-context-tree/internal/tree"
)

// Bounds of what one file read adds to the agent's context.
const (
	MaxDocuments    = 8
	MaxContextBytes = 2048
	maxInputBytes   = 1 << 20
)

// claudeInput is what Claude Code sends a PostToolUse hook on stdin (the
// fields the hook reads).
type claudeInput struct {
	Event     string `json:"hook_event_name"`
	Cwd       string `json:"cwd"`
	ToolName  string `json:"tool_name"`
	ToolInput struct {
		FilePath string `json:"file_path"`
	} `json:"tool_input"`
}

// claudeOutput is the hook's answer: context added to the conversation.
type claudeOutput struct {
	HookSpecificOutput struct {
		HookEventName     string `json:"hookEventName"`
		AdditionalContext string `json:"additionalContext"`
	} `json:"hookSpecificOutput"`
}

// Answer reads a Claude Code PostToolUse event and returns the JSON to
// print: the documents citing the file read or edited, nil when none does
// or the event is not about a file. The caller prints nothing on error:
// the hook must never fail the agent's tool call.
func Answer(ctx context.Context, env operations.Env, stdin io.Reader) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(stdin, maxInputBytes+1))
	if err != nil || len(data) > maxInputBytes {
		return nil, fmt.Errorf("hook input unreadable or over %d bytes", maxInputBytes)
	}
	var in claudeInput
	if err := json.Unmarshal(data, &in); err != nil {
		return nil, err
	}
	file := in.ToolInput.FilePath
	if file == "" || (in.Event != "" && in.Event != "PostToolUse") {
		return nil, nil
	}
	if filepath.IsAbs(in.Cwd) {
		if fi, err := os.Stat(in.Cwd); err == nil && fi.IsDir() {
			env.Dir = in.Cwd
		}
	}
	rep, err := evidence.Cites(ctx, env, evidence.CitesRequest{Paths: []string{file}})
	if err != nil || len(rep.Documents) == 0 {
		return nil, err
	}
	var out claudeOutput
	out.HookSpecificOutput.HookEventName = "PostToolUse"
	out.HookSpecificOutput.AdditionalContext = contextText(env.Dir, rep)
	return json.Marshal(out)
}

// contextText is the citing documents in a few lines for the agent: at
// most MaxDocuments and MaxContextBytes, then how many more there are and
// the command that lists them all.
func contextText(dir string, rep *contracts.CitesReport) string {
	q := rep.Queries[0].Path
	verb := "cite"
	if len(rep.Documents) == 1 {
		verb = "cites"
	}
	head := fmt.Sprintf("Context Tree: %d %s %s %s (read before relying on or changing it):\n", len(rep.Documents), plural(len(rep.Documents), "document"), verb, q)
	tail := func(n int) string {
		return fmt.Sprintf("... and %d more: git context-tree cites %s\n", n, q)
	}
	var b strings.Builder
	b.WriteString(head)
	for i, d := range rep.Documents {
		line := docLine(dir, d)
		rest := len(rep.Documents) - i
		room := MaxContextBytes - b.Len() - len(line)
		if rest > 1 {
			room -= len(tail(rest - 1))
		}
		if i == MaxDocuments || room < 0 {
			b.WriteString(tail(rest))
			break
		}
		b.WriteString(line)
	}
	return b.String()
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

// docLine is one document: where to read it, its title and description,
// and each citation's freshness.
func docLine(dir string, d contracts.CitingDocument) string {
	file := filepath.Join(d.Tree.Root, filepath.FromSlash(d.Path))
	if rel, ok := tree.Inside(dir, file); ok {
		file = filepath.ToSlash(rel)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "- %s %q", file, clip(d.Title, 120))
	if d.Description != "" {
		fmt.Fprintf(&b, ": %s", clip(d.Description, 200))
	}
	var states []string
	for _, c := range d.Citations {
		s := c.Freshness
		if c.Lines != "" {
			s = "lines " + c.Lines + " " + s
		}
		if len(c.Commits) > 0 {
			s += fmt.Sprintf(" by %d %s", len(c.Commits), plural(len(c.Commits), "commit"))
		}
		states = append(states, s)
	}
	fmt.Fprintf(&b, " [%s]\n", strings.Join(states, "; "))
	return b.String()
}

// clip shortens s to at most n bytes on a rune boundary, one line.
func clip(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) <= n {
		return s
	}
	for n > 0 && !isRuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

func isRuneStart(b byte) bool { return b&0xC0 != 0x80 }
