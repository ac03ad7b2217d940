package cleanup

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/adapters/agent"
	"github.com/git-context-tree/git-context-tree/internal/adapters/git"
	"github.com/git-context-tree/git-context-tree/internal/adapters/history"
	"github.com/git-context-tree/git-context-tree/internal/operations"
	"github.com/git-context-tree/git-context-tree/internal/operations/session"
	"github.com/git-context-tree/git-context-tree/internal/tree"
)

// RunRequest names the schedule `cleanup run` runs: by selector or id;
// or, with Agent or AgentCommand, an ad hoc run of a declared source
// (no schedule needed: cron, CI, a person) with its own policy.
type RunRequest struct {
	Selector   string
	ScheduleID string
	// Ad hoc runs: the agent (claude, codex, pi) or a command line, the
	// publication policy and the agent's timeout (default 30m).
	Agent        string
	AgentCommand string
	Publish      bool
	Timeout      time.Duration
	// Progress, when set, is told each phase of the run as it begins.
	Progress func(phase string)
}

// AdHoc reports an ad hoc run.
func (req RunRequest) AdHoc() bool { return req.Agent != "" || req.AgentCommand != "" }

// cleanupRun is one run in progress.
type cleanupRun struct {
	env    operations.Env
	sched  *contracts.Schedule
	raw    []byte // the schedule record as the run started
	store  history.Store
	rec    *contracts.RunRecord
	start  time.Time
	output *boundedBuffer
	// progress reports phases (never nil).
	progress func(string)
}

// Run runs a schedule once (S19): under the schedule's lock it
// syncs the source, stops with "unchanged" when the input subtree's digest
// is the last successful run's, else prepares a write session, runs the
// agent in it while watching the schedule, the source and the branch,
// accepts only edits to normal and member Markdown documents in the tree,
// and finishes the session with the stored policy. Every failure keeps the
// session. The run is recorded in the schedule's history.
func Run(ctx context.Context, env operations.Env, req RunRequest) (*contracts.CleanupRunResult, error) {
	var sched *contracts.Schedule
	var raw []byte
	var err error
	if req.AdHoc() {
		sched, err = adHocSchedule(ctx, env, req)
	} else {
		sched, err = findSchedule(ctx, env, req.Selector, req.ScheduleID)
		if err == nil {
			_, raw, err = loadSchedule(env, sched.ID)
		}
	}
	if err != nil {
		return nil, err
	}
	runEnv := env
	runEnv.Dir = sched.ProjectRoot
	if fi, err := os.Stat(sched.Git); err == nil && !fi.IsDir() {
		runEnv.Git = &git.Git{Path: sched.Git, Env: env.Vars}
	}
	id, err := uuid.NewV7()
	if err != nil {
		return nil, err
	}
	r := &cleanupRun{env: runEnv, sched: sched, raw: raw, start: time.Now(), progress: req.Progress,
		store: history.Store{Home: env.Home, ScheduleID: sched.ID},
		rec: &contracts.RunRecord{ID: id.String(), ScheduleID: sched.ID, StartedAt: time.Now().UTC().Format(time.RFC3339Nano),
			AdHoc: req.AdHoc(), Owner: os.Getpid()}}
	if r.progress == nil {
		r.progress = func(string) {}
	}
	lk, err := env.Home.Lock("cleanup."+sched.ID, "cleanup run "+r.rec.ID, 0)
	if err != nil {
		var ce *contracts.Error
		if errors.As(err, &ce) && ce.Code == contracts.CodeLockHeld {
			r.rec.Outcome, r.rec.Reason = contracts.OutcomeRunning, "another run of this source and branch is in progress"
			r.rec.Error = ce
			return r.result(), nil
		}
		return nil, err
	}
	defer lk.Release()
	// Holding the lock, any run still recorded as interrupted and never
	// finished was left behind by a process that died.
	r.recoverStale()
	// Recorded first as interrupted: what it stays if this process dies.
	r.rec.Outcome = contracts.OutcomeInterrupted
	if err := r.store.Save(r.rec); err != nil {
		return nil, err
	}
	r.execute(ctx)
	if ctx.Err() != nil && !succeeded(r.rec.Outcome) {
		why := "interrupted by a signal"
		if r.rec.Session != "" && r.rec.Worktree != "" {
			why += "; the agent was stopped and the session kept"
		}
		r.rec.Outcome, r.rec.Reason, r.rec.Error = contracts.OutcomeInterrupted, why, nil
	}
	r.rec.AgentPID = 0
	r.progress("done: " + r.rec.Outcome)
	return r.result(), r.finish()
}

func succeeded(outcome string) bool {
	switch outcome {
	case contracts.OutcomeUnchanged, contracts.OutcomeNoop, contracts.OutcomeCommitted, contracts.OutcomePublished:
		return true
	}
	return false
}

// adHocSchedule is the unrecorded schedule an ad hoc run runs under: the
// id (and so the lock, the history and the checkpoint) of the source and
// branch, which a recorded schedule of the same source shares, with the
// request's agent and policy. The history bounds are the recorded
// schedule's when there is one.
func adHocSchedule(ctx context.Context, env operations.Env, req RunRequest) (*contracts.Schedule, error) {
	if req.ScheduleID != "" {
		return nil, contracts.Errorf(contracts.CodeUsage, "--schedule runs a recorded schedule with its own agent: drop --agent/--agent-command, or name the tree instead")
	}
	if req.Agent != "" && req.AgentCommand != "" {
		return nil, contracts.Errorf(contracts.CodeUsage, "use --agent or --agent-command, not both")
	}
	p, c, branch, err := cleanupSource(ctx, env, req.Selector)
	if err != nil {
		return nil, err
	}
	if req.Publish && c.Source.Kind != contracts.SourceGit {
		return nil, contracts.Errorf(contracts.CodePublishUnsupported, "only git sources are published; %s is a directory source: run it without --publish", c.Exact)
	}
	name := req.Agent
	if req.AgentCommand != "" {
		name = "custom"
	}
	args, err := agent.CommandLine(name, req.AgentCommand, env.Vars, env.Dir)
	if err != nil {
		return nil, err
	}
	s := &contracts.Schedule{
		ID: ScheduleID(c.Identity, branch), Connection: c.Ref(), Identity: c.Identity, ProjectRoot: p.Root, Branch: branch,
		Publish: req.Publish, Agent: name, AgentArgs: args, Timeout: orDuration(req.Timeout, DefaultCleanupTimeout).String(),
		KeepRuns: DefaultKeepRuns, LogBytes: DefaultLogBytes,
	}
	if rec, _, err := loadSchedule(env, s.ID); err == nil {
		s.KeepRuns, s.LogBytes = rec.KeepRuns, rec.LogBytes
	}
	return s, nil
}

func (r *cleanupRun) result() *contracts.CleanupRunResult {
	return &contracts.CleanupRunResult{SchemaVersion: contracts.CLIVersion, Run: r.rec}
}

// finish records the run's end, its output, and prunes old runs.
func (r *cleanupRun) finish() error {
	r.rec.FinishedAt = time.Now().UTC().Format(time.RFC3339Nano)
	r.rec.DurationMs = time.Since(r.start).Milliseconds()
	if r.output != nil {
		r.rec.OutputBytes = r.output.total
		cut, err := r.store.SaveOutput(r.rec.ID, r.output.Bytes(), r.sched.LogBytes)
		if err != nil {
			return err
		}
		r.rec.OutputTruncated = cut || r.output.dropped
	}
	if err := r.store.Save(r.rec); err != nil {
		return err
	}
	return r.store.Prune(max(r.sched.KeepRuns, 1))
}

func (r *cleanupRun) fail(outcome, reason string, err error) {
	r.rec.Outcome, r.rec.Reason = outcome, reason
	var ce *contracts.Error
	if err != nil && !errors.As(err, &ce) {
		ce = &contracts.Error{Code: contracts.CodeInternal, Message: err.Error()}
	}
	r.rec.Error = ce
}

func (r *cleanupRun) execute(ctx context.Context) {
	r.progress("sync " + r.sched.Connection.Exact + " (" + r.sched.Branch + ")")
	input, base, ok := r.syncInput(ctx)
	if !ok {
		return
	}
	r.rec.Input = input
	checkpoint, err := r.store.Checkpoint()
	if err != nil {
		r.fail(contracts.OutcomeFailed, "cannot read the checkpoint of the last successful run", err)
		return
	}
	if input == checkpoint {
		r.rec.Outcome = contracts.OutcomeUnchanged
		return
	}
	r.progress("prepare a write session")
	prep, err := session.Prepare(ctx, r.env, r.sched.Connection.Exact)
	if err != nil {
		r.fail(contracts.OutcomeFailed, "cannot open a write session", err)
		return
	}
	s := prep.Session
	r.rec.Session, r.rec.Worktree = s.ID, s.Worktree
	// A run killed from here on leaves its session named in the history.
	if err := r.store.Save(r.rec); err != nil {
		r.fail(contracts.OutcomeFailed, "cannot record the run", err)
		return
	}
	if s.Base != base {
		r.fail(contracts.OutcomeCancelled, "the source moved between sync and prepare", nil)
		return
	}
	if !r.runAgent(ctx, s) {
		return
	}
	r.progress("check the agent's edits")
	changed, paths, why := r.inspect(ctx, s)
	if why != "" {
		r.rec.Paths = paths
		r.fail(contracts.OutcomeRejected, why, nil)
		return
	}
	if !changed {
		if _, err := session.Abort(ctx, r.env, s.ID); err != nil {
			r.fail(contracts.OutcomeFailed, "the agent changed nothing but the session could not be removed", err)
			return
		}
		r.rec.Outcome, r.rec.Worktree = contracts.OutcomeNoop, ""
		r.checkpoint(input)
		return
	}
	r.progress("finish the session (" + policy(r.sched.Publish) + ")")
	what := "Scheduled cleanup " + r.sched.ID
	if r.rec.AdHoc {
		what = "Cleanup of " + r.sched.ID + " (ad hoc)"
	}
	res, err := session.Finish(ctx, r.env, session.FinishRequest{ID: s.ID, Publish: r.sched.Publish,
		Message: fmt.Sprintf("Clean up context tree %s\n\n%s, run %s.", s.Subtree, what, r.rec.ID)})
	if err != nil {
		r.fail(contracts.OutcomeFailed, "write finish did not accept the agent's edits", err)
		return
	}
	r.rec.Commit = res.Commit
	switch res.Result {
	case contracts.ResultPublished:
		r.rec.Outcome = contracts.OutcomePublished
		// The next run's input is the published subtree.
		if d, err := r.subtreeDigest(ctx, s.Repository.CommonDir, "", res.Commit, s.Subtree); err == nil {
			input = d
		}
	case contracts.ResultCommitted:
		r.rec.Outcome = contracts.OutcomeCommitted
	default:
		r.rec.Outcome = contracts.OutcomeNoop
	}
	r.checkpoint(input)
}

func (r *cleanupRun) checkpoint(digest string) {
	if err := r.store.SetCheckpoint(digest, r.rec.ID); err != nil {
		r.fail(contracts.OutcomeFailed, "cannot record the checkpoint", err)
	}
}

// syncInput syncs the source and returns the digest of its input subtree
// (the git tree id) and the commit it was read at.
func (r *cleanupRun) syncInput(ctx context.Context) (digest, commit string, ok bool) {
	res, err := operations.Sync(ctx, r.env, []string{r.sched.Connection.Exact}, false)
	if err != nil {
		r.fail(contracts.OutcomeFailed, "cannot sync the source", err)
		return "", "", false
	}
	e := res.Connections[0]
	if !e.OK {
		r.fail(contracts.OutcomeFailed, "cannot sync the source", e.Error)
		return "", "", false
	}
	if e.Repository == nil || e.Repository.Commit == "" {
		r.fail(contracts.OutcomeFailed, "the source is not in a git repository with commits", nil)
		return "", "", false
	}
	if e.Repository.Branch != r.sched.Branch {
		r.fail(contracts.OutcomeCancelled, fmt.Sprintf("the source is on branch %q, not the scheduled %q", e.Repository.Branch, r.sched.Branch), nil)
		return "", "", false
	}
	digest, err = r.subtreeDigest(ctx, e.Repository.Cache, e.Repository.Root, e.Repository.Commit, e.Repository.Subtree)
	if err != nil {
		r.fail(contracts.OutcomeFailed, "cannot compute the input digest", operations.GitError(err))
		return "", "", false
	}
	return digest, e.Repository.Commit, true
}

// subtreeDigest is the git tree id of subtree at commit, read from a bare
// cache (gitDir) or a checkout (root).
func (r *cleanupRun) subtreeDigest(ctx context.Context, gitDir, root, commit, subtree string) (string, error) {
	rev := commit + ":" + subtree
	if subtree == "." {
		rev = commit + "^{tree}"
	}
	var out []byte
	var err error
	if gitDir != "" {
		out, err = r.env.Git.InRepo(ctx, gitDir, "rev-parse", "--verify", "--end-of-options", rev)
	} else {
		out, err = r.env.Git.Run(ctx, git.Isolated, root, "rev-parse", "--verify", "--end-of-options", rev)
	}
	return strings.TrimSpace(string(out)), err
}

// inspect accepts only edits to normal and member Markdown documents in
// the tree, made without commits or branch switches. It judges the
// session exactly as finish does, from session.Inspect; its one rule of
// its own is which changes cleanup may make (cleanupEditable). It reports
// whether anything changed, and the offending paths and why.
func (r *cleanupRun) inspect(ctx context.Context, s *contracts.Session) (changed bool, bad []string, why string) {
	ins, err := session.Inspect(ctx, r.env, s, session.InspectOptions{})
	if err != nil {
		return false, nil, "the agent committed, switched branches or replaced the worktree or its .git: " + err.Error()
	}
	defer ins.Close()
	if ins.Nested != "" {
		return false, []string{ins.Nested}, "the agent created a nested git repository"
	}
	bad = append(append(bad, ins.Ignored...), ins.Outside...)
	for _, ch := range ins.Changes {
		if !cleanupEditable(s, ch) {
			bad = append(bad, ch.Path)
		}
	}
	if len(bad) > 0 {
		return true, bad, "the agent changed files cleanup may not edit (only normal and member Markdown documents inside the tree, no symlinks or ignored files)"
	}
	return len(ins.Changes) > 0, nil, ""
}

// cleanupEditable reports whether a change is one cleanup may make: a
// regular Markdown document of normal or member class inside the tree,
// edited, added or deleted.
func cleanupEditable(s *contracts.Session, ch git.TreeChange) bool {
	rel, ok := tree.Inside(s.Subtree, ch.Path)
	if !ok {
		return false
	}
	rel = filepath.ToSlash(rel)
	if !tree.IsDocumentName(path.Base(rel)) {
		return false
	}
	if c := tree.ClassOf(rel); c != contracts.ClassNormal && c != contracts.ClassMember {
		return false
	}
	switch ch.NewMode {
	case "100644", "100755", "000000":
		return true
	}
	return false
}

func policy(publish bool) string {
	if publish {
		return "commit and publish"
	}
	return "commit only"
}
