package cleanup

import (
	"bytes"
	"context"
	"encoding/hex"
	"errors"
	"io/fs"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/operations"
	"github.com/git-context-tree/git-context-tree/internal/operations/session"
	"github.com/git-context-tree/git-context-tree/internal/sources"
)

// Schedule records: schedules/<id>.toml in the machine state, one per
// logical source and branch.

func encodeSchedule(rec *contracts.Schedule) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString("# git-context-tree cleanup schedule; written by `git context-tree cleanup schedule`.\n")
	if err := toml.NewEncoder(&b).Encode(rec); err != nil {
		return nil, contracts.Errorf(contracts.CodeInternal, "encode schedule: %v", err)
	}
	return b.Bytes(), nil
}

func schedulePath(env operations.Env, id string) string {
	return env.Home.Path("schedules", id+".toml")
}

func readScheduleFile(env operations.Env, id string) ([]byte, error) {
	if !validScheduleID(id) {
		return nil, contracts.Errorf(contracts.CodeUsage, "%q is not a schedule id (16 hex digits, see `git context-tree cleanup list`)", id)
	}
	return env.Home.ReadFile(schedulePath(env, id))
}

func validScheduleID(id string) bool {
	if len(id) != 16 {
		return false
	}
	_, err := hex.DecodeString(id)
	return err == nil && strings.ToLower(id) == id
}

// loadSchedule reads schedules/<id>.toml.
func loadSchedule(env operations.Env, id string) (*contracts.Schedule, []byte, error) {
	data, err := readScheduleFile(env, id)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, contracts.Errorf(contracts.CodeScheduleNotFound, "no cleanup schedule %s on this machine (see `git context-tree cleanup list`)", id).
			WithDetails(map[string]any{"schedule": id})
	}
	if err != nil {
		return nil, nil, err
	}
	var rec contracts.Schedule
	if _, err := toml.Decode(string(data), &rec); err != nil || rec.ID != id {
		return nil, nil, contracts.Errorf(contracts.CodeStateInvalid, "schedule record %s is damaged", schedulePath(env, id))
	}
	// The record keeps the source only (ConnectionRef's selectors are
	// toml:"-"); they are generated here (S6), and older records' ignored.
	ref, ok := sources.PinnedRef(rec.Identity, rec.Connection.Source)
	if !ok {
		return nil, nil, contracts.Errorf(contracts.CodeStateInvalid, "schedule record %s is damaged: its identity is not its source's", schedulePath(env, id))
	}
	rec.Connection = ref
	return &rec, data, nil
}

// eachSchedule reads every schedule record: one that cannot be read
// (damaged, a symlink) is returned among the unreadable and the others are
// read all the same, so that it hides no other schedule. An error that is not one record's (the
// schedules directory) fails the whole.
func eachSchedule(env operations.Env) ([]*contracts.Schedule, []contracts.UnreadableRecord, error) {
	entries, err := env.Home.ReadDir(env.Home.Path("schedules"))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	var out []*contracts.Schedule
	var unreadable []contracts.UnreadableRecord
	for _, e := range entries {
		id, ok := strings.CutSuffix(e.Name(), ".toml")
		if !ok || !validScheduleID(id) {
			continue
		}
		rec, _, err := loadSchedule(env, id)
		var ce *contracts.Error
		switch {
		case err == nil:
			out = append(out, rec)
		case !errors.As(err, &ce):
			return nil, nil, err
		case ce.Code != contracts.CodeScheduleNotFound: // else removed since listed
			unreadable = append(unreadable, contracts.UnreadableRecord{ID: id, Record: schedulePath(env, id), Error: ce})
		}
	}
	return out, unreadable, nil
}

// findSchedule finds the schedule of a selector (the declared source's,
// preferring its current branch) or by id.
func findSchedule(ctx context.Context, env operations.Env, selector, id string) (*contracts.Schedule, error) {
	if id != "" {
		rec, _, err := loadSchedule(env, id)
		return rec, err
	}
	_, conns, err := operations.OpenProject(ctx, env)
	if err != nil {
		return nil, err
	}
	c, err := session.Connection(env, conns, selector)
	if err != nil {
		return nil, err
	}
	all, unreadable, err := eachSchedule(env)
	if err != nil {
		return nil, err
	}
	var match []*contracts.Schedule
	for _, s := range all {
		if s.Identity == c.Identity {
			match = append(match, s)
		}
	}
	if len(match) > 1 || len(unreadable) > 0 {
		if branch, err := scheduleBranch(ctx, env, c); err == nil {
			for _, s := range match {
				if s.Branch == branch {
					return s, nil
				}
			}
		}
	}
	// Past the current branch's schedule, a record that cannot be read may
	// be the one asked for: it is named rather than passed over.
	if len(unreadable) > 0 {
		return nil, unreadable[0].Error
	}
	if len(match) == 0 {
		return nil, contracts.Errorf(contracts.CodeScheduleNotFound, "%s has no cleanup schedule on this machine (see `git context-tree cleanup schedule`)", c.Exact).
			WithDetails(map[string]any{"selector": c.Exact})
	}
	return match[0], nil
}
