package cleanup

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"strings"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/adapters/history"
	"github.com/git-context-tree/git-context-tree/internal/adapters/scheduler"
	"github.com/git-context-tree/git-context-tree/internal/operations"
)

// UnscheduleRequest is what `cleanup unschedule` was asked to do.
type UnscheduleRequest struct {
	Selector   string
	ScheduleID string
	Orphans    bool
	Purge      bool
}

// Unschedule removes a schedule: its scheduler job (disabled and
// unloaded), its record and, with Purge, its history. A schedule that is
// already gone is "absent", not an error. With Orphans it also removes
// every job of ours whose record is gone.
func Unschedule(ctx context.Context, env operations.Env, req UnscheduleRequest) (*contracts.ScheduleResult, error) {
	res := &contracts.ScheduleResult{SchemaVersion: contracts.CLIVersion, Action: contracts.ScheduleAbsent, Commands: [][]string{}}
	sch, err := scheduler.Detect(env.Vars, env.Dir)
	if err != nil {
		return nil, err
	}
	// Removal goes ahead without a manager: our files and records go, and
	// the result says the manager was not told.
	managerErr := sch.Check(ctx)
	manager := managerErr == nil
	told := true
	lk, err := env.HomeLock("schedules", "cleanup unschedule")
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
		cmds, present, updated, err := sch.Remove(ctx, scheduler.Prefix+"."+id, manager)
		res.Commands = append(res.Commands, cmds...)
		told = told && updated
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
			cmds, _, updated, err := sch.Remove(ctx, name, manager)
			res.Commands = append(res.Commands, cmds...)
			told = told && updated
			if err != nil {
				return nil, err
			}
		}
		if len(orphans) > 0 {
			res.Action = contracts.ScheduleRemoved
		}
	}
	if !told {
		f := false
		res.ManagerUpdated = &f
		why := "its reload failed"
		if managerErr != nil {
			why = managerErr.Error()
			if i := strings.Index(why, "; nothing was written"); i > 0 {
				why = why[:i]
			}
		}
		res.Warnings = append(res.Warnings, "the files and the record were removed but the user manager was not told ("+why+"); once it runs again, `systemctl --user daemon-reload` (systemd) or `launchctl bootout gui/<uid>/<label>` (launchd) drops a job it still has loaded")
	}
	return res, nil
}

// orphanJobs are our scheduler jobs whose schedule record is gone.
func orphanJobs(env operations.Env, sch *scheduler.Scheduler) ([]string, error) {
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
