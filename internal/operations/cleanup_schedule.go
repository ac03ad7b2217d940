package operations

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/BurntSushi/toml"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/adapters/agent"
	"github.com/git-context-tree/git-context-tree/internal/adapters/history"
	"github.com/git-context-tree/git-context-tree/internal/adapters/scheduler"
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

// CleanupSchedule creates or replaces the schedule of a declared source:
// the record in schedules/<id>.toml and the native scheduler's job. The
// scheduler is checked before anything is written.
func CleanupSchedule(ctx context.Context, env Env, req ScheduleRequest) (*contracts.ScheduleResult, error) {
	p, conns, err := openProject(ctx, env)
	if err != nil {
		return nil, err
	}
	c, err := sessionConnection(env, conns, req.Selector)
	if err != nil {
		return nil, err
	}
	branch, err := scheduleBranch(ctx, env, c)
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
	agentArgs, err := agent.CommandLine(agentName, req.AgentCommand)
	if err != nil {
		return nil, err
	}
	exe, gitPath, err := capturedExecutables(env)
	if err != nil {
		return nil, err
	}
	sch, err := scheduler.Detect()
	if err != nil {
		return nil, err
	}
	if err := sch.Check(ctx); err != nil {
		return nil, err
	}
	rec := &contracts.Schedule{
		ID: ScheduleID(c.Identity, branch), Connection: c.Ref(), Identity: c.Identity, ProjectRoot: p.Root, Branch: branch,
		Calendar: cal.OnCalendar, At: req.At, Publish: req.Publish, Agent: agentName, AgentArgs: agentArgs,
		Timeout: orDuration(req.Timeout, DefaultCleanupTimeout).String(), Executable: exe, Git: gitPath, Path: os.Getenv("PATH"),
		StateDir: env.Home.Root, KeepRuns: orInt(req.KeepRuns, DefaultKeepRuns), LogBytes: orInt(req.LogBytes, DefaultLogBytes),
		Scheduler: sch.Kind,
	}
	if req.Every != 0 {
		rec.Every, rec.At = req.Every.String(), ""
	}
	job := scheduleJob(rec, cal)
	rec.Files = sch.Files(job)

	lk, err := env.Home.Lock("schedules", "cleanup schedule", env.LockWait)
	if err != nil {
		return nil, err
	}
	defer lk.Release()
	data, err := encodeSchedule(rec)
	if err != nil {
		return nil, err
	}
	action := contracts.ScheduleCreated
	if old, err := readScheduleFile(env, rec.ID); err == nil {
		action = contracts.ScheduleReplaced
		if bytes.Equal(old, data) {
			action = contracts.ScheduleUnchanged
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
	return &contracts.ScheduleResult{SchemaVersion: contracts.CLIVersion, Action: action, Schedule: rec, Commands: cmds}, nil
}

// scheduleBranch is the branch a schedule pins: a git source's ref, or the
// branch a directory source's checkout is on.
func scheduleBranch(ctx context.Context, env Env, c sources.Connection) (string, error) {
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
func capturedExecutables(env Env) (string, string, error) {
	exe, err := os.Executable()
	if err == nil {
		exe, err = filepath.EvalSymlinks(exe)
	}
	if err != nil {
		return "", "", contracts.Errorf(contracts.CodeInternal, "cannot find this program's path: %v", err)
	}
	gitPath, err := exec.LookPath(env.Git.Path)
	if err == nil {
		gitPath, err = filepath.Abs(gitPath)
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

func encodeSchedule(rec *contracts.Schedule) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString("# git-context-tree cleanup schedule; written by `git context-tree cleanup schedule`.\n")
	if err := toml.NewEncoder(&b).Encode(rec); err != nil {
		return nil, contracts.Errorf(contracts.CodeInternal, "encode schedule: %v", err)
	}
	return b.Bytes(), nil
}

func schedulePath(env Env, id string) string { return env.Home.Path("schedules", id+".toml") }

func readScheduleFile(env Env, id string) ([]byte, error) {
	if !validScheduleID(id) {
		return nil, contracts.Errorf(contracts.CodeUsage, "%q is not a schedule id (16 hex digits, see `git context-tree cleanup list`)", id)
	}
	path := schedulePath(env, id)
	if err := checkStatePath(path); err != nil {
		return nil, err
	}
	return os.ReadFile(path)
}

func checkStatePath(path string) error {
	fi, err := os.Lstat(path)
	if err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		return contracts.Errorf(contracts.CodeStateInvalid, "state path %s is a symlink", path)
	}
	return nil
}

func validScheduleID(id string) bool {
	if len(id) != 16 {
		return false
	}
	_, err := hex.DecodeString(id)
	return err == nil && strings.ToLower(id) == id
}

// loadSchedule reads schedules/<id>.toml.
func loadSchedule(env Env, id string) (*contracts.Schedule, []byte, error) {
	data, err := readScheduleFile(env, id)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, contracts.Errorf(contracts.CodeScheduleNotFound, "no cleanup schedule %s on this machine (see `git context-tree cleanup list`)", id).
			WithDetails(map[string]any{"schedule": id})
	}
	if err != nil {
		var ce *contracts.Error
		if errors.As(err, &ce) {
			return nil, nil, err
		}
		return nil, nil, contracts.Errorf(contracts.CodeIO, "cannot read schedule %s: %v", id, err)
	}
	var rec contracts.Schedule
	if _, err := toml.Decode(string(data), &rec); err != nil || rec.ID != id {
		return nil, nil, contracts.Errorf(contracts.CodeStateInvalid, "schedule record %s is damaged", schedulePath(env, id))
	}
	return &rec, data, nil
}

// allSchedules reads every schedule record.
func allSchedules(env Env) ([]*contracts.Schedule, error) {
	entries, err := os.ReadDir(env.Home.Path("schedules"))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, contracts.Errorf(contracts.CodeIO, "cannot list schedules: %v", err)
	}
	var out []*contracts.Schedule
	for _, e := range entries {
		id, ok := strings.CutSuffix(e.Name(), ".toml")
		if !ok || !validScheduleID(id) {
			continue
		}
		rec, _, err := loadSchedule(env, id)
		if err != nil {
			return nil, err
		}
		out = append(out, rec)
	}
	return out, nil
}

// findSchedule finds the schedule of a selector (the declared source's,
// preferring its current branch) or by id.
func findSchedule(ctx context.Context, env Env, selector, id string) (*contracts.Schedule, error) {
	if id != "" {
		rec, _, err := loadSchedule(env, id)
		return rec, err
	}
	_, conns, err := openProject(ctx, env)
	if err != nil {
		return nil, err
	}
	c, err := sessionConnection(env, conns, selector)
	if err != nil {
		return nil, err
	}
	all, err := allSchedules(env)
	if err != nil {
		return nil, err
	}
	var match []*contracts.Schedule
	for _, s := range all {
		if s.Identity == c.Identity {
			match = append(match, s)
		}
	}
	if len(match) > 1 {
		if branch, err := scheduleBranch(ctx, env, c); err == nil {
			for _, s := range match {
				if s.Branch == branch {
					return s, nil
				}
			}
		}
	}
	if len(match) == 0 {
		return nil, contracts.Errorf(contracts.CodeScheduleNotFound, "%s has no cleanup schedule on this machine (see `git context-tree cleanup schedule`)", c.Exact).
			WithDetails(map[string]any{"selector": c.Exact})
	}
	return match[0], nil
}

// UnscheduleRequest is what `cleanup unschedule` was asked to do.
type UnscheduleRequest struct {
	Selector   string
	ScheduleID string
	Orphans    bool
	Purge      bool
}

// CleanupUnschedule removes a schedule: its scheduler job (disabled and
// unloaded), its record and, with Purge, its history. A schedule that is
// already gone is "absent", not an error. With Orphans it also removes
// every job of ours whose record is gone.
func CleanupUnschedule(ctx context.Context, env Env, req UnscheduleRequest) (*contracts.ScheduleResult, error) {
	res := &contracts.ScheduleResult{SchemaVersion: contracts.CLIVersion, Action: contracts.ScheduleAbsent, Commands: [][]string{}}
	sch, err := scheduler.Detect()
	if err != nil {
		return nil, err
	}
	sch.Check(ctx) // finds the tool; removal goes ahead without a manager
	lk, err := env.Home.Lock("schedules", "cleanup unschedule", env.LockWait)
	if err != nil {
		return nil, err
	}
	defer lk.Release()
	if req.Selector != "" || req.ScheduleID != "" || !req.Orphans {
		id := req.ScheduleID
		rec, err := findSchedule(ctx, env, req.Selector, id)
		var ce *contracts.Error
		switch {
		case err == nil:
			id = rec.ID
			res.Schedule = rec
		case errors.As(err, &ce) && ce.Code == contracts.CodeScheduleNotFound && id != "":
		case errors.As(err, &ce) && ce.Code == contracts.CodeScheduleNotFound:
			return res, nil
		default:
			return nil, err
		}
		cmds, present, err := sch.Remove(ctx, scheduler.Prefix+"."+id)
		res.Commands = append(res.Commands, cmds...)
		if err != nil {
			return nil, err
		}
		if rerr := os.Remove(schedulePath(env, id)); rerr == nil || present {
			res.Action = contracts.ScheduleRemoved
		} else if !errors.Is(rerr, fs.ErrNotExist) {
			return nil, contracts.Errorf(contracts.CodeIO, "cannot remove the schedule record: %v", rerr)
		}
		if req.Purge {
			if err := (history.Store{Home: env.Home, ScheduleID: id}).Purge(); err != nil {
				return nil, err
			}
		}
	}
	if req.Orphans {
		orphans, err := orphanJobs(env, sch)
		if err != nil {
			return nil, err
		}
		for _, name := range orphans {
			res.Orphans = append(res.Orphans, sch.FilesOf(name)...)
			cmds, _, err := sch.Remove(ctx, name)
			res.Commands = append(res.Commands, cmds...)
			if err != nil {
				return nil, err
			}
		}
		if len(orphans) > 0 {
			res.Action = contracts.ScheduleRemoved
		}
	}
	return res, nil
}

// orphanJobs are our scheduler jobs whose schedule record is gone.
func orphanJobs(env Env, sch *scheduler.Scheduler) ([]string, error) {
	names, err := sch.Names()
	if err != nil {
		return nil, err
	}
	var orphans []string
	for _, n := range names {
		id := strings.TrimPrefix(n, scheduler.Prefix+".")
		if _, err := os.Lstat(schedulePath(env, id)); errors.Is(err, fs.ErrNotExist) {
			orphans = append(orphans, n)
		}
	}
	return orphans, nil
}

// CleanupList lists the schedules (all, or the selected source's) with
// their loaded state, missing captured executables, last run and the
// orphaned jobs.
func CleanupList(ctx context.Context, env Env, selector string) (*contracts.ScheduleList, error) {
	var recs []*contracts.Schedule
	var err error
	if selector != "" {
		var rec *contracts.Schedule
		rec, err = findSchedule(ctx, env, selector, "")
		recs = []*contracts.Schedule{rec}
	} else {
		recs, err = allSchedules(env)
	}
	if err != nil {
		return nil, err
	}
	res := &contracts.ScheduleList{SchemaVersion: contracts.CLIVersion, Schedules: []contracts.ScheduleStatus{}, Orphans: []string{}}
	sch, schErr := scheduler.Detect()
	for _, rec := range recs {
		st := contracts.ScheduleStatus{Schedule: rec, Missing: []string{}}
		if schErr == nil && rec.Scheduler == sch.Kind {
			st.Loaded = sch.Loaded(ctx, scheduler.Job{ID: rec.ID})
		}
		paths := []string{rec.Executable, rec.Git}
		if len(rec.AgentArgs) > 0 {
			paths = append(paths, rec.AgentArgs[0])
		}
		for _, p := range paths {
			if fi, err := os.Stat(p); err != nil || fi.IsDir() {
				st.Missing = append(st.Missing, p)
			}
		}
		store := history.Store{Home: env.Home, ScheduleID: rec.ID}
		if ids, err := store.IDs(); err == nil && len(ids) > 0 {
			st.LastRun, _ = store.Load(ids[len(ids)-1])
		}
		res.Schedules = append(res.Schedules, st)
	}
	if schErr == nil {
		orphans, err := orphanJobs(env, sch)
		if err != nil {
			return nil, err
		}
		for _, n := range orphans {
			res.Orphans = append(res.Orphans, sch.FilesOf(n)...)
		}
	}
	return res, nil
}

func orDuration(d, def time.Duration) time.Duration {
	if d <= 0 {
		return def
	}
	return d
}

func orInt(n, def int) int {
	if n <= 0 {
		return def
	}
	return n
}
