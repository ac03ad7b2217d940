package test

// In-process runs of the product. The script commands git-context-tree and
// exitcode call cli.Main inside the test process, as cmd/git-context-tree
// does, with the script's working directory and environment: no fork and
// exec of the test binary (and of a wrapper checking its exit code) per
// command, and the contract schemas compiled once.

import (
	"bytes"
	"fmt"
	"reflect"
	"runtime/debug"
	"strconv"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/git-context-tree/git-context-tree/internal/cli"
)

// cmdProduct: `git-context-tree <args>` runs the product in-process and
// expects exit 0; `! git-context-tree <args>` expects a non-zero exit.
func cmdProduct(ts *testscript.TestScript, neg bool, args []string) {
	switch code := runInProcess(ts, args); {
	case neg && code == 0:
		ts.Fatalf("git-context-tree: unexpected exit 0")
	case !neg && code != 0:
		ts.Fatalf("git-context-tree: exit %d", code)
	}
}

// cmdExitcode: `exitcode N git-context-tree <args>` runs the product
// in-process and expects exit code N. `exitcode N <prog> <args>` runs any
// other program, as exec does, and expects exit code N.
func cmdExitcode(ts *testscript.TestScript, neg bool, args []string) {
	noNeg(ts, neg, "exitcode")
	if len(args) < 2 {
		ts.Fatalf("usage: exitcode N prog [args...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("exitcode: bad exit code %q", args[0])
	}
	var got int
	if args[1] == "git-context-tree" {
		got = runInProcess(ts, args[2:])
	} else {
		got, err = exitCodeOf(ts.Exec(args[1], args[2:]...))
		ts.Check(err)
	}
	if got != want {
		ts.Fatalf("exitcode: %s: expected exit code %d, got %d", args[1], want, got)
	}
}

// runInProcess runs the product with the script's directory and
// environment (cli.Process: the product reads neither from the process, so
// scripts run in parallel); its output becomes the script's stdout and
// stderr. A --json run that breaks its contract fails the script.
func runInProcess(ts *testscript.TestScript, args []string) int {
	if scriptField(ts, "stdin") != "" {
		ts.Fatalf("git-context-tree runs in-process without stdin: use exec git-context-tree after stdin")
	}
	dir := ts.MkAbs(".")
	var stdout, stderr bytes.Buffer
	proc := cli.Process{Dir: dir, Env: append(scriptEnv(ts), "PWD="+dir), Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr}
	code, err := func() (code int, err error) {
		// A panic fails this script, as a crashed process would, not the
		// whole test binary.
		defer func() {
			if r := recover(); r != nil {
				code, err = 2, fmt.Errorf("panic: %v\n%s", r, debug.Stack())
			}
		}()
		code, err = runProduct(proc, args)
		if err != nil {
			err = fmt.Errorf("--json output: %w", err)
		}
		return code, err
	}()
	ts.Stdout().Write(stdout.Bytes())
	ts.Stderr().Write(stderr.Bytes())
	if code != 0 {
		ts.Logf("[exit status %d]", code)
	}
	if err != nil {
		ts.Fatalf("git-context-tree %s (exit %d): %v", strings.Join(args, " "), code, err)
	}
	return code
}

// scriptEnv is the environment testscript gives an exec: its own list,
// changed by `env` lines. testscript keeps the list unexported and offers
// only Getenv by name, so it is read, never written, by reflection
// (go-internal is pinned in go.mod; a rename fails every script loudly).
func scriptEnv(ts *testscript.TestScript) []string {
	f := reflect.ValueOf(ts).Elem().FieldByName("env")
	if f.Kind() != reflect.Slice || f.Type().Elem().Kind() != reflect.String {
		ts.Fatalf("testscript.TestScript has no env []string field: update scriptEnv")
	}
	env := make([]string, f.Len())
	for i := range env {
		env[i] = f.Index(i).String()
	}
	return env
}

// scriptField reads an unexported string field of the script state (see
// scriptEnv).
func scriptField(ts *testscript.TestScript, name string) string {
	f := reflect.ValueOf(ts).Elem().FieldByName(name)
	if f.Kind() != reflect.String {
		ts.Fatalf("testscript.TestScript has no %s string field: update scriptField", name)
	}
	return f.String()
}
