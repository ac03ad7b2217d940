package cleanup

import (
	"context"
	"errors"
	"io/fs"
	"slices"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/adapters/history"
	"github.com/git-context-tree/git-context-tree/internal/operations"
	"github.com/git-context-tree/git-context-tree/internal/operations/idprefix"
)

// LogsRequest is what `cleanup logs` was asked to show.
type LogsRequest struct {
	Selector   string
	ScheduleID string
	Run        string
}

// Logs returns the recorded runs of one source and branch (or of
// every one with a history), oldest first; with Run, that run and its
// redacted output. History outlives its schedule (unschedule keeps it
// unless --purge) and ad hoc runs have none: both are found by the
// source's schedule id.
func Logs(ctx context.Context, env operations.Env, req LogsRequest) (*contracts.CleanupLogs, error) {
	ids, err := logIDs(ctx, env, req)
	if err != nil {
		return nil, err
	}
	if req.Run != "" {
		return runLog(env, ids, req.Run)
	}
	if err := checkHistoryRoot(env); err != nil {
		return nil, err
	}
	res := &contracts.CleanupLogs{SchemaVersion: contracts.CLIVersion, Runs: []contracts.RunRecord{}}
	for _, id := range ids {
		store := history.Store{Home: env.Home, ScheduleID: id}
		runIDs, err := store.IDs()
		if err != nil {
			// The other schedules' runs are listed all the same.
			res.Unreadable = append(res.Unreadable, historyUnreadable(env, id, err))
			continue
		}
		runs, unreadable, err := store.Runs(runIDs)
		if err != nil {
			return nil, err
		}
		res.Runs = append(res.Runs, runs...)
		res.Unreadable = append(res.Unreadable, unreadable...)
	}
	return res, nil
}

// logIDs are the schedule ids whose history to show: the selected one
// (recorded or not), or every schedule and every history directory.
func logIDs(ctx context.Context, env operations.Env, req LogsRequest) ([]string, error) {
	if req.ScheduleID != "" {
		if !validScheduleID(req.ScheduleID) {
			return nil, contracts.Errorf(contracts.CodeUsage, "%q is not a schedule id (16 hex digits, see `git context-tree cleanup list`)", req.ScheduleID)
		}
		return []string{req.ScheduleID}, nil
	}
	if req.Selector != "" {
		s, err := findSchedule(ctx, env, req.Selector, "")
		var ce *contracts.Error
		if err == nil {
			return []string{s.ID}, nil
		}
		if !errors.As(err, &ce) || ce.Code != contracts.CodeScheduleNotFound {
			return nil, err
		}
		// Not scheduled (any more): the history of its current branch.
		_, c, branch, err := cleanupSource(ctx, env, req.Selector)
		if err != nil {
			return nil, err
		}
		return []string{ScheduleID(c.Identity, branch)}, nil
	}
	// A schedule whose record cannot be read still has its history.
	all, unreadable, err := eachSchedule(env)
	if err != nil {
		return nil, err
	}
	var ids []string
	for _, s := range all {
		ids = append(ids, s.ID)
	}
	for _, u := range unreadable {
		ids = append(ids, u.ID)
	}
	entries, err := env.Home.ReadDir(env.Home.Path("history"))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	for _, e := range entries {
		if e.IsDir() && validScheduleID(e.Name()) && !slices.Contains(ids, e.Name()) {
			ids = append(ids, e.Name())
		}
	}
	return ids, nil
}

// runLog returns one run, named by its id or a unique prefix of it (issue
// 13: ids are 36 characters), from the given histories, with its
// redacted output.
func runLog(env operations.Env, scheduleIDs []string, run string) (*contracts.CleanupLogs, error) {
	var ids []string
	stores := map[string]history.Store{}
	for _, sid := range scheduleIDs {
		store := history.Store{Home: env.Home, ScheduleID: sid}
		got, err := store.IDs()
		if err != nil {
			return nil, err
		}
		for _, id := range got {
			stores[id] = store
		}
		ids = append(ids, got...)
	}
	id, err := idprefix.Resolve(run, ids, "cleanup run")
	if err != nil {
		return nil, err
	}
	if id == "" {
		return nil, contracts.Errorf(contracts.CodeScheduleNotFound, "no run %s in the cleanup history (see `git context-tree cleanup logs`)", run).
			WithDetails(map[string]any{"run": run})
	}
	store := stores[id]
	rec, err := store.Load(id)
	if err != nil {
		return nil, err
	}
	out, err := store.Output(id)
	if err != nil {
		return nil, err
	}
	return &contracts.CleanupLogs{SchemaVersion: contracts.CLIVersion, Runs: []contracts.RunRecord{*rec}, Output: &out}, nil
}
