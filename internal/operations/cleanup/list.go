package cleanup

import (
	"context"
	"errors"
	"os"
	"time"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/adapters/history"
	"github.com/git-context-tree/git-context-tree/internal/adapters/scheduler"
	"github.com/git-context-tree/git-context-tree/internal/operations"
)

// List lists the schedules (all, or the selected source's) with
// their loaded state, missing captured executables, last run and the
// orphaned jobs.
func List(ctx context.Context, env operations.Env, selector string) (*contracts.ScheduleList, error) {
	var recs []*contracts.Schedule
	var unreadable []contracts.UnreadableRecord
	var err error
	if selector != "" {
		var rec *contracts.Schedule
		rec, err = findSchedule(ctx, env, selector, "")
		recs = []*contracts.Schedule{rec}
	} else {
		// One damaged record does not hide the other schedules.
		recs, unreadable, err = eachSchedule(env)
	}
	if err != nil {
		return nil, err
	}
	if err := checkHistoryRoot(env); err != nil {
		return nil, err
	}
	res := &contracts.ScheduleList{SchemaVersion: contracts.CLIVersion, Schedules: []contracts.ScheduleStatus{}, Orphans: []string{}, Unreadable: unreadable}
	sch, schErr := scheduler.Detect(env.Vars, env.Dir)
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
		ids, err := store.IDs()
		if err != nil {
			// A history that cannot be listed is named, not taken for none.
			res.Unreadable = append(res.Unreadable, historyUnreadable(env, rec.ID, err))
		}
		if len(ids) > 0 {
			last := ids[len(ids)-1]
			if st.LastRun, err = store.Load(last); err != nil {
				bad, err := store.Unreadable(last, err)
				if err != nil {
					return nil, err
				}
				if bad != nil {
					res.Unreadable = append(res.Unreadable, *bad)
				}
			}
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

// checkHistoryRoot refuses a history store reached through a symlink: the
// state's own structure, not one schedule's record (S18), so it fails the
// command, as a symlinked sessions/ does.
func checkHistoryRoot(env operations.Env) error {
	return env.Home.CheckPath(env.Home.Path("history"))
}

// historyUnreadable names the history directory of schedule id, which
// could not be listed.
func historyUnreadable(env operations.Env, id string, err error) contracts.UnreadableRecord {
	dir := env.Home.Path("history", id)
	var ce *contracts.Error
	if !errors.As(err, &ce) {
		ce = contracts.Errorf(contracts.CodeIO, "cannot list the run history %s: %v", dir, err)
	}
	return contracts.UnreadableRecord{ID: id, Record: dir, Error: ce}
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
