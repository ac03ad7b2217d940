package test

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"

	"github.com/git-context-tree/git-context-tree/internal/cli"
)

// programs are the test binary's own programs on the scripts' PATH, each
// a link to (or copy of) the test binary that runs the function named by
// its os.Args[0]. git-context-tree there is the product itself, built once
// (theProduct): git needs it as a program (hooks, `git context-tree`), and
// background runs (`exec git-context-tree … &`) and kills need a process.
// The built binary starts in half the time of the test binary (which links
// the test-only JSON Schema validator, whose init compiles meta-schemas)
// and is what users install; the scripts' own git-context-tree command runs
// in-process and checks every --json output against its schema.
var programs = map[string]func(){
	"exitcode": exitcode,
}

// TestMain is either one of programs or the test run. It does what
// testscript.Main does, without registering the programs as script
// commands: the script commands git-context-tree and exitcode run the
// product in-process instead (see inprocess_test.go).
func TestMain(m *testing.M) {
	if run, ok := programs[filepath.Base(os.Args[0])]; ok {
		run()
		os.Exit(0)
	}
	os.Exit(runTests(m))
}

func runTests(m *testing.M) int {
	bin, err := os.MkdirTemp("", "git-context-tree-test-bin")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	defer os.RemoveAll(bin)
	defer theProduct.remove()
	if err := installPrograms(bin); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	// Before any test runs, and never again: in-process runs get their
	// environment explicitly (cli.Process), so the process's is read only.
	os.Setenv("PATH", bin+string(filepath.ListSeparator)+os.Getenv("PATH"))
	moreInFlight()
	return m.Run()
}

// moreInFlight runs twice as many parallel tests as there are CPUs (at
// least 4) unless -test.parallel was given: a scenario spends much of its
// time waiting for child processes (git, agents' timeouts, background
// runs), so with one in flight per CPU the CPUs idle and the package's
// run was the README's test command's long pole.
func moreInFlight() {
	flag.Parse()
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	if !set {
		flag.Set("test.parallel", strconv.Itoa(max(4, 2*runtime.GOMAXPROCS(0))))
	}
}

// scratchProcess is a cli.Process for a command run outside the scripts:
// the test process's environment, in a directory of its own with a state
// directory of its own.
func scratchProcess(t *testing.T, stdout, stderr io.Writer) cli.Process {
	env := append(os.Environ(), "CONTEXT_TREE_HOME="+t.TempDir())
	return cli.Process{Dir: t.TempDir(), Env: env, Stdout: stdout, Stderr: stderr}
}

// installPrograms links (or copies) the built product and the test binary
// into bin, the latter under each program's name.
func installPrograms(bin string) error {
	product, err := theProduct.get()
	if err != nil {
		return err
	}
	if err := linkOrCopy(filepath.Join(product, "git-context-tree"), filepath.Join(bin, "git-context-tree")); err != nil {
		return fmt.Errorf("install git-context-tree: %w", err)
	}
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("find the test binary: %w", err)
	}
	for name := range programs {
		if err := linkOrCopy(exe, filepath.Join(bin, name)); err != nil {
			return fmt.Errorf("install %s: %w", name, err)
		}
	}
	return nil
}

// linkOrCopy makes to the same file as from: a hard link, or a copy where
// the two directories are on different file systems.
func linkOrCopy(from, to string) error {
	if os.Link(from, to) == nil {
		return nil
	}
	return copyFile(from, to)
}

func copyFile(from, to string) error {
	src, err := os.Open(from)
	if err != nil {
		return err
	}
	defer src.Close()
	dst, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o755)
	if err != nil {
		return err
	}
	if _, err := io.Copy(dst, src); err != nil {
		dst.Close()
		return err
	}
	return dst.Close()
}
