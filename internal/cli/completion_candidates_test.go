package cli

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/alecthomas/kong"
	"github.com/google/go-cmp/cmp"
)

// TestCompleteArgs: the candidates for the last word, from the command
// model and from the sources, by what the words before it select.
func TestCompleteArgs(t *testing.T) {
	parser, err := newParser(&commands{}, nil, nil, func(int) {})
	if err != nil {
		t.Fatal(err)
	}
	root := parser.Model.Node
	var selectorDir string
	src := completionSources{
		Selectors: func(dir string) []string {
			selectorDir = dir
			return []string{"guides", "handbook", "handbook/teams"}
		},
		Sessions: func() []string {
			return []string{"0b6f0a52-4d6e-4bfa-9a0e-1f0c4f8f1d11", "7c1e2f44-aaaa-4bbb-8ccc-000000000001"}
		},
		CleanupRuns: func() []string { return []string{"20261202T101500-ab12"} },
		Schedules:   func() []string { return []string{"0123456789abcdef"} },
		EvalRuns:    func() []string { return []string{"run-a", "run-b"} },
		Schemas:     func() []string { return []string{"verify", "version", "read"} },
	}
	for _, tc := range []struct {
		words []string
		want  []string
		dir   string // where the selectors were asked for, if they were
	}{
		{words: []string{"ve"}, want: []string{"verify", "version"}},
		{words: []string{"wr"}, want: []string{"write"}},
		{words: []string{"--json", "-C", "x", "ve"}, want: []string{"verify", "version"}},
		{words: []string{"write", ""}, want: []string{"prepare", "finish", "abort", "list", "show", "prune", "update"}},
		{words: []string{"verify", "--"}, want: []string{"--staged", "--links", "--evidence", "--at", "--strict", "--verbose", "--hook", "--format", "--dir", "--json"}},
		// Given flags are not offered again; --json before the command counts.
		{words: []string{"--json", "verify", "--staged", "--s"}, want: []string{"--strict"}},
		{words: []string{"verify", "--format", ""}, want: []string{"text", "json", "github", "sarif"}},
		{words: []string{"verify", "--format=j"}, want: []string{"--format=json"}},
		{words: []string{"verify", ""}, want: []string{"guides", "handbook", "handbook/teams"}, dir: "/work"},
		{words: []string{"verify", "guides", "h"}, want: []string{"handbook", "handbook/teams"}, dir: "/work"},
		{words: []string{"read", "--tree", ""}, want: []string{"guides", "handbook", "handbook/teams"}, dir: "/work"},
		{words: []string{"read", "--tree=g"}, want: []string{"--tree=guides"}, dir: "/work"},
		{words: []string{"-C", "sub", "read", "--tree", "h"}, want: []string{"handbook", "handbook/teams"}, dir: "/work/sub"},
		{words: []string{"read", "--dir=/abs", "--tree", "g"}, want: []string{"guides"}, dir: "/abs"},
		{words: []string{"cites", "--repository", "gu"}, want: []string{"guides"}, dir: "/work"},
		// read's <node> is a path: nothing, so the shell completes files.
		{words: []string{"read", "--tree", "guides", ""}, want: nil},
		{words: []string{"init", ""}, want: nil},
		{words: []string{"write", "show", "0b"}, want: []string{"0b6f0a52-4d6e-4bfa-9a0e-1f0c4f8f1d11"}},
		{words: []string{"finish", ""}, want: []string{"0b6f0a52-4d6e-4bfa-9a0e-1f0c4f8f1d11", "7c1e2f44-aaaa-4bbb-8ccc-000000000001"}},
		{words: []string{"write", "finish", "7c1e2f44-aaaa-4bbb-8ccc-000000000001", ""}, want: nil},
		{words: []string{"write", "finish", "7c1e2f44-aaaa-4bbb-8ccc-000000000001", "--p"}, want: []string{"--publish"}},
		{words: []string{"write", "finish", "-m", ""}, want: nil},
		{words: []string{"cleanup", "logs", "--run", ""}, want: []string{"20261202T101500-ab12"}},
		{words: []string{"cleanup", "run", "--schedule", ""}, want: []string{"0123456789abcdef"}},
		{words: []string{"cleanup", "run", "--agent", ""}, want: []string{"claude", "codex", "pi"}},
		{words: []string{"eval", "grade", "run-a", ""}, want: []string{"run-a", "run-b"}},
		{words: []string{"eval", "run", "--resume", "run-b"}, want: []string{"run-b"}},
		{words: []string{"schema", "ver"}, want: []string{"verify", "version"}},
		{words: []string{"schema", "read", ""}, want: nil},
		{words: []string{"completion", ""}, want: []string{"bash", "zsh", "fish"}},
		{words: []string{"mcp", "config", "c"}, want: []string{"claude-code", "codex", "cursor"}},
		{words: []string{"help", "wr"}, want: []string{"write"}},
		{words: []string{"help", "write", "f"}, want: []string{"finish"}},
		{words: []string{"help", "nosuch", ""}, want: nil},
		// After "--" every word is an argument.
		{words: []string{"verify", "--", "--"}, want: nil, dir: "/work"},
		// An unknown flag is skipped.
		{words: []string{"verify", "--bogus", "g"}, want: []string{"guides"}, dir: "/work"},
		// The hidden command and the help flag are never offered.
		{words: []string{"__"}, want: nil},
		{words: []string{"--h"}, want: nil},
	} {
		selectorDir = ""
		got := candidateWords(completeArgs(root, tc.words, "/work", src))
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%q: candidates (-want +got):\n%s", tc.words, diff)
		}
		if selectorDir != filepath.FromSlash(tc.dir) {
			t.Errorf("%q: selectors asked for in %q, want %q", tc.words, selectorDir, tc.dir)
		}
	}
}

// TestCompleteArgsRoot: the first word offers every visible command and
// only those.
func TestCompleteArgsRoot(t *testing.T) {
	parser, err := newParser(&commands{}, nil, nil, func(int) {})
	if err != nil {
		t.Fatal(err)
	}
	got := candidateWords(completeArgs(parser.Model.Node, nil, "/work", completionSources{}))
	for _, want := range []string{"init", "verify", "write", "prepare", "help", "completion", "version", "agent-hooks"} {
		if !strings.Contains("\n"+strings.Join(got, "\n")+"\n", "\n"+want+"\n") {
			t.Errorf("%q not offered first: %q", want, got)
		}
	}
	for _, c := range got {
		if strings.HasPrefix(c, "_") || strings.HasPrefix(c, "-") {
			t.Errorf("offered %q first", c)
		}
	}
}

func candidateWords(cands []candidate) []string {
	var words []string
	for _, c := range cands {
		words = append(words, c.Word)
	}
	return words
}

// TestCompleteArgsHelp: commands and flags carry their help, other values
// none.
func TestCompleteArgsHelp(t *testing.T) {
	parser, err := newParser(&commands{}, nil, nil, func(int) {})
	if err != nil {
		t.Fatal(err)
	}
	src := completionSources{Selectors: func(string) []string { return []string{"handbook"} }}
	for _, tc := range []struct {
		words []string
		want  []candidate
	}{
		{[]string{"verif"}, []candidate{{"verify", "Verify trees: indexes, metadata, links and soft links."}}},
		{[]string{"write", "ab"}, []candidate{{"abort", "Remove a write session that holds no edits or commits."}}},
		{[]string{"verify", "--jso"}, []candidate{{"--json", "Print the contract JSON (schemaVersion 3) on stdout."}}},
		{[]string{"verify", "h"}, []candidate{{Word: "handbook"}}},
		{[]string{"verify", "--format", "t"}, []candidate{{Word: "text"}}},
	} {
		got := completeArgs(parser.Model.Node, tc.words, "/work", src)
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%q (-want +got):\n%s", tc.words, diff)
		}
	}
}

// TestPredictorsNameTheModel: every row of predictors names an argument or
// a flag the command model has (by path, or anywhere for a bare name), so
// a renamed argument cannot silently lose its candidates.
func TestPredictorsNameTheModel(t *testing.T) {
	parser, err := newParser(&commands{}, nil, nil, func(int) {})
	if err != nil {
		t.Fatal(err)
	}
	known := map[string]bool{}
	var walk func(n *kong.Node, path []string)
	walk = func(n *kong.Node, path []string) {
		var names []string
		for _, a := range n.Positional {
			names = append(names, "<"+a.Name+">")
		}
		for _, f := range n.Flags {
			names = append(names, "--"+f.Name)
		}
		for _, name := range names {
			known[name] = true
			known[strings.Join(append(slices.Clone(path), name), " ")] = true
		}
		for _, c := range n.Children {
			if c.Type == kong.CommandNode {
				walk(c, append(slices.Clone(path), c.Name))
			}
		}
	}
	walk(parser.Model.Node, nil)
	for key := range predictors {
		if !known[key] {
			t.Errorf("predictors[%q]: no such argument or flag in the command model", key)
		}
	}
}
