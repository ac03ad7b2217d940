package operations

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/environ"
	"github.com/git-context-tree/git-context-tree/internal/operations/session/record"
	"github.com/git-context-tree/git-context-tree/internal/sources"
)

// Pruning settings. The machine has no settings file, so they are
// environment variables, like CONTEXT_TREE_LOCK_WAIT.
const (
	// AutoPruneVar lets sync prune a repository by itself once it has more
	// than this many old snapshots (an integer, 0 or more). Unset or "off",
	// sync never removes a snapshot on its own: S18 says caches and
	// snapshots have no automatic eviction, and S8 that a returned snapshot
	// path is stable across later refreshes.
	AutoPruneVar = "CONTEXT_TREE_AUTO_PRUNE"
	// PruneGraceVar is how recently used an old snapshot must be to be
	// kept (a Go duration, default DefaultPruneGrace).
	PruneGraceVar = "CONTEXT_TREE_PRUNE_GRACE"
)

// DefaultPruneGrace outlasts any read that resolved a tip just before a
// sync moved it.
const DefaultPruneGrace = 10 * time.Minute

// GC prunes every cached repository on this machine: old snapshots go,
// the newest of each branch and those open sessions work from stay, and
// `git gc --auto` compacts each cache.
func GC(ctx context.Context, env Env) (*contracts.GCResult, error) {
	settings, err := readPruneSettings(env.Vars)
	if err != nil {
		return nil, err
	}
	repos, err := env.Managed().CachedRepositories()
	if err != nil {
		return nil, err
	}
	report, err := prune(ctx, env, repos, -1, settings.grace)
	if err != nil {
		return nil, err
	}
	return &contracts.GCResult{SchemaVersion: contracts.CLIVersion, GCReport: *report}, nil
}

// pruneSynced prunes the repositories of the git sources sync just synced:
// all of them with --prune, else those with more old snapshots than
// CONTEXT_TREE_AUTO_PRUNE allows. It returns nil when it pruned nothing
// (automatic pruning off or not needed).
func pruneSynced(ctx context.Context, env Env, conns []sources.Connection, explicit bool, settings pruneSettings) (*contracts.GCReport, error) {
	limit, on := settings.autoLimit, settings.auto
	if !explicit && !on {
		return nil, nil
	}
	var repos []string
	for _, c := range conns {
		repo := strings.ToLower(c.Source.Repository)
		if c.Source.Kind != contracts.SourceGit || slices.Contains(repos, repo) {
			continue
		}
		// Without git: every snapshot but one (the tip just synced) may be
		// old, so fewer than limit+2 cannot need pruning.
		if explicit || env.Managed().SnapshotCount(repo) > limit+1 {
			repos = append(repos, repo)
		}
	}
	if len(repos) == 0 && !explicit {
		return nil, nil
	}
	moreThan := limit
	if explicit {
		moreThan = -1
	}
	report, err := prune(ctx, env, repos, moreThan, settings.grace)
	if err != nil || (!explicit && len(report.Repositories) == 0) {
		return nil, err
	}
	return report, nil
}

// prune prunes each repository under its lock; a repository that cannot
// be pruned (its lock held, its cache damaged) is reported with its error
// and the others go on.
func prune(ctx context.Context, env Env, repos []string, moreThan int, grace time.Duration) (*contracts.GCReport, error) {
	pins, err := sessionPins(env)
	if err != nil {
		return nil, err
	}
	slices.Sort(repos)
	report := &contracts.GCReport{Repositories: []contracts.GCRepository{}}
	now := time.Now()
	for _, repo := range repos {
		r, err := env.Managed().Prune(ctx, repo, sources.PruneOptions{Pinned: pins[repo], Grace: grace, Now: now, MoreThan: moreThan})
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if r.Skipped {
			continue
		}
		entry := contracts.GCRepository{Repository: repo, Removed: r.Removed, Kept: r.Kept, Snapshots: r.Snapshots, BytesFreed: r.BytesFreed}
		if entry.Removed == nil {
			entry.Removed = []string{}
		}
		if err != nil {
			var ce *contracts.Error
			if !errors.As(err, &ce) {
				return nil, err
			}
			entry.Error = ce
		}
		report.Repositories = append(report.Repositories, entry)
		report.SnapshotsRemoved += len(r.Removed)
		report.BytesFreed += r.BytesFreed
	}
	return report, nil
}

// sessionPins maps each repository to the commits its open write sessions
// work from (the base, and both ends of an update in progress). Sessions
// are repositories of their own and never read a snapshot, so this only
// keeps at hand the snapshot a session's work is judged against. A record
// that cannot be read pins nothing: its base stays reachable in the cache
// through the session's branch all the same.
func sessionPins(env Env) (map[string]map[string]bool, error) {
	ids, err := record.Store{Home: env.Home}.IDs()
	if err != nil {
		return nil, err
	}
	pins := map[string]map[string]bool{}
	for _, id := range ids {
		s, err := record.Store{Home: env.Home}.Load(id)
		if err != nil || s.ClosedAt != "" || s.Repository.Kind != contracts.SourceGit {
			continue
		}
		repo := strings.ToLower(s.Connection.Source.Repository)
		if pins[repo] == nil {
			pins[repo] = map[string]bool{}
		}
		pins[repo][s.Base] = true
		if s.Update != nil {
			pins[repo][s.Update.From], pins[repo][s.Update.Onto] = true, true
		}
	}
	return pins, nil
}

// pruneSettings are the pruning settings of this run, read before any
// work so that a bad value changes nothing.
type pruneSettings struct {
	auto      bool // CONTEXT_TREE_AUTO_PRUNE is set
	autoLimit int
	grace     time.Duration
}

func readPruneSettings(vars environ.Vars) (pruneSettings, error) {
	var s pruneSettings
	var err error
	if s.autoLimit, s.auto, err = autoPruneLimit(vars); err != nil {
		return s, err
	}
	s.grace, err = pruneGrace(vars)
	return s, err
}

// autoPruneLimit reads CONTEXT_TREE_AUTO_PRUNE: on, and how many old
// snapshots a repository may keep before sync prunes it.
func autoPruneLimit(vars environ.Vars) (limit int, on bool, err error) {
	v := vars.Get(AutoPruneVar)
	if v == "" || v == "off" {
		return 0, false, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		return 0, false, contracts.Errorf(contracts.CodeUsage, "%s=%q is neither a number of old snapshots (0 or more) nor off", AutoPruneVar, v)
	}
	return n, true, nil
}

// pruneGrace reads CONTEXT_TREE_PRUNE_GRACE.
func pruneGrace(vars environ.Vars) (time.Duration, error) {
	v := vars.Get(PruneGraceVar)
	if v == "" {
		return DefaultPruneGrace, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d < 0 {
		return 0, contracts.Errorf(contracts.CodeUsage, "%s=%q is not a duration such as 10m", PruneGraceVar, v)
	}
	return d, nil
}
