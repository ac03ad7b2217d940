package test

// The product as scripts run it, and the JSON contract check applied to
// every --json run.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"

	"github.com/git-context-tree/git-context-tree/internal/cli"
	"github.com/git-context-tree/git-context-tree/internal/schematest"
)

// jsonResultSchemas maps a command, by its leading words, to the JSON Schema
// of its --json result. The longest match wins ("w1 w2", then "w1 *", then
// "w1"); "" means the output is not a contract result and is not checked.
// Add one row per new command.
var jsonResultSchemas = map[string]string{
	"init":           "init",
	"verify":         "verify",
	"fix":            "fix",
	"drift":          "drift",
	"cites":          "cites",
	"agent-hooks":    "agent-hooks",
	"eval freeze":    "eval-freeze",
	"eval run":       "eval-run",
	"eval grade":     "eval-grade",
	"eval report":    "eval-report",
	"evidence stamp": "evidence-stamp",
	"read":           "read",
	"version":        "version",
	"man":            "man",
	"help":           "", // prints -h's text, with or without --json
	"completion":     "completion",
	"__complete":     "", // candidates one a line for the shell scripts
	"schema":         "schema-list",
	"schema *":       "", // `schema <name>` prints a raw JSON Schema

	"connect":    "connection-change",
	"disconnect": "connection-change",
	"list":       "list",
	"resolve":    "resolve",

	"sync":          "sync",
	"gc":            "gc",
	"write prepare": "session",
	"write finish":  "session",
	"write abort":   "session",
	"write show":    "session",
	"write list":    "session-list",
	"write prune":   "session-prune",
	"write update":  "session",
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

	"doctor":         "doctor",
	"mcp config":     "mcp-config",
	"mcp":            "", // serves JSON-RPC on stdio, not a --json result
	"mcp serve":      "",
	"mcp --http":     "mcp-http",
	"export llms":    "export-llms",
	"export ctxfile": "export-ctxfile",
	"export site":    "export-site",
	"serve":          "serve",
}

// runProduct runs a command line as the installed binary does. With --json
// (and no help flag) stdout must be exactly one JSON document matching the
// command's schema, or the error envelope's: else the error says why.
func runProduct(proc cli.Process, args []string) (int, error) {
	if !hasArg(args, "--json") || hasArg(args, "-h") || hasArg(args, "--help") {
		return cli.Main(proc, args), nil
	}
	stdout := proc.Stdout
	var out bytes.Buffer
	proc.Stdout = &out
	code := cli.Main(proc, args)
	if _, err := stdout.Write(out.Bytes()); err != nil {
		return code, fmt.Errorf("write stdout: %w", err)
	}
	return code, checkJSON(args, code, out.Bytes())
}

// validator compiles the contract schemas once per process (in-process
// runs share it).
var validator = sync.OnceValues(schematest.New)

// checkJSON checks a --json run's stdout: one JSON document matching the
// command's result schema, or the error envelope with a non-zero exit.
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
	v, err := validator()
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
		case a == "--version" && len(words) == 0: // the version command
			words = append(words, "version")
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

// exitcode is the program `exitcode N prog args...`: run prog with inherited
// stdio and exit 0 iff its exit code is N. Scripts use the in-process
// exitcode command instead; this one is kept for `exec exitcode …` lines.
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
	cmd := exec.Command(os.Args[2], os.Args[3:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	got, err := exitCodeOf(cmd.Run())
	if err != nil {
		fmt.Fprintf(os.Stderr, "exitcode: %v\n", err)
		os.Exit(1)
	}
	if got != want {
		fmt.Fprintf(os.Stderr, "exitcode: %s: expected exit code %d, got %d\n", os.Args[2], want, got)
		os.Exit(1)
	}
	os.Exit(0)
}

// exitCodeOf is a finished program's exit code, or the error that kept it
// from running.
func exitCodeOf(err error) (int, error) {
	var xe *exec.ExitError
	switch {
	case err == nil:
		return 0, nil
	case errors.As(err, &xe) && xe.Exited():
		return xe.ExitCode(), nil
	}
	return -1, err
}
