package sources

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/tree"
)

// A snapshot that does not verify is never served as if it did (issue 11,
// break 7). Whether the tree of one subtree of one commit verifies is
// remembered in snapshots/<owner>/<repo>/<commit>.verdicts, a JSON object
// from subtree to true (verified) or false (rejected): a commit never
// changes and the snapshot is checked intact before it is used, so the
// verdict holds until the verifier itself changes. sync verifies again
// every time and rewrites it; read and resolve consult it and verify once
// when there is none (a commit that reached the cache without a sync, such
// as one just published).

func (m *Managed) verdictFile(repository, commit string) (string, error) {
	snap, err := m.snapshotPath(repository, commit)
	if err != nil {
		return "", err
	}
	return snap + ".verdicts", nil
}

func (m *Managed) loadVerdicts(file string) map[string]bool {
	verdicts := map[string]bool{}
	if data, err := os.ReadFile(file); err == nil {
		_ = json.Unmarshal(data, &verdicts) // unreadable: verify again
	}
	return verdicts
}

func (m *Managed) recordVerdict(snap *Snapshot, subtree string, ok bool) {
	file, err := m.verdictFile(snap.Repository, snap.Commit)
	if err != nil {
		return
	}
	verdicts := m.loadVerdicts(file)
	if v, known := verdicts[subtree]; known && v == ok {
		return
	}
	verdicts[subtree] = ok
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
// NODE.md).
func (m *Managed) VerifySnapshot(c Connection, snap *Snapshot) error {
	err := verifySnapshotTree(snap.TreeRoot)
	var ce *contracts.Error
	if err == nil || (errors.As(err, &ce) && (ce.Code == contracts.CodeTreeInvalid || ce.Code == contracts.CodeNotATree)) {
		m.recordVerdict(snap, c.Source.Path, err == nil)
	}
	return err
}

func verifySnapshotTree(root string) error {
	if !tree.IsTreeRoot(root) {
		return contracts.Errorf(contracts.CodeNotATree, "the fetched subtree %s has no NODE.md", root).WithDetails(map[string]any{"root": root})
	}
	if rep := tree.Verify(root); !rep.OK() {
		return contracts.Errorf(contracts.CodeTreeInvalid, "the fetched tree does not verify (%s)", countFindings(len(rep.Findings))).
			WithDetails(map[string]any{"root": root, "findings": rep.Findings})
	}
	return nil
}

// RequireVerified refuses to serve a snapshot whose tree does not verify:
// read and resolve answer from the cached tip of the branch, and a tip
// that sync rejected must not be read as if it were valid. The refusal is
// TREE_INVALID without the findings (`verify` lists them); the snapshot is
// kept, so verify and write sessions (which can repair it) still open it.
func (m *Managed) RequireVerified(c Connection, snap *Snapshot) error {
	file, err := m.verdictFile(snap.Repository, snap.Commit)
	if err != nil {
		return err
	}
	ok, known := m.loadVerdicts(file)[c.Source.Path]
	if !known {
		err := m.VerifySnapshot(c, snap)
		var ce *contracts.Error
		if err == nil || !errors.As(err, &ce) || (ce.Code != contracts.CodeTreeInvalid && ce.Code != contracts.CodeNotATree) {
			return err
		}
	} else if ok {
		return nil
	}
	return contracts.Errorf(contracts.CodeTreeInvalid,
		"the latest fetched commit %.12s of %s does not verify, so it is not served; `git context-tree verify %s` lists the findings, and the tree can be repaired upstream (for example in `git context-tree write prepare %s`)",
		snap.Commit, describeSource(c), c.Exact, c.Exact).
		WithDetails(map[string]any{"selector": c.Exact, "commit": snap.Commit, "root": snap.TreeRoot})
}

// countFindings is "1 finding" or "N findings".
func countFindings(n int) string {
	if n == 1 {
		return "1 finding"
	}
	return fmt.Sprintf("%d findings", n)
}
