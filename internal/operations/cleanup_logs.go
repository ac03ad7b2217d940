package operations

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"slices"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/adapters/history"
)

// LogsRequest is what `cleanup logs` was asked to show.
type LogsRequest struct {
	Selector   string
	ScheduleID string
	Run        string
}

// CleanupLogs returns the recorded runs of one source and branch (or of
// every one with a history), oldest first; with Run, that run and its
// redacted output. History outlives its schedule (unschedule keeps it
// unless --purge) and ad hoc runs have none: both are found by the
// source's schedule id.
func CleanupLogs(ctx context.Context, env Env, req LogsRequest) (*contracts.CleanupLogs, error) {
	ids, err := logIDs(ctx, env, req)
	if err != nil {
		return nil, err
	}
	res := &contracts.CleanupLogs{SchemaVersion: contracts.CLIVersion, Runs: []contracts.RunRecord{}}
	for _, id := range ids {
		store := history.Store{Home: env.Home, ScheduleID: id}
		if req.Run != "" {
			rec, err := store.Load(req.Run)
			if err != nil {
				continue
			}
			out, err := store.Output(req.Run)
			if err != nil {
				return nil, contracts.Errorf(contracts.CodeIO, "cannot read the output of run %s: %v", req.Run, err)
			}
			res.Runs, res.Output = []contracts.RunRecord{*rec}, &out
			return res, nil
		}
		runs, err := store.All()
		if err != nil {
			return nil, err
		}
		res.Runs = append(res.Runs, runs...)
	}
	if req.Run != "" {
		return nil, contracts.Errorf(contracts.CodeScheduleNotFound, "no run %s in the cleanup history", req.Run)
	}
	return res, nil
}

// logIDs are the schedule ids whose history to show: the selected one
// (recorded or not), or every schedule and every history directory.
func logIDs(ctx context.Context, env Env, req LogsRequest) ([]string, error) {
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
		_, conns, err := openProject(ctx, env)
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
		return []string{ScheduleID(c.Identity, branch)}, nil
	}
	all, err := allSchedules(env)
	if err != nil {
		return nil, err
	}
	var ids []string
	for _, s := range all {
		ids = append(ids, s.ID)
	}
	entries, err := os.ReadDir(env.Home.Path("history"))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, contracts.Errorf(contracts.CodeIO, "cannot list the cleanup history: %v", err)
	}
	for _, e := range entries {
		if e.IsDir() && validScheduleID(e.Name()) && !slices.Contains(ids, e.Name()) {
			ids = append(ids, e.Name())
		}
	}
	return ids, nil
}
