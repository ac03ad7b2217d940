package operations

import (
	"context"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/adapters/history"
)

// LogsRequest is what `cleanup logs` was asked to show.
type LogsRequest struct {
	Selector   string
	ScheduleID string
	Run        string
}

// CleanupLogs returns the recorded runs of one schedule (or of every
// schedule), oldest first; with Run (an id or a unique prefix of one, at
// least 4 characters), that run and its redacted output.
func CleanupLogs(ctx context.Context, env Env, req LogsRequest) (*contracts.CleanupLogs, error) {
	var scheds []*contracts.Schedule
	if req.Selector != "" || req.ScheduleID != "" {
		s, err := findSchedule(ctx, env, req.Selector, req.ScheduleID)
		if err != nil {
			return nil, err
		}
		scheds = []*contracts.Schedule{s}
	} else {
		all, err := allSchedules(env)
		if err != nil {
			return nil, err
		}
		scheds = all
	}
	if req.Run != "" {
		return runLog(env, scheds, req.Run)
	}
	res := &contracts.CleanupLogs{SchemaVersion: contracts.CLIVersion, Runs: []contracts.RunRecord{}}
	for _, s := range scheds {
		runs, err := history.Store{Home: env.Home, ScheduleID: s.ID}.All()
		if err != nil {
			return nil, err
		}
		res.Runs = append(res.Runs, runs...)
	}
	return res, nil
}

// runLog returns one run, named by its id or a unique prefix of it (issue
// 13: ids are 36 characters), from the schedules' histories, with its
// redacted output.
func runLog(env Env, scheds []*contracts.Schedule, run string) (*contracts.CleanupLogs, error) {
	var ids []string
	stores := map[string]history.Store{}
	for _, s := range scheds {
		store := history.Store{Home: env.Home, ScheduleID: s.ID}
		got, err := store.IDs()
		if err != nil {
			return nil, err
		}
		for _, id := range got {
			stores[id] = store
		}
		ids = append(ids, got...)
	}
	id, err := resolvePrefix(run, ids, "cleanup run")
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
		return nil, contracts.Errorf(contracts.CodeIO, "cannot read the output of run %s: %v", id, err)
	}
	return &contracts.CleanupLogs{SchemaVersion: contracts.CLIVersion, Runs: []contracts.RunRecord{*rec}, Output: &out}, nil
}
