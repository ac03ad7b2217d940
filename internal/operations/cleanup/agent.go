package cleanup

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"strings"
	"time"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/adapters/agent"
	"github.com/git-context-tree/git-context-tree/internal/adapters/git"
	"github.com/git-context-tree/git-context-tree/internal/operations"
	"github.com/git-context-tree/git-context-tree/skills"
)

// WatchIntervalVar overrides how often a run checks the schedule, the
// source and the branch while the agent works (a Go duration).
const WatchIntervalVar = "CONTEXT_TREE_WATCH_INTERVAL"

// runAgent runs the agent in the session and reports whether the run goes
// on to inspection (false: the outcome is set).
func (r *cleanupRun) runAgent(ctx context.Context, s *contracts.Session) bool {
	prompt, err := cleanupPrompt(r.sched, s)
	if err != nil {
		r.fail(contracts.OutcomeFailed, "cannot build the agent prompt", err)
		return false
	}
	timeout, err := time.ParseDuration(r.sched.Timeout)
	if err != nil || timeout <= 0 {
		timeout = DefaultCleanupTimeout
	}
	r.output = &boundedBuffer{limit: 4 * max(r.sched.LogBytes, 1024)}
	wctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	stop := r.watch(wctx, cancel, s)
	res := agent.Run(wctx, agent.Request{
		Args: r.sched.AgentArgs, Dir: s.Worktree, Prompt: prompt, Timeout: timeout, Output: r.output,
		Env: agent.Environment(r.env.Vars, "CONTEXT_TREE_SESSION="+s.ID, "CONTEXT_TREE_CONTENT_ROOT="+s.ContentRoot, "GIT_TERMINAL_PROMPT=0"),
		Started: func(pid int) {
			// Recorded, so the next run can stop it if this process dies.
			r.rec.AgentPID = pid
			r.store.Save(r.rec)
			r.progress(fmt.Sprintf("agent started (pid %d) in %s", pid, s.Worktree))
		},
	})
	r.rec.AgentPID = 0
	stop()
	exit := res.ExitCode
	r.rec.AgentExit = &exit
	switch {
	case res.Cancelled:
		why := "interrupted"
		if c := context.Cause(wctx); c != nil && c != context.Canceled {
			why = c.Error()
		}
		r.fail(contracts.OutcomeCancelled, why+"; the agent was stopped and the session kept", nil)
	case res.TimedOut:
		r.rec.TimedOut = true
		r.fail(contracts.OutcomeFailed, fmt.Sprintf("the agent did not finish within %s and was stopped", timeout), nil)
	case res.Err != nil:
		r.fail(contracts.OutcomeFailed, "the agent could not run", contracts.Errorf(contracts.CodeAgentNotFound, "%v", res.Err))
	case res.ExitCode != 0:
		r.fail(contracts.OutcomeFailed, fmt.Sprintf("the agent exited with status %d", res.ExitCode), nil)
	default:
		return true
	}
	return false
}

// watch polls the schedule record, the declared source and the branch
// while the agent runs, cancelling it with the reason when one changes.
func (r *cleanupRun) watch(ctx context.Context, cancel context.CancelCauseFunc, s *contracts.Session) func() {
	interval := 500 * time.Millisecond
	if d, err := time.ParseDuration(r.env.Vars.Get(WatchIntervalVar)); err == nil && d > 0 {
		interval = d
	}
	branchRef := r.branchState(ctx, s)
	done := make(chan struct{})
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-t.C:
			}
			if why := r.changed(ctx, s, branchRef); why != "" {
				cancel(fmt.Errorf("%s", why))
				return
			}
		}
	}()
	return func() { close(done); <-stopped }
}

// branchState is what the branch watcher compares: the git source's
// remote-tracking commit; for a directory source, the branch its checkout
// is on and the commit that branch is at (a commit made there while the
// agent works changes the source, as a fetch does a git source's).
func (r *cleanupRun) branchState(ctx context.Context, s *contracts.Session) string {
	if s.Repository.Kind == contracts.SourceGit {
		c, _ := r.env.Git.ResolveCommit(ctx, s.Repository.CommonDir, "refs/remotes/origin/"+r.sched.Branch)
		return c
	}
	b, _, _ := r.env.Git.Branch(ctx, git.Isolated, s.Repository.Root)
	head, _ := r.env.Git.Head(ctx, git.Isolated, s.Repository.Root)
	return b + " " + head
}

func (r *cleanupRun) changed(ctx context.Context, s *contracts.Session, branchRef string) string {
	if r.raw != nil { // an ad hoc run has no record to watch
		data, err := readScheduleFile(r.env, r.sched.ID)
		if err != nil || !bytes.Equal(data, r.raw) {
			return "the schedule was changed or removed"
		}
	}
	_, conns, err := operations.OpenProject(ctx, r.env)
	if err != nil {
		return "the project configuration can no longer be read"
	}
	declared := false
	for _, c := range conns {
		declared = declared || c.Identity == r.sched.Identity
	}
	if !declared {
		return "the source is no longer declared"
	}
	if r.branchState(ctx, s) != branchRef {
		return "the source branch changed"
	}
	return ""
}

// cleanupPrompt is what the agent reads on stdin: the run's facts, then the
// context-tree-cleanup skill without its frontmatter.
func cleanupPrompt(sched *contracts.Schedule, s *contracts.Session) (string, error) {
	skill, err := fs.ReadFile(skills.Files, "context-tree-cleanup/SKILL.md")
	if err != nil {
		return "", err
	}
	body := string(skill)
	if rest, ok := strings.CutPrefix(body, "---\n"); ok {
		if _, after, ok := strings.Cut(rest, "\n---\n"); ok {
			body = after
		}
	}
	policy := "commit only (a person reviews and publishes it)"
	if sched.Publish {
		policy = "commit and publish to " + sched.Branch
	}
	return fmt.Sprintf(`Scheduled cleanup of a Context Tree (git context-tree cleanup run, schedule %s).

Use the context-tree-cleanup skill below. You were given a write session:
- session: %s
- your working directory is the session worktree: %s
- the tree to clean up: %s
- source: %s (branch %s)
- when you stop, git-context-tree checks your edits and finishes the session itself: %s

Edit only Markdown documents inside the tree. Do not commit, switch
branches, create symlinks, or run write finish, write abort or --publish.
Changes to anything else make the whole run rejected.
%s`, sched.ID, s.ID, s.Worktree, s.ContentRoot, sched.Connection.Exact, sched.Branch, policy, body), nil
}

// boundedBuffer keeps the first limit bytes written and counts the rest.
type boundedBuffer struct {
	limit   int
	buf     bytes.Buffer
	total   int64
	dropped bool
}

func (b *boundedBuffer) Write(p []byte) (int, error) {
	b.total += int64(len(p))
	if room := b.limit - b.buf.Len(); room > 0 {
		b.buf.Write(p[:min(room, len(p))])
	}
	if b.buf.Len() >= b.limit && len(p) > 0 {
		b.dropped = b.dropped || b.total > int64(b.limit)
	}
	return len(p), nil
}

func (b *boundedBuffer) Bytes() []byte { return b.buf.Bytes() }
