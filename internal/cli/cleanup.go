package cli

import (
	"fmt"
	"strings"
	"time"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/operations/cleanup"
)

type cleanupCmd struct {
	Schedule   cleanupScheduleCmd   `cmd:"" help:"Schedule cleanup of a tree on this machine (systemd user timer or launchd)."`
	Unschedule cleanupUnscheduleCmd `cmd:"" help:"Remove a cleanup schedule (history kept unless --purge)."`
	List       cleanupListCmd       `cmd:"" help:"List cleanup schedules, their state and last outcome."`
	Status     cleanupStatusCmd     `cmd:"" help:"Same as list, for one tree."`
	Run        cleanupRunCmd        `cmd:"" help:"Run a schedule's cleanup now (what the timer runs)."`
	Logs       cleanupLogsCmd       `cmd:"" help:"Show the recorded runs of cleanup schedules."`
}

func (cmd *cleanupCmd) Help() string {
	return `Scheduled cleanup runs a coding agent over a tree through an ordinary write
session: sync, prepare, the agent edits Markdown documents, finish with the
schedule's stored policy (commit only, or --publish). Runs whose input
subtree is unchanged since the last success do nothing. Failures keep the
session for you to inspect (git context-tree write show <session>).`
}

type cleanupScheduleCmd struct {
	Selector     string        `arg:"" optional:"" name:"selector" help:"The declared tree (default: the only one, or the one you are in)."`
	Every        time.Duration `name:"every" placeholder:"<duration>" help:"Run every 5m..30m, 1h..12h (dividing a day), 24h or 168h."`
	At           string        `name:"at" placeholder:"<calendar>" help:"Run daily at HH:MM, or weekly at '<weekday> HH:MM' (default: daily at 03:00)."`
	Publish      bool          `name:"publish" help:"Publish (push) the cleanup commit; without it the commit stays on the session branch."`
	Agent        string        `name:"agent" enum:"claude,codex,pi," default:"" help:"The agent CLI: claude, codex or pi (default claude)."`
	AgentCommand string        `name:"agent-command" placeholder:"<cmd>" help:"Run this command instead (split on spaces, no shell); prompt on stdin."`
	Timeout      time.Duration `name:"timeout" placeholder:"<duration>" help:"Stop the agent after this long (default 30m)."`
	KeepRuns     int           `name:"keep-runs" placeholder:"<n>" help:"Runs kept in the history (default 30)."`
	LogBytes     int           `name:"log-bytes" placeholder:"<n>" help:"Agent output kept per run, in bytes (default 262144)."`
	Print        bool          `name:"print" help:"Print the systemd units, the launchd plist and a crontab line; install and record nothing."`
	Replace      bool          `name:"replace" help:"Take over this source's schedule made from another project (else SCHEDULE_EXISTS)."`
}

func (cmd *cleanupScheduleCmd) Run(c *Context) error {
	if cmd.Agent != "" && cmd.AgentCommand != "" {
		return contracts.Errorf(contracts.CodeUsage, "use --agent or --agent-command, not both")
	}
	res, err := cleanup.Schedule(c, c.Env, cleanup.ScheduleRequest{
		Selector: cmd.Selector, Every: cmd.Every, At: cmd.At, Publish: cmd.Publish, Agent: cmd.Agent,
		AgentCommand: cmd.AgentCommand, Timeout: cmd.Timeout, KeepRuns: cmd.KeepRuns, LogBytes: cmd.LogBytes,
		Print: cmd.Print, Replace: cmd.Replace,
	})
	if err != nil {
		return err
	}
	warn(c, res.Warnings)
	return c.emit(res, func() {
		s := res.Schedule
		if p := res.Printed; p != nil {
			for _, f := range p.Files {
				fmt.Fprintf(c.Stdout, "# %s: %s\n%s\n", f.Scheduler, f.Path, f.Content)
			}
			fmt.Fprintf(c.Stdout, "# crontab (crontab -e; no catch-up of missed runs):\n%s\n", p.Crontab)
			// The printed job is the ad hoc run (adHocArgs): it needs no
			// schedule record, and it carries this state directory.
			fmt.Fprintf(c.Stderr, "Nothing was installed or recorded. The printed job runs `git context-tree cleanup run %s` with this schedule's policy and needs no schedule record; it uses the state directory %s (CONTEXT_TREE_HOME).\n", quote(s.Connection.Exact), s.StateDir)
			return
		}
		fmt.Fprintf(c.Stdout, "%s\t%s\t%s\t%s\n", res.Action, s.ID, quote(s.Connection.Exact), policy(s))
		fmt.Fprintf(c.Stderr, "Runs %s (%s); files: %s\n", s.Calendar, s.Scheduler, strings.Join(s.Files, ", "))
	})
}

// warn prints warnings on stderr (also with --json, whose stdout is the
// result that carries them).
func warn(c *Context, warnings []string) {
	for _, w := range warnings {
		fmt.Fprintf(c.Stderr, "warning: %s\n", w)
	}
}

func policy(s *contracts.Schedule) string {
	if s.Publish {
		return "publish"
	}
	return "commit"
}

type cleanupUnscheduleCmd struct {
	Selector string `arg:"" optional:"" name:"selector" help:"The declared tree whose schedule to remove."`
	Schedule string `name:"schedule" placeholder:"<id>" help:"Remove the schedule with this id."`
	Orphans  bool   `name:"orphans" help:"Also remove our units or plists whose schedule record is gone."`
	Purge    bool   `name:"purge" help:"Also delete the schedule's run history."`
}

func (cmd *cleanupUnscheduleCmd) Run(c *Context) error {
	res, err := cleanup.Unschedule(c, c.Env, cleanup.UnscheduleRequest{
		Selector: cmd.Selector, ScheduleID: cmd.Schedule, Orphans: cmd.Orphans, Purge: cmd.Purge,
	})
	if err != nil {
		return err
	}
	warn(c, res.Warnings)
	return c.emit(res, func() {
		id := cmd.Schedule
		if res.Schedule != nil {
			id = res.Schedule.ID
		}
		fmt.Fprintf(c.Stdout, "%s\t%s\n", res.Action, orDash(id))
		for _, o := range res.Orphans {
			fmt.Fprintf(c.Stdout, "orphan\t%s\n", quote(o))
		}
	})
}

type cleanupListCmd struct{}

func (cmd *cleanupListCmd) Run(c *Context) error { return listSchedules(c, "") }

type cleanupStatusCmd struct {
	Selector string `arg:"" optional:"" name:"selector" help:"The declared tree (default: every schedule)."`
}

func (cmd *cleanupStatusCmd) Run(c *Context) error { return listSchedules(c, cmd.Selector) }

func listSchedules(c *Context, selector string) error {
	res, err := cleanup.List(c, c.Env, selector)
	if err != nil {
		return err
	}
	return c.report(res, func() {
		for _, st := range res.Schedules {
			s := st.Schedule
			loaded, last := "not-loaded", "-"
			if st.Loaded {
				loaded = "loaded"
			}
			if st.LastRun != nil {
				last = st.LastRun.Outcome
			}
			fmt.Fprintf(c.Stdout, "%s\t%s\t%s\t%s\t%s\t%s\n", s.ID, quote(s.Connection.Exact), s.Branch, policy(s), loaded, last)
			for _, m := range st.Missing {
				fmt.Fprintf(c.Stderr, "warning: schedule %s: captured executable %s is missing; schedule it again\n", s.ID, quote(m))
			}
		}
		for _, o := range res.Orphans {
			fmt.Fprintf(c.Stderr, "orphan: %s (remove with: git context-tree cleanup unschedule --orphans)\n", quote(o))
		}
		c.printUnreadableRecords(res.Unreadable)
	})
}

type cleanupRunCmd struct {
	Selector     string        `arg:"" optional:"" name:"selector" help:"The declared tree whose schedule to run (or to run ad hoc)."`
	Schedule     string        `name:"schedule" placeholder:"<id>" help:"Run the schedule with this id (what the timer runs)."`
	Agent        string        `name:"agent" enum:"claude,codex,pi," default:"" help:"Run ad hoc, without a schedule, with this agent CLI: claude, codex or pi."`
	AgentCommand string        `name:"agent-command" placeholder:"<cmd>" help:"Run ad hoc with this command (split on spaces, no shell); prompt on stdin."`
	Publish      bool          `name:"publish" help:"Ad hoc: publish (push) the cleanup commit."`
	Timeout      time.Duration `name:"timeout" placeholder:"<duration>" help:"Ad hoc: stop the agent after this long (default 30m)."`
	Quiet        bool          `name:"quiet" short:"q" help:"Do not print the phases of the run on stderr."`
}

func (cmd *cleanupRunCmd) Help() string {
	return `Outcomes: unchanged (input subtree as at the last success), noop (the agent
changed nothing; session removed), committed, published (exit 0); running
(another run holds the schedule's lock; exit 3); rejected (edits outside
normal and member Markdown documents, commits, symlinks), cancelled (the
schedule, source or branch changed), failed, interrupted (a signal; exit 1;
the session is kept).

With --agent or --agent-command the run needs no schedule (cron, CI, by
hand): the same checks, session handling and history, with the policy
given here (--publish, --timeout). The phases of the run are printed on
stderr as they begin.`
}

func (cmd *cleanupRunCmd) Run(c *Context) error {
	if (cmd.Publish || cmd.Timeout != 0) && cmd.Agent == "" && cmd.AgentCommand == "" {
		return contracts.Errorf(contracts.CodeUsage, "--publish and --timeout are for ad hoc runs (with --agent or --agent-command); a schedule's run uses its recorded policy")
	}
	req := cleanup.RunRequest{Selector: cmd.Selector, ScheduleID: cmd.Schedule, Agent: cmd.Agent,
		AgentCommand: cmd.AgentCommand, Publish: cmd.Publish, Timeout: cmd.Timeout}
	if !cmd.Quiet {
		req.Progress = func(phase string) { fmt.Fprintf(c.Stderr, "cleanup: %s\n", phase) }
	}
	res, err := cleanup.Run(c, c.Env, req)
	if err != nil && res == nil {
		return err
	}
	r := res.Run
	if perr := c.emit(res, func() {
		fmt.Fprintf(c.Stdout, "%s\t%s\t%s\n", r.Outcome, r.ID, orDash(r.Commit))
		if r.Reason != "" {
			fmt.Fprintf(c.Stderr, "%s: %s\n", r.Outcome, r.Reason)
		}
		if r.Worktree != "" {
			fmt.Fprintf(c.Stderr, "cleanup run %s kept its write session %s in %s (git context-tree write show %s)\n", r.ID, r.Session, quote(r.Worktree), r.Session)
		}
		for _, p := range r.Paths {
			fmt.Fprintf(c.Stderr, "  %s\n", quote(p))
		}
	}); perr != nil {
		return perr
	}
	if err != nil {
		return err
	}
	return exitFor(res)
}

type cleanupLogsCmd struct {
	Selector string `arg:"" optional:"" name:"selector" help:"The declared tree (default: every schedule)."`
	Schedule string `name:"schedule" placeholder:"<id>" help:"The schedule with this id."`
	RunID    string `name:"run" placeholder:"<id>" help:"Show this run and its (redacted) agent output: its id, or a unique prefix of at least 4 characters."`
}

func (cmd *cleanupLogsCmd) Run(c *Context) error {
	res, err := cleanup.Logs(c, c.Env, cleanup.LogsRequest{Selector: cmd.Selector, ScheduleID: cmd.Schedule, Run: cmd.RunID})
	if err != nil {
		return err
	}
	return c.report(res, func() {
		for _, r := range res.Runs {
			fmt.Fprintf(c.Stdout, "%s\t%s\t%s\t%dms\t%s\t%s\n", r.StartedAt, r.ScheduleID, r.Outcome, r.DurationMs, r.ID, orDash(r.Session))
		}
		if res.Output != nil {
			fmt.Fprint(c.Stdout, *res.Output)
		}
		c.printUnreadableRecords(res.Unreadable)
	})
}

// printUnreadableRecords names on stderr each record a listing could not
// read (its error names the file), and what to do about it.
func (c *Context) printUnreadableRecords(list []contracts.UnreadableRecord) {
	for _, u := range list {
		fmt.Fprintf(c.Stderr, "error: %s cannot be read (%s): %s\n", u.ID, u.Error.Code, u.Error.Message)
		fmt.Fprintf(c.Stderr, "hint: repair %s by hand, or remove it\n", quote(u.Record))
	}
}
