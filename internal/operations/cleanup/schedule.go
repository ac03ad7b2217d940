package cleanup

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/adapters/agent"
	"github.com/git-context-tree/git-context-tree/internal/adapters/scheduler"
	"github.com/git-context-tree/git-context-tree/internal/operations"
	"github.com/git-context-tree/git-context-tree/internal/operations/session"
	"github.com/git-context-tree/git-context-tree/internal/sources"
)

// ScheduleRequest is what `cleanup schedule` was asked to do.
type ScheduleRequest struct {
	Selector     string
	Every        time.Duration
	At           string
	Publish      bool
	Agent        string
	AgentCommand string
	Timeout      time.Duration
	KeepRuns     int
	LogBytes     int
	// Print renders the units, the plist and a crontab line without
	// installing or recording anything.
	Print bool
	// Replace takes over a schedule of the same source made from another
	// project (else SCHEDULE_EXISTS).
	Replace bool
}

// Defaults of a schedule.
const (
	DefaultCleanupTimeout = 30 * time.Minute
	DefaultKeepRuns       = 30
	DefaultLogBytes       = 256 << 10
)

// ScheduleID is the schedule id of a source and branch: the first 16 hex
// digits of SHA-256(identity NUL branch). One schedule owns a logical
// source/branch on a machine.
func ScheduleID(identity, branch string) string {
	sum := sha256.Sum256([]byte(identity + "\x00" + branch))
	return hex.EncodeToString(sum[:8])
}

// Schedule creates or replaces the schedule of a declared source:
// the record in schedules/<id>.toml and the native scheduler's job. The
// scheduler is checked before anything is written.
func Schedule(ctx context.Context, env operations.Env, req ScheduleRequest) (*contracts.ScheduleResult, error) {
	p, c, branch, err := cleanupSource(ctx, env, req.Selector)
	if err != nil {
		return nil, err
	}
	if req.Publish && c.Source.Kind != contracts.SourceGit {
		return nil, contracts.Errorf(contracts.CodePublishUnsupported, "only git sources are published; %s is a directory source: schedule it without --publish", c.Exact)
	}
	cal, err := scheduleCalendar(req)
	if err != nil {
		return nil, err
	}
	agentName := req.Agent
	if req.AgentCommand != "" {
		agentName = "custom"
	} else if agentName == "" {
		agentName = "claude"
	}
	agentArgs, err := agent.CommandLine(agentName, req.AgentCommand, env.Vars, env.Dir)
	if err != nil {
		return nil, err
	}
	exe, gitPath, err := capturedExecutables(env)
	if err != nil {
		return nil, err
	}
	sch, err := scheduler.Detect(env.Vars, env.Dir)
	if err != nil && req.Print {
		sch, err = scheduler.New(scheduler.Systemd, env.Vars, env.Dir)
	}
	if err != nil {
		return nil, err
	}
	if !req.Print {
		if err := sch.Check(ctx); err != nil {
			return nil, err
		}
	}
	rec := &contracts.Schedule{
		ID: ScheduleID(c.Identity, branch), Connection: c.Ref(), Identity: c.Identity, ProjectRoot: p.Root, Branch: branch,
		Calendar: cal.OnCalendar, At: req.At, Publish: req.Publish, Agent: agentName, AgentArgs: agentArgs,
		Timeout: orDuration(req.Timeout, DefaultCleanupTimeout).String(), Executable: exe, Git: gitPath, Path: env.Vars.Get("PATH"),
		StateDir: env.Home.Root, KeepRuns: orInt(req.KeepRuns, DefaultKeepRuns), LogBytes: orInt(req.LogBytes, DefaultLogBytes),
		Scheduler: sch.Kind,
	}
	if req.Every != 0 {
		rec.Every, rec.At = req.Every.String(), ""
	}
	job := scheduleJob(rec, cal)
	rec.Files = sch.Files(job)
	if req.Print {
		// Nothing is recorded, so the printed job runs ad hoc, self-contained.
		pj := job
		pj.Args = adHocArgs(rec)
		printed, err := printSchedule(env, pj)
		if err != nil {
			return nil, err
		}
		return &contracts.ScheduleResult{SchemaVersion: contracts.CLIVersion, Action: contracts.SchedulePrinted, Schedule: rec,
			Commands: [][]string{}, Printed: printed}, nil
	}

	lk, err := env.HomeLock("schedules", "cleanup schedule")
	if err != nil {
		return nil, err
	}
	defer lk.Release()
	data, err := encodeSchedule(rec)
	if err != nil {
		return nil, err
	}
	action, takeover := contracts.ScheduleCreated, ""
	if old, err := readScheduleFile(env, rec.ID); err == nil {
		action = contracts.ScheduleReplaced
		if bytes.Equal(old, data) {
			action = contracts.ScheduleUnchanged
		}
		prev, _, err := loadSchedule(env, rec.ID)
		if err == nil && prev.ProjectRoot != rec.ProjectRoot && !req.Replace && !projectGone(prev.ProjectRoot) {
			return nil, contracts.Errorf(contracts.CodeScheduleExists,
				"%s (branch %s) is already scheduled from the project %s; nothing was changed: schedule it again with --replace to move the schedule here (its policy becomes this one), or change it from that project",
				c.Exact, branch, prev.ProjectRoot).
				WithDetails(map[string]any{"schedule": prev.ID, "project": prev.ProjectRoot, "branch": branch})
		}
		if err == nil && prev.ProjectRoot != rec.ProjectRoot && !req.Replace {
			takeover = "took over the schedule of " + c.Exact + " from the project " + prev.ProjectRoot + ", which no longer exists"
		}
	}
	dir, err := env.Home.Dir("schedules")
	if err != nil {
		return nil, err
	}
	if err := env.Home.WriteFile(dir, rec.ID+".toml", data); err != nil {
		return nil, err
	}
	cmds, err := sch.Install(ctx, job)
	if err != nil {
		return nil, err
	}
	res := &contracts.ScheduleResult{SchemaVersion: contracts.CLIVersion, Action: action, Schedule: rec, Commands: cmds}
	if takeover != "" {
		res.Warnings = append(res.Warnings, takeover)
	}
	if sch.LingerOff(ctx) {
		res.Warnings = append(res.Warnings, "lingering is off for this user, so the systemd user manager and this timer stop when your last session ends (logout, SSH disconnect): turn it on with `loginctl enable-linger`, or use `cleanup schedule --print` for a crontab line")
	}
	return res, nil
}

// adHocArgs is the command line of an ad hoc run with a schedule's policy
// (what a printed job runs: it needs no schedule record).
func adHocArgs(rec *contracts.Schedule) []string {
	args := []string{rec.Executable, "cleanup", "run", rec.Connection.Exact, "--quiet"}
	if rec.Agent == "custom" {
		args = append(args, "--agent-command", strings.Join(rec.AgentArgs, " "))
	} else {
		args = append(args, "--agent", rec.Agent)
	}
	args = append(args, "--timeout", rec.Timeout)
	if rec.Publish {
		args = append(args, "--publish")
	}
	return args
}

// printSchedule renders the job for every scheduler and cron.
func printSchedule(env operations.Env, job scheduler.Job) (*contracts.PrintedSchedule, error) {
	out := &contracts.PrintedSchedule{Files: []contracts.PrintedFile{}, Crontab: job.Crontab()}
	for _, kind := range []string{scheduler.Systemd, scheduler.Launchd} {
		sch, err := scheduler.New(kind, env.Vars, env.Dir)
		if err != nil {
			return nil, err
		}
		paths, contents := sch.Render(job)
		for i := range paths {
			out.Files = append(out.Files, contracts.PrintedFile{Scheduler: kind, Path: paths[i], Content: string(contents[i])})
		}
	}
	return out, nil
}

// scheduleBranch is the branch a schedule pins: a git source's ref, or the
// branch a directory source's checkout is on.
func scheduleBranch(ctx context.Context, env operations.Env, c sources.Connection) (string, error) {
	if c.Source.Kind == contracts.SourceGit {
		return c.Source.Ref, nil
	}
	d, err := sources.ResolveDirectory(ctx, env.Git, c.Dir)
	if err != nil {
		return "", err
	}
	if !d.InGit() || d.Branch == "" {
		return "", contracts.Errorf(contracts.CodeNoRepository,
			"%s is not on a branch of a git checkout, so cleanup cannot run write sessions on it", c.Dir).WithDetails(map[string]any{"path": c.Dir})
	}
	return d.Branch, nil
}

func scheduleCalendar(req ScheduleRequest) (scheduler.Calendar, error) {
	var cal scheduler.Calendar
	var err error
	switch {
	case req.Every != 0 && req.At != "":
		return cal, contracts.Errorf(contracts.CodeUsage, "use --every or --at, not both")
	case req.Every != 0:
		cal, err = scheduler.Every(req.Every)
	case req.At != "":
		cal, err = scheduler.At(req.At)
	default:
		cal, err = scheduler.Every(24 * time.Hour)
	}
	if err != nil {
		return cal, contracts.Errorf(contracts.CodeUsage, "%v", err)
	}
	return cal, nil
}

// capturedExecutables are the absolute real paths of this program and git.
func capturedExecutables(env operations.Env) (string, string, error) {
	exe, err := os.Executable()
	if err == nil {
		exe, err = filepath.EvalSymlinks(exe)
	}
	if err != nil {
		return "", "", contracts.Errorf(contracts.CodeInternal, "cannot find this program's path: %v", err)
	}
	gitPath, err := env.Vars.LookPath(env.Git.Path, env.Dir)
	if err == nil {
		gitPath = env.Abs(gitPath)
	}
	if err != nil {
		return "", "", contracts.Errorf(contracts.CodeGit, "cannot find git on PATH: %v", err)
	}
	return exe, gitPath, nil
}

// scheduleJob is the scheduler job that runs a schedule.
func scheduleJob(rec *contracts.Schedule, cal scheduler.Calendar) scheduler.Job {
	return scheduler.Job{
		ID:          rec.ID,
		Description: "git-context-tree cleanup of " + rec.Connection.Exact + " (" + rec.Branch + ")",
		Args:        []string{rec.Executable, "cleanup", "run", "--schedule", rec.ID},
		WorkingDir:  rec.ProjectRoot,
		Env: map[string]string{
			"PATH": rec.Path, "LC_ALL": "C.UTF-8", "GIT_TERMINAL_PROMPT": "0", "CONTEXT_TREE_HOME": rec.StateDir,
		},
		Calendar: cal,
	}
}

// projectGone reports a project root that no longer exists (a schedule
// made from it is taken over without --replace).
func projectGone(root string) bool {
	_, err := os.Stat(root)
	return errors.Is(err, fs.ErrNotExist)
}

// cleanupSource finds the declared source a cleanup command names and the
// branch a schedule of it pins.
func cleanupSource(ctx context.Context, env operations.Env, selector string) (*sources.Project, sources.Connection, string, error) {
	p, conns, err := operations.OpenProject(ctx, env)
	if err != nil {
		return nil, sources.Connection{}, "", err
	}
	c, err := session.Connection(env, conns, selector)
	if err != nil {
		return nil, sources.Connection{}, "", err
	}
	branch, err := scheduleBranch(ctx, env, c)
	if err != nil {
		return nil, sources.Connection{}, "", err
	}
	return p, c, branch, nil
}
