package operations

import (
	"context"
	"slices"
	"strings"

	"github.com/google/uuid"

	"github.com/git-context-tree/git-context-tree/internal/adapters/history"
	"github.com/git-context-tree/git-context-tree/internal/adapters/state"
)

// The candidates of shell completion (`git context-tree __complete`).
// Completion runs on every <TAB>: these read what is there, create
// nothing, and give nothing rather than an error.

// CompletionSelectors are the selectors naming the project's declared
// trees: each short selector, or where several sources share one, their
// exact selectors; and each subtree selector. Sorted, no duplicates.
func CompletionSelectors(ctx context.Context, env Env) []string {
	_, conns, err := OpenProject(ctx, env)
	if err != nil {
		return nil
	}
	short := map[string]int{}
	for _, c := range conns {
		short[c.Ref().Selector]++
	}
	var out []string
	for _, c := range conns {
		ref := c.Ref()
		if short[ref.Selector] == 1 {
			out = append(out, ref.Selector)
		} else {
			out = append(out, ref.Exact)
		}
		if ref.SubtreeSelector != "" {
			out = append(out, ref.SubtreeSelector)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// CompletionSessionIDs are the ids of the write sessions recorded on this
// machine.
func CompletionSessionIDs(home *state.Home) []string {
	var ids []string
	for _, name := range entryNames(home, home.Path("sessions"), false) {
		if id, ok := strings.CutSuffix(name, ".json"); ok && uuid.Validate(id) == nil {
			ids = append(ids, id)
		}
	}
	return ids
}

// CompletionCleanupRunIDs are the ids of the recorded cleanup runs, of
// every schedule.
func CompletionCleanupRunIDs(home *state.Home) []string {
	var ids []string
	for _, schedule := range entryNames(home, home.Path("history"), true) {
		runs, _ := history.Store{Home: home, ScheduleID: schedule}.IDs()
		ids = append(ids, runs...)
	}
	slices.Sort(ids)
	return slices.Compact(ids)
}

// CompletionScheduleIDs are the ids of the cleanup schedules recorded on
// this machine.
func CompletionScheduleIDs(home *state.Home) []string {
	var ids []string
	for _, name := range entryNames(home, home.Path("schedules"), false) {
		if id, ok := strings.CutSuffix(name, ".toml"); ok {
			ids = append(ids, id)
		}
	}
	return ids
}

// CompletionEvalRunIDs are the ids of the recorded eval runs.
func CompletionEvalRunIDs(home *state.Home) []string {
	return entryNames(home, home.Path("evals"), true)
}

// entryNames lists a state directory's directories (dirs) or regular
// files, sorted; nothing when it is missing, unreadable or is or lies
// behind a symlink.
func entryNames(home *state.Home, dir string, dirs bool) []string {
	entries, err := home.ReadDir(dir)
	if err != nil {
		return nil
	}
	var names []string
	for _, e := range entries {
		if dirs && e.IsDir() || !dirs && e.Type().IsRegular() {
			names = append(names, e.Name())
		}
	}
	return names
}
