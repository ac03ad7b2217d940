// End-to-end scenarios: every test/testdata/*.txtar script runs the real
// command line (cli.Main, as the installed binary would) against real
// directories and real git, in a private HOME.
//
// The product is a script command, run in-process (inprocess_test.go):
//
//	git-context-tree <args>             expect exit 0 (! : any non-zero)
//	exitcode N git-context-tree <args>  expect exit code N
//	exitcode N <prog> <args>            any other program, expect N
//
// With --json its stdout is also validated against the command's JSON
// Schema. The same names are programs on the scripts' PATH (main_test.go;
// git-context-tree there is the built product, whose output is not
// validated), for git (hooks, `git context-tree`) and for what needs a
// process of its own: `exec git-context-tree … &` in the background,
// stdin, kill.
// `exec exitcode N git-context-tree …` works too, one process slower.
//
// These script commands are also available (see scriptCmds):
//
//	jsonpath <file|stdout> <path> [<want>]   assert a JSON value
//	jsonlen <file|stdout> <path> <n>         assert an array's length
//	writefile <file> <go-escaped-text>       write arbitrary bytes
//	mkbig <file> <bytes> [<head>]            a Markdown file of that size
//	mkdeep <dir> <n> [<name>]                n nested indexed directories
//	mkfifo <file>                            a named pipe
//	hardlink <old> <new>                     a second name for a file
//	cptree <src> <dst>                       copy a directory tree
//	envfile <VAR> <file|stdout> [<path>]     set VAR to a file's first line, or a JSON string at path
//	jsonschema <file|stdout> <schema>        validate against a contract schema
//	ctxfilereader <file>                     a reader typed from the .ctxfile convention accepts it
package test

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

func TestScripts(t *testing.T) {
	repoRoot, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, testscript.Params{
		Dir:                 filepath.Join(repoRoot, "test", "testdata"),
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

// gitConfig is every script's global git configuration. The scripts' own
// commits and pushes start no automatic maintenance (the product's
// commands never do, see the git adapter's hardening): over the suite it
// was hundreds of processes, a few percent of the README's test command.
const gitConfig = `[user]
	name = Test User
	email = test@example.com
[init]
	defaultBranch = main
[core]
	autocrlf = false
[advice]
	detachedHead = false
[uploadpack]
	allowFilter = true
[maintenance]
	auto = false
[receive]
	autogc = false
`

// The local "GitHub" serves partial clones, as GitHub does: caches are
// then filtered, and a script tests the fallback by turning filters off.

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
		// No script reaches the network: "GitHub" is a local bare
		// repository through insteadOf (file:), and https is refused at
		// once (connect's branch check then finds the remote unreachable).
		{"GIT_ALLOW_PROTOCOL", "file"},
	} {
		env.Setenv(kv[0], kv[1])
	}
	return nil
}

// scriptCmds are the in-process script commands.
var scriptCmds = map[string]func(ts *testscript.TestScript, neg bool, args []string){
	"git-context-tree": cmdProduct,
	"exitcode":         cmdExitcode,
	"jsonpath":         cmdJSONPath,
	"jsonlen":          cmdJSONLen,
	"writefile":        cmdWriteFile,
	"mkbig":            cmdMkbig,
	"mkdeep":           cmdMkdeep,
	"mkfifo":           cmdMkfifo,
	"hardlink":         cmdHardlink,
	"cptree":           cmdCptree,
	"envfile":          cmdEnvFile,
	"jsonschema":       cmdJSONSchema,
	"ctxfilereader":    cmdCtxfileReader,
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

// cmdJSONSchema: `jsonschema <file> <name>` asserts the file is valid
// against the named contract schema (`git context-tree schema <name>`), for
// JSON the product writes to files rather than prints.
func cmdJSONSchema(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: jsonschema <file> <schema>")
	}
	v, err := validator()
	if err != nil {
		ts.Fatalf("jsonschema: %v", err)
	}
	err = v.Validate(args[1], []byte(ts.ReadFile(args[0])))
	switch {
	case err != nil && !neg:
		ts.Fatalf("jsonschema: %s does not match schema %s: %v", args[0], args[1], err)
	case err == nil && neg:
		ts.Fatalf("jsonschema: %s matches schema %s", args[0], args[1])
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

// cmdMkdeep: `mkdeep <dir> <n> [<name>]` creates <dir>/<name>/…/<name>
// (name defaults to d), n levels below <dir>, each with a valid NODE.md.
// Each level is made through an os.Root on its parent, so paths longer
// than PATH_MAX can be made; long names get there in few levels (the
// kernel resolves every component of every path: time grows with n²).
func cmdMkdeep(ts *testscript.TestScript, neg bool, args []string) {
	noNeg(ts, neg, "mkdeep")
	if len(args) != 2 && len(args) != 3 {
		ts.Fatalf("usage: mkdeep <dir> <n> [<name>]")
	}
	n, err := strconv.Atoi(args[1])
	ts.Check(err)
	name := "d"
	if len(args) == 3 {
		name = args[2]
	}
	dir, err := os.OpenRoot(ts.MkAbs(args[0]))
	ts.Check(err)
	node := []byte("---\ntitle: Deep\n---\n\nOne level down.\n")
	for i := 0; i < n; i++ {
		err := dir.Mkdir(name, 0o755)
		var next *os.Root
		if err == nil {
			next, err = dir.OpenRoot(name)
		}
		dir.Close()
		if err != nil {
			ts.Fatalf("mkdeep: level %d: %v", i+1, err)
		}
		dir = next
		ts.Check(dir.WriteFile("NODE.md", node, 0o644))
	}
	dir.Close()
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
// (say, `exec git rev-parse HEAD` then `envfile HEAD stdout`); with a
// path, to the JSON string there (`envfile RUN stdout id`).
func cmdEnvFile(ts *testscript.TestScript, neg bool, args []string) {
	noNeg(ts, neg, "envfile")
	switch len(args) {
	case 2:
		line, _, _ := strings.Cut(ts.ReadFile(args[1]), "\n")
		ts.Setenv(args[0], line)
	case 3:
		v, err := lookup(readJSON(ts, args[1]), args[2])
		str, ok := v.(string)
		if err != nil || !ok {
			ts.Fatalf("envfile: %s in %s is not a string: %v", args[2], args[1], err)
		}
		ts.Setenv(args[0], str)
	default:
		ts.Fatalf("usage: envfile <VAR> <file> [<json path>]")
	}
}
