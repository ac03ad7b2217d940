package operations

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/operations/idprefix"
	"github.com/git-context-tree/git-context-tree/internal/sources"
)

// Sync fetches every selected git source into its cache and snapshot and
// resolves every selected directory source (S8–S10). A configuration or
// selection failure fails the whole request; one source's failure is
// reported in its entry and the others go on.
func Sync(ctx context.Context, env Env, selectors []string, offline bool) (*contracts.SyncResult, error) {
	return syncSources(ctx, env, selectors, offline, false)
}

// SyncPruned is Sync followed by pruning every synced repository's old
// snapshots (`sync --prune`), as `gc` does for all of them.
func SyncPruned(ctx context.Context, env Env, selectors []string, offline bool) (*contracts.SyncResult, error) {
	return syncSources(ctx, env, selectors, offline, true)
}

func syncSources(ctx context.Context, env Env, selectors []string, offline, prune bool) (*contracts.SyncResult, error) {
	settings, err := readPruneSettings(env.Vars)
	if err != nil {
		return nil, err
	}
	_, conns, err := OpenProject(ctx, env)
	if err != nil {
		return nil, err
	}
	if len(selectors) > 0 {
		var picked []sources.Connection
		seen := map[string]bool{}
		for _, sel := range selectors {
			c, err := sources.Select(conns, sel, env.Dir)
			if err != nil {
				return nil, err
			}
			if !seen[c.Identity] {
				seen[c.Identity] = true
				picked = append(picked, c)
			}
		}
		conns = picked
	}
	entries, err := syncAll(ctx, env, conns, offline)
	if err != nil {
		return nil, err
	}
	res := &contracts.SyncResult{SchemaVersion: contracts.CLIVersion, Connections: entries}
	// After the syncs, under each repository's lock in turn: pruning never
	// removes a tip, so what sync just returned stays.
	if res.Prune, err = pruneSynced(ctx, env, conns, prune, settings); err != nil {
		return nil, err
	}
	return res, nil
}

// syncWorkers bounds how many repositories are synced at once.
const syncWorkers = 4

// syncAll syncs connections concurrently, one repository per worker (the
// repository lock would serialise them anyway) and, within a repository, in
// declaration order so that several subtrees of one branch share one fetch.
// Entries come back in declaration order.
func syncAll(ctx context.Context, env Env, conns []sources.Connection, offline bool) ([]contracts.SyncEntry, error) {
	groups := map[string][]int{}
	var order []string
	for i, c := range conns {
		key := c.Identity // directory sources stand alone
		if c.Source.Kind == contracts.SourceGit {
			key = "git:" + strings.ToLower(c.Source.Repository)
		}
		if _, ok := groups[key]; !ok {
			order = append(order, key)
		}
		groups[key] = append(groups[key], i)
	}
	entries := make([]contracts.SyncEntry, len(conns))
	errs := make([]error, len(order))
	sem := make(chan struct{}, syncWorkers)
	var wg sync.WaitGroup
	for g, key := range order {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			// The first source of a branch fetches it; the others share that
			// fetch, and what it changed.
			since := map[string]string{}
			fetched := map[string]bool{}
			// Asked before any of them syncs: a sibling's snapshot build
			// checks a newly declared subtree out too.
			held := map[int]bool{}
			for _, i := range groups[key] {
				if c := conns[i]; c.Source.Kind == contracts.SourceGit {
					held[i] = env.Managed().HeldAtTip(c)
				}
			}
			for _, i := range groups[key] {
				c := conns[i]
				if ctx.Err() != nil {
					errs[g] = ctx.Err()
					return
				}
				opt := sources.SyncOptions{Offline: offline, Fetched: fetched[c.Source.Ref], Since: since[c.Source.Ref], NewSubtree: !held[i], Dirs: siblingDirs(conns, groups[key], c)}
				entry, err := syncOne(ctx, env, c, opt)
				if err == nil {
					fetched[c.Source.Ref] = true
					if !opt.Fetched && entry.Repository != nil {
						since[c.Source.Ref] = orEmpty(entry.PreviousCommit)
					}
				} else if entries[i], errs[g] = failedEntry(c, err); errs[g] != nil {
					return
				}
				if err == nil {
					entries[i] = entry
				}
			}
		}()
	}
	wg.Wait()
	return entries, errors.Join(errs...)
}

// failedEntry turns an expected failure into the source's entry; anything
// else fails the whole request.
func failedEntry(c sources.Connection, err error) (contracts.SyncEntry, error) {
	var ce *contracts.Error
	if !errors.As(err, &ce) {
		return contracts.SyncEntry{}, err
	}
	return contracts.SyncEntry{Connection: c.Ref(), Error: ce}, nil
}

// siblingDirs are the subtrees declared for c's repository and branch
// besides c's own, so that one snapshot build holds them all.
func siblingDirs(conns []sources.Connection, group []int, c sources.Connection) []string {
	var dirs []string
	for _, i := range group {
		if o := conns[i]; o.Source.Ref == c.Source.Ref && o.Source.Path != c.Source.Path {
			dirs = append(dirs, o.Source.Path)
		}
	}
	return dirs
}

func orEmpty(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func syncOne(ctx context.Context, env Env, c sources.Connection, opt sources.SyncOptions) (contracts.SyncEntry, error) {
	if c.Source.Kind == contracts.SourceDirectory {
		return resolvedDirectory(ctx, env, c)
	}
	snap, err := env.Managed().SyncWith(ctx, c, opt)
	if err != nil {
		return contracts.SyncEntry{}, err
	}
	// Fetched content is verified (S8) and the verdict recorded, so that
	// read and resolve never serve a rejected snapshot as valid; they serve
	// the last commit that verified instead, marked stale.
	if err := env.Managed().VerifySnapshot(ctx, c, snap); err != nil {
		return contracts.SyncEntry{}, withLastGood(ctx, env, c, err)
	}
	clean := false
	e := contracts.SyncEntry{OK: true, Connection: c.Ref(), TreeRoot: snap.TreeRoot, Dirty: &clean,
		Repository: &contracts.RepositoryState{Repository: snap.Repository, Subtree: c.Source.Path, Branch: snap.Branch,
			Commit: snap.Commit, Snapshot: snap.Path, Cache: snap.Cache},
		Changed: snap.Previous != snap.Commit, Offline: opt.Offline}
	if snap.Previous != "" {
		e.PreviousCommit = &snap.Previous
	}
	if snap.ChangedFiles >= 0 {
		e.ChangedFiles = &snap.ChangedFiles
	}
	if !snap.FetchedAt.IsZero() {
		at := snap.FetchedAt.UTC().Format(time.RFC3339)
		e.FetchedAt = &at
	}
	if snap.Rebuilt {
		e.Rebuilt = true
		note := "the snapshot of " + snap.Commit[:12] + " was modified or replaced (or made by an earlier version) and was rebuilt"
		if len(snap.Discarded) > 0 {
			note += "; changes made in it were discarded (snapshots are read-only copies: edit in a write session): " + idprefix.ListSome(snap.Discarded, 5)
		}
		e.Notes = append(e.Notes, note)
	}
	if snap.FullClone {
		e.Notes = append(e.Notes, "the server does not support partial clones: fetched every object of "+snap.Repository+" once")
	}
	return e, nil
}

// resolvedDirectory reports a directory source as sync does (S7, S10).
func resolvedDirectory(ctx context.Context, env Env, c sources.Connection) (contracts.SyncEntry, error) {
	d, err := sources.ResolveDirectory(ctx, env.Git, c.Dir)
	if err != nil {
		return contracts.SyncEntry{}, err
	}
	// Outside git, Repository and Dirty stay nil: both are written as null.
	e := contracts.SyncEntry{OK: true, Connection: c.Ref(), TreeRoot: d.ContentRoot}
	if d.InGit() {
		dirty := d.Dirty
		e.Dirty = &dirty
		e.Repository = &contracts.RepositoryState{Root: d.RepositoryRoot, Subtree: d.Subtree, Branch: d.Branch, Detached: d.Detached, Commit: d.Head}
	}
	return e, nil
}

// SyncSource syncs one declared source on its own, as sync would (prepare
// --sync).
func SyncSource(ctx context.Context, env Env, c sources.Connection) (contracts.SyncEntry, error) {
	return syncOne(ctx, env, c, sources.SyncOptions{})
}

// withLastGood adds to a rejection what readers are served meanwhile: the
// last commit of the branch that verified, whose snapshot it keeps.
func withLastGood(ctx context.Context, env Env, c sources.Connection, err error) error {
	var ce *contracts.Error
	if !errors.As(err, &ce) || (ce.Code != contracts.CodeTreeInvalid && ce.Code != contracts.CodeNotATree) {
		return err
	}
	good, kerr := env.Managed().KeepLastGood(ctx, c)
	if kerr != nil || good == "" {
		ce.Message += "; no earlier commit of it verified here, so reads of it are refused until it is repaired upstream (for example in `git context-tree write prepare " + c.Exact + "`)"
		return ce
	}
	ce.Message += fmt.Sprintf("; reads are served from %.12s, the last commit that verified, marked stale, until it is repaired upstream (for example in `git context-tree write prepare %s`)", good, c.Exact)
	if ce.Details == nil {
		ce.Details = map[string]any{}
	}
	ce.Details["servedCommit"] = good
	return ce
}
