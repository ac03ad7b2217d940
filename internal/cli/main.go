// Package cli is the command line: kong command structs, one file per
// command, and presentation as text or contract JSON. Logic lives in
// internal/operations.
package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/alecthomas/kong"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/adapters/git"
	"github.com/git-context-tree/git-context-tree/internal/adapters/lock"
	"github.com/git-context-tree/git-context-tree/internal/adapters/state"
	"github.com/git-context-tree/git-context-tree/internal/environ"
	"github.com/git-context-tree/git-context-tree/internal/operations"
	"github.com/git-context-tree/git-context-tree/internal/redact"
)

// Globals are the options every command takes, before or after its name.
type Globals struct {
	Dir  string `short:"C" name:"dir" placeholder:"<dir>" help:"Run as if started in <dir>."`
	JSON bool   `name:"json" help:"Print the contract JSON (schemaVersion 3) on stdout."`
}

// commands is the command tree.
type commands struct {
	Globals

	Init     initCmd     `cmd:"" help:"Create a tree root (NODE.md), or adopt a folder or tree, and declare it."`
	Verify   verifyCmd   `cmd:"" help:"Verify trees: indexes, metadata, links and soft links."`
	Read     readCmd     `cmd:"" help:"Read one node with its metadata and immediate children."`
	Fix      fixCmd      `cmd:"" help:"Repair what is mechanical in a tree (a diff, or --write)."`
	Drift    driftCmd    `cmd:"" help:"List documents whose cited sources changed since they were read."`
	Evidence evidenceCmd `cmd:"" help:"Stamp documents' sources with the current commit and digest."`
	Cites    citesCmd    `cmd:"" help:"List the documents that cite a code path (or lines of it), and whether they are still true."`
	Eval     evalCmd     `cmd:"" help:"Measure whether the tree helps agents: frozen questions, recorded runs, blind grades, a report."`

	Connect    connectCmd    `cmd:"" group:"project" help:"Declare a tree (directory or GitHub repository) in .context-tree.json."`
	Disconnect disconnectCmd `cmd:"" group:"project" help:"Remove a tree's declaration (and nothing else)."`
	List       listCmd       `cmd:"" group:"project" help:"List declared trees with their selectors."`
	Resolve    resolveCmd    `cmd:"" group:"project" help:"Resolve declared trees to directories, repositories and commits."`
	Sync       syncCmd       `cmd:"" group:"project" help:"Fetch git sources into local caches and snapshots."`
	GC         gcCmd         `cmd:"" name:"gc" group:"project" help:"Remove old snapshots and compact repository caches."`

	Write   writeCmd   `cmd:"" group:"write" help:"Write sessions: prepare, finish, abort, list, show."`
	Prepare prepareCmd `cmd:"" group:"write" help:"Same as write prepare."`
	Finish  finishCmd  `cmd:"" group:"write" help:"Same as write finish."`
	Abort   abortCmd   `cmd:"" group:"write" help:"Same as write abort."`

	Hooks hooksCmd `cmd:"" help:"Install, remove or check the pre-commit hook."`

	Cleanup    cleanupCmd    `cmd:"" help:"Scheduled cleanup by a coding agent: schedule, unschedule, list, status, run, logs."`
	Skills     skillsCmd     `cmd:"" help:"Install, remove and list the agent skills (context-tree-*)."`
	AgentHooks agentHooksCmd `cmd:"" name:"agent-hooks" help:"Install, remove or show the agent-host hook that attaches citing documents to file reads."`
	Doctor     doctorCmd     `cmd:"" help:"Check this machine's and this project's setup; print the fix for each problem."`
	MCP        mcpCmd        `cmd:"" name:"mcp" help:"Serve the trees read-only over the Model Context Protocol (stdio); configure hosts."`
	Export     exportCmd     `cmd:"" help:"Generated views of a tree: llms.txt and llms-full.txt, the .ctxfile envelope, a static site."`
	Serve      serveCmd      `cmd:"" help:"Preview a tree's static site on loopback; rebuilt when files change."`
	Schema     schemaCmd     `cmd:"" help:"Print the JSON Schemas of the public contracts."`
	Version    versionCmd    `cmd:"" help:"Print version and build information (also --version)."`
	Help       helpCmd       `cmd:"" help:"Print a command's usage, as <command> -h does."`
	Completion completionCmd `cmd:"" help:"Print the shell completion script for bash, zsh or fish."`
	Complete   completeCmd   `cmd:"" name:"__complete" hidden:"" help:"Print completion candidates (for the completion scripts)."`
	Man        manCmd        `cmd:"" help:"Print the man page, or install it (--install) so that git context-tree --help opens it."`
}

const description = `Keep a Context Tree: a directory of Markdown knowledge rooted at NODE.md
that people and coding agents read and maintain together.

Exit codes: 0 ok, 1 check failed (report printed), 3 refused (nothing
changed), 128 fatal, 129 usage, 130 interrupted.

--version prints the version; "completion bash|zsh|fish" prints shell
completion.`

// Process is what a command line runs in: the process's working directory
// and environment (os.Getwd and os.Environ for the binary), its standard
// streams. Main reads nothing else of the process, so commands may run side
// by side in one (tests run the product in-process, in parallel). Dir ""
// is a working directory that could not be determined; a nil Stdin reads
// nothing.
type Process struct {
	Dir    string
	Env    []string
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
}

// Main runs the command line args in proc and returns the process exit
// code.
func Main(proc Process, args []string) int {
	stdin, stdout, stderr := proc.Stdin, proc.Stdout, proc.Stderr
	if stdin == nil {
		stdin = strings.NewReader("")
	}
	// Nothing leaves the process unredacted: text is redacted per write,
	// JSON per string literal (writeJSON).
	rawOut, rawErr := stdout, stderr
	stdout, stderr = redact.Writer{W: stdout}, redact.Writer{W: stderr}
	if len(args) == 0 {
		if err := printCommandList(stdout); err != nil {
			fmt.Fprintf(stderr, "fatal: %v\n", err)
			return contracts.ExitFatal
		}
		return contracts.ExitOK
	}
	args = versionFlagAsCommand(args)
	model, globals := commandModel(args)
	exited, exitCode := false, 0
	parser, err := newParser(model, stdout, stderr, func(code int) { exited, exitCode = true, code })
	if err != nil {
		fmt.Fprintf(stderr, "fatal: %v\n", err)
		return contracts.ExitFatal
	}
	kctx, err := parser.Parse(args)
	if exited {
		return exitCode
	}
	if err != nil {
		if wantsJSON(args) {
			c := &Context{Globals: Globals{JSON: true}, Stdout: stdout, Stderr: stderr}
			c.writeJSON(contracts.ErrorEnvelope{SchemaVersion: contracts.CLIVersion, Error: contracts.Errorf(contracts.CodeUsage, "%v", err)})
		}
		fmt.Fprintf(stderr, "usage: %v\n", err)
		fmt.Fprintln(stderr, "Run 'git context-tree -h' (or '<command> -h') for usage.")
		return contracts.ExitUsage
	}

	if !globals.JSON {
		// Text for a person: a terminal gets it escaped (terminalSafe).
		stdout, stderr = redact.Writer{W: terminalSafe(rawOut)}, redact.Writer{W: terminalSafe(rawErr)}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	c, err := newContext(ctx, proc, *globals, stdin, stdout, stderr, standalone(kctx))
	c.statusErr = redact.Writer{W: rawErr}
	if err == nil {
		err = kctx.Run(c)
	}
	if ctx.Err() != nil && !endsOnSignal(kctx) {
		fmt.Fprintln(stderr, "fatal: interrupted")
		return contracts.ExitSignal
	}
	return c.finish(err)
}

// newParser is the command line's kong parser over model (commandModel).
func newParser(model any, stdout, stderr io.Writer, exit func(int)) (*kong.Kong, error) {
	return kong.New(model,
		kong.Name("git context-tree"),
		kong.Description(description),
		kong.Writers(stdout, stderr),
		kong.Exit(exit),
		kong.ConfigureHelp(kong.HelpOptions{Compact: true}),
		kong.Help(gitHelp),
		kong.ExplicitGroups([]kong.Group{
			{Key: "project", Title: "Declared trees (.context-tree.json):"},
			{Key: "write", Title: "Write sessions:"},
		}),
	)
}

// wantsJSON reports --json among arguments that failed to parse, so even a
// usage error reaches a script as the JSON error envelope.
func wantsJSON(args []string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		if a == "--json" {
			return true
		}
	}
	return false
}

// gitHelp is kong's help with "-h" advertised instead of "--help", which
// git intercepts to open a man page.
func gitHelp(options kong.HelpOptions, ctx *kong.Context) error {
	var buf bytes.Buffer
	out := ctx.Stdout
	ctx.Stdout = &buf
	err := kong.DefaultHelpPrinter(options, ctx)
	ctx.Stdout = out
	if err != nil {
		return err
	}
	_, err = io.WriteString(out, strings.ReplaceAll(buf.String(), "<command> --help\"", "<command> -h\""))
	return err
}

// Context is what every command's Run receives.
type Context struct {
	context.Context
	Globals
	Env    operations.Env
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	// statusErr is stderr without the terminal escaping, for a status line
	// the tool draws itself (its own \r and erase sequences; the text in
	// it escaped by the drawer).
	statusErr io.Writer
}

// selfContained marks commands that only print what the binary holds
// (version, schemas): they need neither machine state nor lock settings, so
// a bad CONTEXT_TREE_LOCK_WAIT or an unset HOME cannot break them.
type selfContained interface{ selfContained() }

// signalEnded marks commands that run until interrupted (serve, mcp
// --http): SIGINT or SIGTERM is their normal end, not a failure.
type signalEnded interface{ endsOnSignal() bool }

func endsOnSignal(kctx *kong.Context) bool {
	node := kctx.Selected()
	if node == nil || !node.Target.CanAddr() {
		return false
	}
	s, ok := node.Target.Addr().Interface().(signalEnded)
	return ok && s.endsOnSignal()
}

func standalone(kctx *kong.Context) bool {
	node := kctx.Selected()
	if node == nil || !node.Target.CanAddr() {
		return false
	}
	_, ok := node.Target.Addr().Interface().(selfContained)
	return ok
}

// newContext checks -C and, unless the command is standalone, reads the
// environment every operation runs with.
func newContext(ctx context.Context, proc Process, g Globals, stdin io.Reader, stdout, stderr io.Writer, standalone bool) (*Context, error) {
	c := &Context{Context: ctx, Globals: g, Stdin: stdin, Stdout: stdout, Stderr: stderr}
	wd := proc.Dir
	switch {
	case wd == "":
		return c, contracts.Errorf(contracts.CodeIO, "cannot determine the working directory")
	case !filepath.IsAbs(wd):
		return c, contracts.Errorf(contracts.CodeIO, "cannot determine the working directory: %q is not an absolute path", wd)
	}
	dir := wd
	if g.Dir != "" {
		dir = g.Dir
		if !filepath.IsAbs(dir) {
			dir = filepath.Join(wd, dir)
		}
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
			return c, contracts.Errorf(contracts.CodeUsage, "cannot change to %s: not a directory", g.Dir)
		}
	}
	vars := environ.Vars(proc.Env)
	c.Env.Dir, c.Env.Vars = filepath.Clean(dir), vars
	if standalone {
		return c, nil
	}
	wait, err := lockWait(vars)
	if err != nil {
		return c, err
	}
	home, err := state.Locate(vars, c.Env.Dir)
	if err != nil {
		return c, err
	}
	c.Env = operations.Env{Dir: c.Env.Dir, Vars: vars, Git: git.New(vars), Home: home, LockWait: wait, LockWaiting: c.lockWaiting}
	return c, nil
}

// lockWaitVar overrides how long commands wait for a lock held by a live
// process (a Go duration; 0 fails at once).
const lockWaitVar = "CONTEXT_TREE_LOCK_WAIT"

func lockWait(env environ.Vars) (time.Duration, error) {
	v := env.Get(lockWaitVar)
	if v == "" {
		return 10 * time.Second, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d < 0 {
		return 0, contracts.Errorf(contracts.CodeUsage, "%s=%q is not a duration such as 10s", lockWaitVar, v)
	}
	return d, nil
}

// lockWaiting says on stderr (never stdout, --json or not) who holds the
// lock a command has been waiting for, and for how long it will wait.
func (c *Context) lockWaiting(h lock.Holder) {
	who := fmt.Sprintf("process %d", h.PID)
	if h.Purpose != "" {
		who += " (" + h.Purpose + ")"
	}
	fmt.Fprintf(c.Stderr, "waiting for %s, held by %s; giving up after %s (%s sets how long)\n", h.Path, who, c.Env.LockWait, lockWaitVar)
}

// exitStatus is a non-zero exit after the command printed its full report.
type exitStatus int

func (e exitStatus) Error() string { return fmt.Sprintf("exit status %d", int(e)) }

// finish turns a command's error into output and an exit code: the error
// envelope on stdout with --json, one line on stderr without.
func (c *Context) finish(err error) int {
	if err == nil {
		return contracts.ExitOK
	}
	var st exitStatus
	if errors.As(err, &st) {
		return int(st)
	}
	var ce *contracts.Error
	if !errors.As(err, &ce) {
		ce = &contracts.Error{Code: contracts.CodeInternal, Message: err.Error()}
	} else if ce.Message != err.Error() {
		ce = &contracts.Error{Code: ce.Code, Message: err.Error(), Details: ce.Details}
	}
	// No message may carry a credential, whatever produced it; details are
	// redacted with the JSON document (writeJSON) or the text lines.
	ce = &contracts.Error{Code: ce.Code, Message: redact.String(ce.Message), Details: ce.Details}
	code := ce.Code.ExitCode()
	if c.JSON {
		c.writeJSON(contracts.ErrorEnvelope{SchemaVersion: contracts.CLIVersion, OK: false, Error: ce})
	}
	prefix := "fatal"
	if code == contracts.ExitRefused || code == contracts.ExitFailed {
		prefix = "error"
	} else if code == contracts.ExitUsage {
		prefix = "usage"
	}
	if findings, ok := ce.Details["findings"].([]contracts.Finding); ok && !c.JSON {
		root, _ := ce.Details["root"].(string)
		for _, f := range findings {
			fmt.Fprintln(c.Stderr, c.findingLine(root, f))
		}
	}
	fmt.Fprintf(c.Stderr, "%s: %s\n", prefix, ce.Message)
	if matches, ok := ce.Details["matches"].([]string); ok && ce.Code == contracts.CodeSelectorAmbiguous && !c.JSON {
		// The exact selectors, one a line, ready to copy.
		for _, m := range matches {
			fmt.Fprintf(c.Stderr, "  %s\n", m)
		}
	}
	return code
}
