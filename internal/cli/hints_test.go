package cli

import (
	"bytes"
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// The hints the CLI prints are commands a user copies: every one must
// parse, flags and arguments included, for the command line it names
// (issue 34). Parsing runs kong exactly as Main does, without running the
// command.

// parseHint parses a hint's command line (without `git context-tree`).
func parseHint(args []string) error {
	model, _ := commandModel(args)
	helped := false
	p, err := newParser(model, io.Discard, io.Discard, func(code int) { helped = code == 0 })
	if err != nil {
		return err
	}
	_, err = p.Parse(args)
	if helped {
		return nil // --help printed the page and would exit 0
	}
	if err != nil && strings.Contains(err.Error(), `must be one of`) && strings.HasSuffix(err.Error(), `but got "sample"`) {
		// A placeholder (<agent>, …, a computed value) where a flag takes
		// one of a set: the user picks the value.
		return nil
	}
	return err
}

// mentions are strings that name a command without asking anyone to run
// it as written.
var mentions = map[string]bool{
	"export site": true, // the site's marker file: what wrote the directory
	// hostconfig's prefix that recognises the read hook of any version.
	"cites --hook": true,
}

// dynamic stands for a value computed at run time in a hint's source.
const dynamic = "\x00"

// hintWords turns a hint into the words a shell would pass: placeholders
// (<selector>, %s, …, a computed value) become a sample word; a trailing
// `  # comment` is dropped. ok is false when a computed value stands
// where a command name is (checked by the run-time tests below).
func hintWords(hint string) (words []string, ok bool) {
	if i := strings.Index(hint, "  #"); i >= 0 {
		hint = hint[:i]
	}
	command := true
	for _, w := range strings.Fields(hint) {
		if strings.HasPrefix(w, "-") || strings.HasPrefix(w, "<") || strings.HasPrefix(w, "%") || w == "…" {
			command = false
		}
		if command && strings.Contains(w, dynamic) {
			return nil, false
		}
		switch {
		case strings.HasPrefix(w, "<") && strings.HasSuffix(w, ">"), w == "…", strings.Contains(w, dynamic),
			strings.HasPrefix(w, "%"):
			w = "sample"
		case strings.HasPrefix(w, "'") && strings.HasSuffix(w, "'") && len(w) > 1:
			w = w[1 : len(w)-1]
		}
		words = append(words, w)
	}
	return words, true
}

// stringValue evaluates a string literal or a concatenation of literals;
// any other operand is a computed value.
func stringValue(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.BasicLit:
		if e.Kind == token.STRING {
			if s, err := strconv.Unquote(e.Value); err == nil {
				return s
			}
		}
	case *ast.BinaryExpr:
		if e.Op == token.ADD {
			return stringValue(e.X) + stringValue(e.Y)
		}
	case *ast.ParenExpr:
		return stringValue(e.X)
	}
	return dynamic
}

var quotedHint = regexp.MustCompile("`git context-tree ([^`]*)`")

// sourceHints collects, from every non-test Go file of the module's
// internal packages, the commands in its strings: each `git context-tree
// …` in backquotes, and each string that is a command (doctor's fix:
// lines, next steps).
func sourceHints(t *testing.T) map[string]string {
	t.Helper()
	hints := map[string]string{} // hint → where
	fset := token.NewFileSet()
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			e, ok := n.(ast.Expr)
			if !ok {
				return true
			}
			switch e.(type) {
			case *ast.BasicLit, *ast.BinaryExpr:
			default:
				return true
			}
			s := stringValue(e)
			where := fset.Position(e.Pos()).String()
			for _, m := range quotedHint.FindAllStringSubmatch(s, -1) {
				hints[m[1]] = where
			}
			// A string that is a command (not a prefix being built).
			if rest, ok := strings.CutPrefix(s, "git context-tree "); ok && !strings.ContainsAny(rest, "`\n") && !strings.HasSuffix(rest, " ") {
				hints[rest] = where
			}
			// A concatenation's parts are its own literals: not again.
			return false
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return hints
}

func TestSourceHintsParse(t *testing.T) {
	hints := sourceHints(t)
	if len(hints) < 40 {
		t.Fatalf("found %d hints in the source; the scan is broken", len(hints))
	}
	for hint, where := range hints {
		words, ok := hintWords(hint)
		if !ok || mentions[hint] {
			continue
		}
		if err := parseHint(words); err != nil {
			t.Errorf("%s: the hint `git context-tree %s` does not parse: %v", where, hint, err)
		}
	}
}

// TestHintWordsSeesBadHints: the checks above fail for a hint that names
// a flag the command does not take.
func TestHintWordsSeesBadHints(t *testing.T) {
	for _, hint := range []string{"export llms --tree <selector>", "serve --tree sample", "write prepare --tree x", "hooks instal"} {
		words, _ := hintWords(hint)
		if parseHint(words) == nil {
			t.Errorf("%q parsed", hint)
		}
	}
}

// TestAmbiguousTreeHintsParse runs, in a project declaring two trees,
// every command that picks a default tree, and checks that the way its
// refusal says to name one (`…` in the message) parses for that command:
// a flag is added to the command line that printed it, a whole command
// line stands for itself.
func TestAmbiguousTreeHintsParse(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	dir := t.TempDir()
	vars := append(os.Environ(), "HOME="+dir, "CONTEXT_TREE_HOME="+filepath.Join(dir, "state"),
		"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+filepath.Join(dir, "gitconfig"), "GIT_CEILING_DIRECTORIES="+dir)
	if err := os.WriteFile(filepath.Join(dir, "gitconfig"), []byte("[user]\n\tname = T\n\temail = t@example.com\n[init]\n\tdefaultBranch = main\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	proj := filepath.Join(dir, "proj")
	git := func(args ...string) *exec.Cmd {
		cmd := exec.Command("git", args...)
		cmd.Env = vars
		return cmd
	}
	if out, err := git("init", "-q", proj).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	t.Chdir(proj)
	run := func(args ...string) (int, string) {
		var stdout, stderr bytes.Buffer
		code := Main(Process{Dir: proj, Env: vars, Stdout: &stdout, Stderr: &stderr}, args)
		if code > 1 && stdout.Len() > 0 {
			return code, stdout.String() // --json: the error object
		}
		return code, stdout.String() + stderr.String()
	}
	for _, name := range []string{"alpha", "beta"} {
		if code, out := run("init", name, "--title", name); code > 1 {
			t.Fatalf("init %s: exit %d\n%s", name, code, out)
		}
	}
	if out, err := git("add", "-A").CombinedOutput(); err != nil {
		t.Fatalf("git add: %v\n%s", err, out)
	}
	if out, err := git("commit", "-q", "-m", "trees").CombinedOutput(); err != nil {
		t.Fatalf("git commit: %v\n%s", err, out)
	}
	commands := [][]string{
		{"read"},
		{"export", "llms"},
		{"export", "site", "--output", filepath.Join(dir, "site")},
		{"serve", "--port", "0"},
		{"write", "prepare"},
	}
	hint := regexp.MustCompile("name one with `([^`]*)`")
	for _, args := range commands {
		code, out := run(append([]string{"--json"}, args...)...)
		var res struct {
			Error struct {
				Code    string `json:"code"`
				Message string `json:"message"`
			} `json:"error"`
		}
		if err := json.Unmarshal([]byte(out), &res); err != nil || res.Error.Code != "SELECTOR_AMBIGUOUS" {
			t.Errorf("%v: exit %d, want SELECTOR_AMBIGUOUS:\n%s", args, code, out)
			continue
		}
		m := hint.FindStringSubmatch(res.Error.Message)
		if m == nil {
			t.Errorf("%v: the refusal names no way to pick a tree: %s", args, res.Error.Message)
			continue
		}
		way, _ := strings.CutPrefix(m[1], "git context-tree ")
		words, _ := hintWords(strings.ReplaceAll(way, "<selector>", "alpha"))
		line := words
		if strings.HasPrefix(way, "-") {
			line = append(append([]string{}, args...), words...)
		}
		if err := parseHint(line); err != nil {
			t.Errorf("%v says to name a tree with `%s`, which does not parse as `git context-tree %s`: %v", args, m[1], strings.Join(line, " "), err)
		}
	}
}
