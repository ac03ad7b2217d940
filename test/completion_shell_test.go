package test

// Shell completion in real shells: bash with git's own completion script
// (git context-tree <TAB> reaches _git_context_tree through it), fish's
// own completion machinery, and zsh's parser. Each shell's absence skips
// its test, unless GCT_REQUIRE_SHELLS=1 (CI) makes it a failure.

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/git-context-tree/git-context-tree/contracts"
)

// gitBashCompletion is git's bash completion as Debian's git installs it
// (GCT_GIT_COMPLETION names another).
const gitBashCompletion = "/usr/share/bash-completion/completions/git"

// needShell is the path of a shell (or file) the test needs: when it is
// missing the test is skipped, or fails under GCT_REQUIRE_SHELLS=1.
func needShell(t *testing.T, what, path string, err error) string {
	t.Helper()
	if err == nil {
		return path
	}
	if os.Getenv("GCT_REQUIRE_SHELLS") == "1" {
		t.Fatalf("%s is required (GCT_REQUIRE_SHELLS=1): %v", what, err)
	}
	t.Skipf("%s not available (%v): install Debian's bash-completion, zsh and fish, or set GCT_REQUIRE_SHELLS=1 to fail instead", what, err)
	return ""
}

func lookShell(t *testing.T, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	return needShell(t, name, p, err)
}

// completionProject is a git checkout declaring two trees (selectors
// guides and handbook), with a machine state holding one write session;
// it returns the directory above the checkout and the environment the
// shells run with.
func completionProject(t *testing.T) (string, []string) {
	t.Helper()
	base := t.TempDir()
	env := append(os.Environ(),
		"HOME="+filepath.Join(base, "home"),
		"XDG_CONFIG_HOME="+filepath.Join(base, "home", ".config"),
		"XDG_DATA_HOME="+filepath.Join(base, "home", ".local", "share"),
		"CONTEXT_TREE_HOME="+filepath.Join(base, "state"),
		"GIT_CONFIG_NOSYSTEM=1",
	)
	proj := filepath.Join(base, "proj")
	for _, d := range []string{"home", "state/sessions", "proj/docs/handbook", "proj/guides"} {
		if err := os.MkdirAll(filepath.Join(base, d), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	files := map[string]string{
		"proj/.context-tree.json":                                  `{"schemaVersion":3,"trees":[{"kind":"directory","path":"docs/handbook"},{"kind":"directory","path":"guides"}]}` + "\n",
		"state/sessions/0b6f0a52-4d6e-4bfa-9a0e-1f0c4f8f1d11.json": "{}",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(base, name), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command("git", "init", "-q", proj)
	cmd.Env = env
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	return base, env
}

// completionScript writes the binary's script for a shell into dir.
func completionScript(t *testing.T, dir, shell string, env []string) string {
	t.Helper()
	cmd := exec.Command("git-context-tree", "completion", shell)
	cmd.Env = env
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git-context-tree completion %s: %v", shell, err)
	}
	path := filepath.Join(dir, "completion."+shell)
	if err := os.WriteFile(path, out, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// bashComplete loads git's completion and the script, sets COMP_WORDS,
// COMP_CWORD, COMP_LINE and COMP_POINT for words (the last one being
// completed) as bash does on <TAB>, calls the function complete -p names
// for the command, and prints COMPREPLY, one entry a line.
const bashComplete = `set -e
. "$GIT_COMPLETION"
. "$SCRIPT"
COMP_WORDS=("$@")
COMP_CWORD=$(($# - 1))
COMP_LINE="$*"
COMP_POINT=${#COMP_LINE}
spec=$(complete -p "$1")
fn=${spec##* -F }
fn=${fn%% *}
echo "function: $fn"
COMPREPLY=()
set +e
"$fn" "$1" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
if ((${#COMPREPLY[@]})); then printf '%s\n' "${COMPREPLY[@]}"; fi
`

func TestCompletionBash(t *testing.T) {
	bash := lookShell(t, "bash")
	gitCompletion := os.Getenv("GCT_GIT_COMPLETION")
	if gitCompletion == "" {
		gitCompletion = gitBashCompletion
	}
	_, err := os.Stat(gitCompletion)
	needShell(t, "git's bash completion", gitCompletion, err)

	base, env := completionProject(t)
	script := completionScript(t, base, "bash", env)
	env = append(env, "GIT_COMPLETION="+gitCompletion, "SCRIPT="+script)
	spaced := func(words ...string) []string {
		for i := range words {
			words[i] += " "
		}
		return words
	}
	var schemas []string
	for _, n := range contracts.SchemaNames() {
		schemas = append(schemas, n+" ")
	}
	git := "__git_wrap__git_main" // what git's completion registers for git
	for _, tc := range []struct {
		dir   string
		words []string
		fn    string
		want  []string
	}{
		{"proj", []string{"git", "context-tree", "ve"}, git, spaced("verify", "version")},
		{"proj", []string{"git", "context-tree", "verify", "--"}, git, spaced("--staged", "--links", "--evidence", "--at", "--strict", "--verbose", "--hook", "--format", "--dir", "--json")},
		{"proj", []string{"git", "context-tree", "read", "--tree", ""}, git, spaced("guides", "handbook")},
		{"proj", []string{"git", "context-tree", "schema", ""}, git, schemas},
		{"proj", []string{"git", "context-tree", "verify", "--format=j"}, git, spaced("json")},
		{"proj", []string{"git", "context-tree", "write", "show", ""}, git, spaced("0b6f0a52-4d6e-4bfa-9a0e-1f0c4f8f1d11")},
		// A path: nothing, so bash's default (file names) takes over.
		{"proj", []string{"git", "context-tree", "init", ""}, git, nil},
		// git's -C reaches the binary: the selectors of that project.
		{".", []string{"git", "-C", "proj", "context-tree", "read", "--tree", ""}, git, spaced("guides", "handbook")},
		{".", []string{"git", "context-tree", "read", "--tree", ""}, git, nil},
		// The binary by its own name.
		{"proj", []string{"git-context-tree", "ve"}, "_git_context_tree_main", spaced("verify", "version")},
		{".", []string{"git-context-tree", "-C", "proj", "verify", "h"}, "_git_context_tree_main", spaced("handbook")},
	} {
		cmd := exec.Command(bash, append([]string{"--norc", "--noprofile", "-c", bashComplete, "bash"}, tc.words...)...)
		cmd.Dir = filepath.Join(base, tc.dir)
		cmd.Env = env
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Errorf("%q: bash: %v\n%s", tc.words, err, stderr.String())
			continue
		}
		lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
		if fn := strings.TrimPrefix(lines[0], "function: "); fn != tc.fn {
			t.Errorf("%q: completed by %q, want %q", tc.words, fn, tc.fn)
		}
		var got []string
		if len(lines) > 1 {
			got = lines[1:]
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%q: COMPREPLY (-want +got):\n%s\nstderr: %s", tc.words, diff, stderr.String())
		}
	}
}

func TestCompletionFish(t *testing.T) {
	fish := lookShell(t, "fish")
	base, env := completionProject(t)
	script := completionScript(t, base, "fish", env)
	if out, err := exec.Command(fish, "-n", script).CombinedOutput(); err != nil {
		t.Fatalf("fish -n: %v\n%s", err, out)
	}
	for _, tc := range []struct {
		dir, line string
		want      []string
		described bool
	}{
		{"proj", "git-context-tree ve", []string{"verify", "version"}, true},
		{"proj", "git-context-tree verify --st", []string{"--staged", "--strict"}, true},
		{"proj", "git-context-tree read --tree ", []string{"guides", "handbook"}, false},
		{"proj", "git context-tree schema verif", []string{"verify"}, false},
		{"proj", "git context-tree wr", []string{"write"}, true},
		{".", "git -C proj context-tree read --tree h", []string{"handbook"}, false},
	} {
		cmd := exec.Command(fish, "--no-config", "-c", `source $argv[1]; complete -C $argv[2]`, script, tc.line)
		cmd.Dir = filepath.Join(base, tc.dir)
		cmd.Env = env
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Errorf("%q: fish: %v\n%s", tc.line, err, stderr.String())
			continue
		}
		// One candidate a line, a tab and its help for commands and flags.
		var got []string
		for _, line := range strings.Split(strings.TrimSuffix(string(out), "\n"), "\n") {
			word, help, described := strings.Cut(line, "\t")
			if described != tc.described || described && help == "" {
				t.Errorf("%q: %q: described %v, want %v", tc.line, line, described, tc.described)
			}
			got = append(got, word)
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%q: candidates (-want +got):\n%s\nstderr: %s", tc.line, diff, stderr.String())
		}
	}
}

// zshComplete sources the zsh script and calls its function as zsh's
// completion system would, with words and CURRENT set, printing what it
// hands to the system: compadd's options and words, then the display
// strings (-d: a word, or a command's or flag's word -- help), or _files
// for file names.
// PREFIX is the current word (the cursor at its end).
const zshComplete = `compdef() { :; }
compadd() {
	local -a opts
	local dname
	while [[ $1 != -- ]]; do
		case $1 in
		-d) dname=$2; shift 2 ;;
		*) opts+=($1); shift ;;
		esac
	done
	shift
	print -r -- "compadd ${opts[*]} -- $*"
	if [[ -n $dname ]]; then print -rl -- "${(@P)dname}"; fi
}
_files() { print -r -- _files; }
source $1
shift
words=("$@")
CURRENT=$#words
PREFIX=$words[CURRENT]
_git-context-tree
`

// TestCompletionZsh: the script parses (zsh -n), and its function, run by
// zsh with the words zsh's completion gives it (after "context-tree" for
// git context-tree, after the binary's name for the binary), offers the
// binary's candidates, a value after "=" without a space, or file names.
func TestCompletionZsh(t *testing.T) {
	zsh := lookShell(t, "zsh")
	base, env := completionProject(t)
	script := completionScript(t, base, "zsh", env)
	if out, err := exec.Command(zsh, "-n", script).CombinedOutput(); err != nil {
		t.Fatalf("zsh -n: %v\n%s", err, out)
	}
	for _, tc := range []struct {
		words []string
		want  string // a regular expression
	}{
		{[]string{"git-context-tree", "ve"}, `^compadd -l -- verify version\nverify  -- Verify .+\nversion  -- Print .+\n$`},
		{[]string{"context-tree", "read", "--tree", ""}, `^compadd -l -- guides handbook\nguides\nhandbook\n$`},
		{[]string{"context-tree", "read", "--tree", `hand\b`}, `^compadd -l -- handbook\nhandbook\n$`},
		{[]string{"context-tree", "verify", "--format="}, `^compadd -l -- --format=text --format=json --format=github --format=sarif\n--format=text\n--format=json\n--format=github\n--format=sarif\n$`},
		{[]string{"context-tree", "verify", "--for"}, `^compadd -l -- --format\n--format  -- \S.+\n$`},
		{[]string{"context-tree", "init", ""}, `^_files\n$`},
	} {
		cmd := exec.Command(zsh, append([]string{"-f", "-c", zshComplete, "zsh", script}, tc.words...)...)
		cmd.Dir = filepath.Join(base, "proj")
		cmd.Env = env
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Errorf("%q: zsh: %v\n%s", tc.words, err, stderr.String())
			continue
		}
		if !regexp.MustCompile(tc.want).Match(out) {
			t.Errorf("%q: got\n%s\nwant (regexp)\n%s\nstderr: %s", tc.words, out, tc.want, stderr.String())
		}
	}
}

// TestCompletionBashInstalled: saved where the guide says
// (~/.local/share/bash-completion/completions/git-context-tree), the
// script is loaded on demand by bash-completion, for git context-tree by
// git's own completion, and for the binary by its name.
func TestCompletionBashInstalled(t *testing.T) {
	bash := lookShell(t, "bash")
	const main = "/usr/share/bash-completion/bash_completion"
	_, err := os.Stat(main)
	needShell(t, "bash-completion", main, err)
	base, env := completionProject(t)
	dir := filepath.Join(base, "home", ".local", "share", "bash-completion", "completions")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	script := completionScript(t, base, "bash", env)
	if err := os.Rename(script, filepath.Join(dir, "git-context-tree")); err != nil {
		t.Fatal(err)
	}
	const loader = `. "$BASH_COMPLETION"
_completion_loader "$1"
COMP_WORDS=("$@")
COMP_CWORD=$(($# - 1))
COMP_LINE="$*"
COMP_POINT=${#COMP_LINE}
spec=$(complete -p "$1")
fn=${spec##* -F }
fn=${fn%% *}
COMPREPLY=()
"$fn" "$1" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
printf '%s\n' "${COMPREPLY[@]}"
`
	for _, words := range [][]string{{"git", "context-tree", "ve"}, {"git-context-tree", "ve"}} {
		cmd := exec.Command(bash, append([]string{"--norc", "--noprofile", "-c", loader, "bash"}, words...)...)
		cmd.Dir = filepath.Join(base, "proj")
		cmd.Env = append(env, "BASH_COMPLETION="+main)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Errorf("%q: bash: %v\n%s", words, err, stderr.String())
			continue
		}
		if got, want := string(out), "verify \nversion \n"; got != want {
			t.Errorf("%q: COMPREPLY %q, want %q\nstderr: %s", words, got, want, stderr.String())
		}
	}
}
