// End-to-end scenarios: every test/testdata/*.txtar script runs the real
// command line (cli.Main, as the installed binary would) against real
// directories and real git, in a private HOME.
//
// Two programs are installed on the scripts' PATH:
//
//	git-context-tree   the product; with --json its stdout is validated
//	                   against the contract's JSON Schema (exit 99 if not)
//	exitcode N prog…   runs prog and exits 0 iff prog exited with N
//
// and these script commands are available (see scriptCmds):
//
//	jsonpath <file|stdout> <path> [<want>]   assert a JSON value
//	jsonlen <file|stdout> <path> <n>         assert an array's length
//	writefile <file> <go-escaped-text>       write arbitrary bytes
//	mkbig <file> <bytes> [<head>]            a Markdown file of that size
//	mkdeep <dir> <n>                         n nested indexed directories
//	mkfifo <file>                            a named pipe
//	hardlink <old> <new>                     a second name for a file
//	cptree <src> <dst>                       copy a directory tree
//	envfile <VAR> <file|stdout>              set VAR to a file's first line
package test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/git-context-tree/git-context-tree/internal/cli"
	"github.com/git-context-tree/git-context-tree/internal/schematest"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"git-context-tree": gitContextTree,
		"exitcode":         exitcode,
	})
}

func TestScripts(t *testing.T) {
	repoRoot, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata",
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
		Setup:               func(env *testscript.Env) error { return setup(env, repoRoot) },
		Cmds:                scriptCmds,
		Condition: func(cond string) (bool, error) {
			if cond == "root" {
				return os.Geteuid() == 0, nil
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
	})
}

// gitConfig is every script's global git configuration.
const gitConfig = `[user]
	name = Test User
	email = test@example.com
[init]
	defaultBranch = main
[core]
	autocrlf = false
[advice]
	detachedHead = false
`

// setup gives each script a private HOME and machine state, git with a
// fixed identity and dates and no system configuration, and $REPO_ROOT
// (this repository, for its examples/).
func setup(env *testscript.Env, repoRoot string) error {
	home := filepath.Join(env.WorkDir, "home")
	if err := os.MkdirAll(home, 0o755); err != nil {
		return err
	}
	gitconfig := filepath.Join(home, ".gitconfig")
	if err := os.WriteFile(gitconfig, []byte(gitConfig), 0o644); err != nil {
		return err
	}
	for _, kv := range [][2]string{
		{"HOME", home},
		{"CONTEXT_TREE_HOME", filepath.Join(home, ".context-tree")},
		{"GIT_CONFIG_NOSYSTEM", "1"},
		{"GIT_CONFIG_GLOBAL", gitconfig},
		{"GIT_AUTHOR_DATE", "2024-01-02T03:04:05Z"},
		{"GIT_COMMITTER_DATE", "2024-01-02T03:04:05Z"},
		// Never find a repository above $WORK (the temp dir may be in one).
		{"GIT_CEILING_DIRECTORIES", filepath.Dir(env.WorkDir)},
		{"TZ", "UTC"},
		{"LC_ALL", "C"},
		{"REPO_ROOT", repoRoot},
	} {
		env.Setenv(kv[0], kv[1])
	}
	return nil
}

// jsonResultSchemas maps a command, by its leading words, to the JSON Schema
// of its --json result. The longest match wins ("w1 w2", then "w1 *", then
// "w1"); "" means the output is not a contract result and is not checked.
// Add one row per new command.
var jsonResultSchemas = map[string]string{
	"init":     "init",
	"verify":   "verify",
	"read":     "read",
	"version":  "version",
	"schema":   "schema-list",
	"schema *": "", // `schema <name>` prints a raw JSON Schema

	"connect":    "connection-change",
	"disconnect": "connection-change",
	"list":       "list",
	"resolve":    "resolve",

	"sync":          "sync",
	"write prepare": "session",
	"write finish":  "session",
	"write abort":   "session",
	"write show":    "session",
	"write list":    "session-list",
	"prepare":       "session",
	"finish":        "session",
	"abort":         "session",

	"hooks install":   "hooks",
	"hooks uninstall": "hooks",
	"hooks status":    "hooks",

	"skills install":   "skills-install",
	"skills uninstall": "skills-uninstall",
	"skills list":      "skills-list",

	"cleanup schedule":   "cleanup-schedule",
	"cleanup unschedule": "cleanup-schedule",
	"cleanup list":       "cleanup-list",
	"cleanup status":     "cleanup-list",
	"cleanup run":        "cleanup-run",
	"cleanup logs":       "cleanup-logs",
}

// gitContextTree is the product as scripts run it. With --json it checks
// that stdout is exactly one JSON document matching the command's schema
// (or the error envelope's), and exits 99 when it does not.
func gitContextTree() {
	args := os.Args[1:]
	if !hasArg(args, "--json") || hasArg(args, "-h") || hasArg(args, "--help") {
		os.Exit(cli.Main(args, os.Stdin, os.Stdout, os.Stderr))
	}
	var out bytes.Buffer
	code := cli.Main(args, os.Stdin, &out, os.Stderr)
	os.Stdout.Write(out.Bytes())
	if err := checkJSON(args, code, out.Bytes()); err != nil {
		fmt.Fprintf(os.Stderr, "scripts_test: git-context-tree %s (exit %d): --json output: %v\n", strings.Join(args, " "), code, err)
		os.Exit(99)
	}
	os.Exit(code)
}

func checkJSON(args []string, code int, out []byte) error {
	words := commandWords(args)
	schema, known := resultSchema(words)
	if known && schema == "" {
		return nil
	}
	if len(bytes.TrimSpace(out)) == 0 {
		return errors.New("stdout is empty")
	}
	if !json.Valid(out) {
		return errors.New("stdout is not exactly one JSON document")
	}
	var top struct {
		OK    *bool           `json:"ok"`
		Error json.RawMessage `json:"error"`
	}
	_ = json.Unmarshal(out, &top) // any JSON value; the schema judges it
	switch {
	case top.OK != nil && !*top.OK && len(top.Error) > 0 && top.Error[0] == '{':
		if code == 0 {
			return errors.New("error envelope with exit code 0")
		}
		schema = "error"
	case !known:
		return fmt.Errorf("no JSON Schema known for command %q: add a row to jsonResultSchemas", strings.Join(words, " "))
	}
	v, err := schematest.New()
	if err != nil {
		return err
	}
	return v.Validate(schema, out)
}

func resultSchema(words []string) (string, bool) {
	var keys []string
	if len(words) >= 2 {
		keys = append(keys, words[0]+" "+words[1], words[0]+" *")
	}
	if len(words) >= 1 {
		keys = append(keys, words[0])
	}
	for _, k := range keys {
		if s, ok := jsonResultSchemas[k]; ok {
			return s, true
		}
	}
	return "", false
}

// globalsWithValue are the flags whose value is the next argument.
var globalsWithValue = map[string]bool{"-C": true, "--dir": true}

// commandWords returns the positional arguments (the command name first).
func commandWords(args []string) []string {
	var words []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return append(words, args[i+1:]...)
		case globalsWithValue[a]:
			i++
		case strings.HasPrefix(a, "-") && a != "-":
		default:
			words = append(words, a)
		}
	}
	return words
}

func hasArg(args []string, flag string) bool {
	for i := 0; i < len(args); i++ {
		switch {
		case args[i] == "--":
			return false
		case globalsWithValue[args[i]]:
			i++
		case args[i] == flag:
			return true
		}
	}
	return false
}

// exitcodeTimeout bounds a program run by exitcode, so a product that
// blocks (say, on a FIFO it should never open) fails instead of hanging.
const exitcodeTimeout = 30 * time.Second

// exitcode implements `exitcode N prog args...`: run prog with inherited
// stdio and exit 0 iff its exit code is N.
func exitcode() {
	if len(os.Args) < 3 {
		fmt.Fprintln(os.Stderr, "usage: exitcode N prog [args...]")
		os.Exit(2)
	}
	want, err := strconv.Atoi(os.Args[1])
	if err != nil {
		fmt.Fprintf(os.Stderr, "exitcode: bad exit code %q\n", os.Args[1])
		os.Exit(2)
	}
	ctx, cancel := context.WithTimeout(context.Background(), exitcodeTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[2], os.Args[3:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	err = cmd.Run()
	got := 0
	var xe *exec.ExitError
	switch {
	case ctx.Err() != nil:
		fmt.Fprintf(os.Stderr, "exitcode: %s did not finish within %s\n", os.Args[2], exitcodeTimeout)
		os.Exit(1)
	case errors.As(err, &xe):
		got = xe.ExitCode()
	case err != nil:
		fmt.Fprintf(os.Stderr, "exitcode: %v\n", err)
		os.Exit(1)
	}
	if got != want {
		fmt.Fprintf(os.Stderr, "exitcode: %s: expected exit code %d, got %d\n", os.Args[2], want, got)
		os.Exit(1)
	}
	os.Exit(0)
}

// scriptCmds are the in-process script commands.
var scriptCmds = map[string]func(ts *testscript.TestScript, neg bool, args []string){
	"jsonpath":  cmdJSONPath,
	"jsonlen":   cmdJSONLen,
	"writefile": cmdWriteFile,
	"mkbig":     cmdMkbig,
	"mkdeep":    cmdMkdeep,
	"mkfifo":    cmdMkfifo,
	"hardlink":  cmdHardlink,
	"cptree":    cmdCptree,
	"envfile":   cmdEnvFile,
}

func noNeg(ts *testscript.TestScript, neg bool, name string) {
	if neg {
		ts.Fatalf("unsupported: ! %s", name)
	}
}

// cmdJSONPath: `jsonpath <file> <path> <want>` asserts the value at a dotted
// path (object keys and array indexes, e.g. trees.0.findings.1.code; "."
// is the whole document) equals want. want is JSON,
// or a plain string when it does not parse as JSON (so TREE_ROOT_MISSING
// needs no quotes, but the string "1" must be written '"1"').
// `jsonpath <file> <path>` asserts the path exists; `! jsonpath <file>
// <path>` that it does not; `! jsonpath <file> <path> <want>` that it
// exists with another value. <file> may be stdout or stderr.
func cmdJSONPath(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 && len(args) != 3 {
		ts.Fatalf("usage: jsonpath <file> <path> [<want>]")
	}
	got, err := lookup(readJSON(ts, args[0]), args[1])
	if len(args) == 2 {
		switch {
		case err != nil && !neg:
			ts.Fatalf("jsonpath: %v", err)
		case err == nil && neg:
			ts.Fatalf("jsonpath: %s is present: %s", args[1], compact(got))
		}
		return
	}
	if err != nil {
		ts.Fatalf("jsonpath: %v", err)
	}
	var want any
	if json.Unmarshal([]byte(args[2]), &want) != nil {
		want = args[2]
	}
	if eq := reflect.DeepEqual(got, want); eq == neg {
		ts.Fatalf("jsonpath: %s = %s; want %s%s", args[1], compact(got), map[bool]string{true: "anything but ", false: ""}[neg], compact(want))
	}
}

// cmdJSONLen: `jsonlen <file> <path> <n>` asserts the array or object at
// path has n elements.
func cmdJSONLen(ts *testscript.TestScript, neg bool, args []string) {
	noNeg(ts, neg, "jsonlen")
	if len(args) != 3 {
		ts.Fatalf("usage: jsonlen <file> <path> <n>")
	}
	got, err := lookup(readJSON(ts, args[0]), args[1])
	if err != nil {
		ts.Fatalf("jsonlen: %v", err)
	}
	n := -1
	switch v := got.(type) {
	case []any:
		n = len(v)
	case map[string]any:
		n = len(v)
	default:
		ts.Fatalf("jsonlen: %s is %s, not an array or object", args[1], compact(got))
	}
	if strconv.Itoa(n) != args[2] {
		ts.Fatalf("jsonlen: %s has %d elements; want %s: %s", args[1], n, args[2], compact(got))
	}
}

func readJSON(ts *testscript.TestScript, file string) any {
	var doc any
	if err := json.Unmarshal([]byte(ts.ReadFile(file)), &doc); err != nil {
		ts.Fatalf("%s is not JSON: %v", file, err)
	}
	return doc
}

func lookup(doc any, path string) (any, error) {
	cur := doc
	if path == "." {
		return cur, nil
	}
	segs := strings.Split(path, ".")
	for i, seg := range segs {
		at := strings.Join(segs[:i], ".")
		switch v := cur.(type) {
		case map[string]any:
			x, ok := v[seg]
			if !ok {
				return nil, fmt.Errorf("%s has no key %q (keys: %s)", orRoot(at), seg, keysOf(v))
			}
			cur = x
		case []any:
			n, err := strconv.Atoi(seg)
			if err != nil || n < 0 || n >= len(v) {
				return nil, fmt.Errorf("%s has no index %q (length %d)", orRoot(at), seg, len(v))
			}
			cur = v[n]
		default:
			return nil, fmt.Errorf("%s is %s, not an object or array", orRoot(at), compact(cur))
		}
	}
	return cur, nil
}

func orRoot(p string) string {
	if p == "" {
		return "the document"
	}
	return p
}

func keysOf(m map[string]any) string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	return strings.Join(ks, ", ")
}

func compact(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// cmdWriteFile: `writefile <file> <text>` writes text with Go escapes
// (\n, \t, \xff, \u00e9, …) interpreted, in the name as well as the
// content, so scripts can make invalid UTF-8, binary data and file names
// with control characters. Missing parent directories are created.
func cmdWriteFile(ts *testscript.TestScript, neg bool, args []string) {
	noNeg(ts, neg, "writefile")
	if len(args) != 2 {
		ts.Fatalf("usage: writefile <file> <go-escaped-text>")
	}
	name, content := ts.MkAbs(unescape(ts, args[0])), unescape(ts, args[1])
	ts.Check(os.MkdirAll(filepath.Dir(name), 0o755))
	ts.Check(os.WriteFile(name, []byte(content), 0o644))
}

// unescape interprets Go escapes in s; \xNN is one byte, even above 0x7f.
func unescape(ts *testscript.TestScript, s string) string {
	var b strings.Builder
	for len(s) > 0 {
		r, multibyte, tail, err := strconv.UnquoteChar(s, 0)
		if err != nil {
			ts.Fatalf("bad Go escapes in %q: %v", s, err)
		}
		if multibyte {
			b.WriteRune(r)
		} else {
			b.WriteByte(byte(r))
		}
		s = tail
	}
	return b.String()
}

// cmdMkbig: `mkbig <file> <bytes> [<head>]` writes a document of exactly
// that many bytes: head (Go escapes interpreted; default a descendant's
// frontmatter with title "Big") padded with lines of Markdown text.
func cmdMkbig(ts *testscript.TestScript, neg bool, args []string) {
	noNeg(ts, neg, "mkbig")
	if len(args) != 2 && len(args) != 3 {
		ts.Fatalf("usage: mkbig <file> <bytes> [<go-escaped-head>]")
	}
	n, err := strconv.Atoi(args[1])
	ts.Check(err)
	head := "---\ntitle: Big\n---\n\n"
	if len(args) == 3 {
		head = unescape(ts, args[2])
	}
	if n < len(head) {
		ts.Fatalf("mkbig: %d bytes is less than the head", n)
	}
	line := strings.Repeat("lorem ipsum ", 6) + "\n"
	buf := make([]byte, 0, n)
	buf = append(buf, head...)
	for len(buf) < n {
		buf = append(buf, line[:min(len(line), n-len(buf))]...)
	}
	ts.Check(os.WriteFile(ts.MkAbs(args[0]), buf, 0o644))
}

// cmdMkdeep: `mkdeep <dir> <n>` creates <dir>/d/d/…/d, n levels below
// <dir>, each with a valid NODE.md. It works relative to open directories,
// so depths whose path exceeds PATH_MAX can be made.
func cmdMkdeep(ts *testscript.TestScript, neg bool, args []string) {
	noNeg(ts, neg, "mkdeep")
	if len(args) != 2 {
		ts.Fatalf("usage: mkdeep <dir> <n>")
	}
	n, err := strconv.Atoi(args[1])
	ts.Check(err)
	fd, err := syscall.Open(ts.MkAbs(args[0]), syscall.O_RDONLY|syscall.O_DIRECTORY, 0)
	ts.Check(err)
	node := []byte("---\ntitle: Deep\n---\n\nOne level down.\n")
	for i := 0; i < n; i++ {
		if err := syscall.Mkdirat(fd, "d", 0o755); err != nil {
			syscall.Close(fd)
			ts.Fatalf("mkdeep: level %d: %v", i+1, err)
		}
		next, err := syscall.Openat(fd, "d", syscall.O_RDONLY|syscall.O_DIRECTORY, 0)
		syscall.Close(fd)
		ts.Check(err)
		fd = next
		f, err := syscall.Openat(fd, "NODE.md", syscall.O_WRONLY|syscall.O_CREAT|syscall.O_EXCL, 0o644)
		ts.Check(err)
		_, err = syscall.Write(f, node)
		syscall.Close(f)
		ts.Check(err)
	}
	syscall.Close(fd)
}

// cmdMkfifo: `mkfifo <file>` creates a named pipe.
func cmdMkfifo(ts *testscript.TestScript, neg bool, args []string) {
	noNeg(ts, neg, "mkfifo")
	if len(args) != 1 {
		ts.Fatalf("usage: mkfifo <file>")
	}
	ts.Check(syscall.Mkfifo(ts.MkAbs(args[0]), 0o644))
}

// cmdHardlink: `hardlink <old> <new>` makes new another name of old.
func cmdHardlink(ts *testscript.TestScript, neg bool, args []string) {
	noNeg(ts, neg, "hardlink")
	if len(args) != 2 {
		ts.Fatalf("usage: hardlink <old> <new>")
	}
	ts.Check(os.Link(ts.MkAbs(args[0]), ts.MkAbs(args[1])))
}

// cmdCptree: `cptree <src> <dst>` copies directories and regular files
// (dst must not exist).
func cmdCptree(ts *testscript.TestScript, neg bool, args []string) {
	noNeg(ts, neg, "cptree")
	if len(args) != 2 {
		ts.Fatalf("usage: cptree <src> <dst>")
	}
	src, dst := ts.MkAbs(args[0]), ts.MkAbs(args[1])
	ts.Check(filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		to := filepath.Join(dst, rel)
		switch {
		case d.IsDir():
			return os.Mkdir(to, 0o755)
		case d.Type().IsRegular():
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			return os.WriteFile(to, data, 0o644)
		default:
			return fmt.Errorf("cptree: %s is not a file or directory", p)
		}
	}))
}

// cmdEnvFile: `envfile <VAR> <file>` sets VAR to the file's first line
// (say, `exec git rev-parse HEAD` then `envfile HEAD stdout`).
func cmdEnvFile(ts *testscript.TestScript, neg bool, args []string) {
	noNeg(ts, neg, "envfile")
	if len(args) != 2 {
		ts.Fatalf("usage: envfile <VAR> <file>")
	}
	line, _, _ := strings.Cut(ts.ReadFile(args[1]), "\n")
	ts.Setenv(args[0], line)
}
