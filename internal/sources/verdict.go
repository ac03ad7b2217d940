package sources

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/tree"
)

// A snapshot that does not verify is never served as if it did (issue 11,
// break 7). Whether the tree of one subtree of one commit verifies is
// remembered in snapshots/<owner>/<repo>/<commit>.verdicts, a JSON object
// from subtree to {ok, findings}: a commit never changes and the snapshot
// is checked intact before it is used, so the verdict holds until the
// verifier itself changes. sync verifies again every time and rewrites it;
// readers consult it and verify once when there is none (a commit that
// reached the cache without a sync, such as one just published). A file in
// an earlier format reads as no verdict.
//
// One bad upstream commit must not stop every reader (issue 29): the
// newest commit of each branch whose subtree verified is recorded beside
// the fetched tips (see lastGood), and a reader of a rejected tip is served
// that commit's snapshot instead, marked stale with the rejected commit
// and its number of findings. Only with no such commit is the read refused.

type verdict struct {
	OK       bool `json:"ok"`
	Findings int  `json:"findings,omitempty"`
}

func (m *Managed) verdictFile(repository, commit string) (string, error) {
	snap, err := m.snapshotPath(repository, commit)
	if err != nil {
		return "", err
	}
	return snap + ".verdicts", nil
}

// loadVerdicts reads a snapshot's verdicts: none when the record is
// missing or reached through a symlink (a verdict from outside the state
// would spare a tree its verification).
func (m *Managed) loadVerdicts(file string) map[string]verdict {
	verdicts := map[string]verdict{}
	if data, err := m.Home.ReadFile(file); err == nil {
		if json.Unmarshal(data, &verdicts) != nil {
			return map[string]verdict{} // unreadable or older: verify again
		}
	}
	return verdicts
}

func (m *Managed) recordVerdict(snap *Snapshot, subtree string, v verdict) {
	file, err := m.verdictFile(snap.Repository, snap.Commit)
	if err != nil {
		return
	}
	verdicts := m.loadVerdicts(file)
	if old, known := verdicts[subtree]; known && old == v {
		return
	}
	verdicts[subtree] = v
	data, err := json.Marshal(verdicts)
	if err != nil {
		return
	}
	// Remembering is an optimisation: failing to write only costs a
	// verification the next time.
	_ = m.Home.WriteFile(filepath.Dir(file), filepath.Base(file), append(data, '\n'))
}

// VerifySnapshot verifies the tree of a git source's snapshot with the
// tree verifier (S8) and records the verdict: nil, or TREE_INVALID with
// every finding in its details (NOT_A_TREE when the subtree has no
// NODE.md). A tree that verifies becomes its branch's last good commit
// for that subtree. The verdict is the commit's: every document verified
// is held to the commit's blob (HeldReads), so a file changed in the
// snapshot since its check is SNAPSHOT_CORRUPT and records nothing.
func (m *Managed) VerifySnapshot(ctx context.Context, c Connection, snap *Snapshot) error {
	findings, err := m.verifySnapshotTree(ctx, c, snap)
	var ce *contracts.Error
	if err == nil || (errors.As(err, &ce) && (ce.Code == contracts.CodeTreeInvalid || ce.Code == contracts.CodeNotATree)) {
		m.recordVerdict(snap, c.Source.Path, verdict{OK: err == nil, Findings: findings})
	}
	if err == nil {
		m.recordGood(snap, c.Source.Path)
	}
	return err
}

func (m *Managed) verifySnapshotTree(ctx context.Context, c Connection, snap *Snapshot) (findings int, err error) {
	root := snap.TreeRoot
	if !tree.IsTreeRoot(root) {
		return 1, contracts.Errorf(contracts.CodeNotATree, "the fetched subtree %s has no NODE.md", root).WithDetails(map[string]any{"root": root})
	}
	held := snap.HoldReads(c, root)
	rep := tree.VerifyWith(root, tree.VerifyOptions{Observe: held.Observer()})
	check := held.Check
	if rep.OK() {
		check = held.CheckWhole // nothing removed during the walk either
	}
	if err := check(ctx, m.Git); err != nil {
		return 0, err
	}
	if !rep.OK() {
		return len(rep.Findings), contracts.Errorf(contracts.CodeTreeInvalid, "the fetched tree does not verify (%s)", countFindings(len(rep.Findings))).
			WithDetails(map[string]any{"root": root, "findings": rep.Findings})
	}
	return 0, nil
}

// Served is the snapshot a reader of a git source gets: snap when its
// tree verifies; when it does not, the snapshot of the branch's last good
// commit with the staleness to report; with no intact last good snapshot,
// TREE_INVALID without the findings (`verify` lists them). The rejected
// snapshot is kept, so verify and write sessions (which can repair it)
// still open it.
func (m *Managed) Served(ctx context.Context, c Connection, snap *Snapshot) (*Snapshot, *contracts.Staleness, error) {
	file, err := m.verdictFile(snap.Repository, snap.Commit)
	if err != nil {
		return nil, nil, err
	}
	v, known := m.loadVerdicts(file)[c.Source.Path]
	if !known {
		err := m.VerifySnapshot(ctx, c, snap)
		var ce *contracts.Error
		if err == nil || !errors.As(err, &ce) || (ce.Code != contracts.CodeTreeInvalid && ce.Code != contracts.CodeNotATree) {
			return snap, nil, err
		}
		v = m.loadVerdicts(file)[c.Source.Path]
	} else if v.OK {
		return snap, nil, nil
	}
	stale := &contracts.Staleness{Stale: true, RejectedCommit: snap.Commit, Findings: max(v.Findings, 1)}
	if good := m.lastGood(snap.Repository, snap.Branch, c.Source.Path); good != "" && good != snap.Commit {
		if last, err := m.snapshotAt(ctx, c, snap, good); err == nil {
			return last, stale, nil
		}
	}
	return nil, nil, contracts.Errorf(contracts.CodeTreeInvalid,
		"the latest fetched commit %.12s of %s does not verify (%s) and no earlier commit of it was verified here, so nothing is served; `git context-tree verify %s` lists the findings, and the tree can be repaired upstream (for example in `git context-tree write prepare %s`)",
		snap.Commit, describeSource(c), countFindings(stale.Findings), c.Exact, c.Exact).
		WithDetails(map[string]any{"selector": c.Exact, "commit": snap.Commit, "root": snap.TreeRoot})
}

// snapshotAt is the intact snapshot of another commit of snap's branch
// holding c's subtree.
func (m *Managed) snapshotAt(ctx context.Context, c Connection, snap *Snapshot, commit string) (*Snapshot, error) {
	path, err := m.snapshotPath(snap.Repository, commit)
	if err != nil {
		return nil, err
	}
	exists, intact, dirs := m.snapshotState(ctx, path, snap.Cache, commit)
	if !exists || !intact || !covers(dirs, []string{c.Source.Path}) {
		return nil, notSynced(c, "no intact snapshot of the last good commit "+commit)
	}
	markUsed(path)
	return &Snapshot{Repository: snap.Repository, Branch: snap.Branch, Commit: commit, Cache: snap.Cache, Path: path, TreeRoot: joinSubtree(path, c.Source.Path)}, nil
}

// countFindings is "1 finding" or "N findings".
func countFindings(n int) string {
	if n == 1 {
		return "1 finding"
	}
	return fmt.Sprintf("%d findings", n)
}

// KeepLastGood makes sure the snapshot of the branch's last good commit
// for c's subtree exists, for readers of a rejected tip, and returns that
// commit ("" when none is known). Its blobs are in the cache already.
func (m *Managed) KeepLastGood(ctx context.Context, c Connection) (string, error) {
	repo, branch := strings.ToLower(c.Source.Repository), c.Source.Ref
	good := m.lastGood(repo, branch, c.Source.Path)
	if good == "" {
		return "", nil
	}
	unlock, err := m.LockRepository(repo)
	if err != nil {
		return "", err
	}
	defer unlock()
	cache, err := m.openCache(ctx, repo)
	if err != nil || cache == "" {
		return "", err
	}
	if _, err := m.ensureSnapshot(ctx, cache, repo, good, []string{c.Source.Path}, "", true); err != nil {
		return "", err
	}
	return good, nil
}
