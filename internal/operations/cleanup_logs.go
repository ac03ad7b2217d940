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
// schedule), oldest first; with Run, that run and its redacted output.
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
	res := &contracts.CleanupLogs{SchemaVersion: contracts.CLIVersion, Runs: []contracts.RunRecord{}}
	for _, s := range scheds {
		store := history.Store{Home: env.Home, ScheduleID: s.ID}
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
