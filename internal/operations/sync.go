package operations

import (
	"context"
	"errors"
	"strings"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/sources"
	"github.com/git-context-tree/git-context-tree/internal/tree"
)

// Sync fetches every selected git source into its cache and snapshot and
// resolves every selected directory source (S8–S10). A configuration or
// selection failure fails the whole request; one source's failure is
// reported in its entry and the others go on.
func Sync(ctx context.Context, env Env, selectors []string, offline bool) (*contracts.SyncResult, error) {
	_, conns, err := openProject(ctx, env)
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
	res := &contracts.SyncResult{SchemaVersion: contracts.CLIVersion, Connections: []contracts.SyncEntry{}}
	// Several subtrees of one branch share one fetch: after the first,
	// the others use the cached ref.
	fetched := map[string]bool{}
	for _, c := range conns {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		branchKey := strings.ToLower(c.Source.Repository) + "\x00" + c.Source.Ref
		entry, err := syncOne(ctx, env, c, offline || fetched[branchKey])
		if err == nil && c.Source.Kind == contracts.SourceGit {
			fetched[branchKey] = true
		}
		if err != nil {
			var ce *contracts.Error
			if !errors.As(err, &ce) {
				return nil, err
			}
			entry = contracts.SyncEntry{Connection: c.Ref(), Error: ce}
		}
		res.Connections = append(res.Connections, entry)
	}
	return res, nil
}

func syncOne(ctx context.Context, env Env, c sources.Connection, offline bool) (contracts.SyncEntry, error) {
	if c.Source.Kind == contracts.SourceDirectory {
		return resolvedDirectory(ctx, env, c)
	}
	snap, err := env.managed().Sync(ctx, c, offline)
	if err != nil {
		return contracts.SyncEntry{}, err
	}
	if err := verifyFetched(snap.TreeRoot); err != nil {
		return contracts.SyncEntry{}, err
	}
	clean := false
	return contracts.SyncEntry{OK: true, Connection: c.Ref(), TreeRoot: snap.TreeRoot, Dirty: &clean,
		Repository: &contracts.RepositoryState{Repository: snap.Repository, Subtree: c.Source.Path, Branch: snap.Branch,
			Commit: snap.Commit, Snapshot: snap.Path, Cache: snap.Cache}}, nil
}

// verifyFetched validates fetched content with the tree verifier (S8).
func verifyFetched(root string) error {
	if !tree.IsTreeRoot(root) {
		return contracts.Errorf(contracts.CodeNotATree, "the fetched subtree %s has no NODE.md", root).WithDetails(map[string]any{"root": root})
	}
	if rep := tree.Verify(root); !rep.OK() {
		return contracts.Errorf(contracts.CodeTreeInvalid, "the fetched tree does not verify (%d findings)", len(rep.Findings)).
			WithDetails(map[string]any{"root": root, "findings": rep.Findings})
	}
	return nil
}

// resolvedDirectory reports a directory source as sync does (S7, S10).
func resolvedDirectory(ctx context.Context, env Env, c sources.Connection) (contracts.SyncEntry, error) {
	d, err := sources.ResolveDirectory(ctx, env.Git, c.Dir)
	if err != nil {
		return contracts.SyncEntry{}, err
	}
	e := contracts.SyncEntry{OK: true, Connection: c.Ref(), TreeRoot: d.ContentRoot}
	if d.InGit() {
		dirty := d.Dirty
		e.Dirty = &dirty
		e.Repository = &contracts.RepositoryState{Root: d.RepositoryRoot, Subtree: d.Subtree, Branch: d.Branch, Detached: d.Detached, Commit: d.Head}
	}
	return e, nil
}
