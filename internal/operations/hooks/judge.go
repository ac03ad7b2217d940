package hooks

import (
	"context"
	"os"
	"path/filepath"
	"slices"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/operations"
)

// Judges says whether `verify --staged --hook <hook>` has a commit to
// judge, and if not, why (a note for the report). pre-commit,
// pre-merge-commit and pre-applypatch always do: git runs them with the
// content about to be committed in the index. prepare-commit-msg runs for
// every commit, but only those cherry-pick, revert and rebase make were
// not judged already: pre-commit judged the others (or was skipped on
// purpose with --no-verify), pre-merge-commit or pre-commit judged merges.
// So it judges only while such an operation is in progress, as its state
// in the git directory shows: CHERRY_PICK_HEAD, REVERT_HEAD, MERGE_MSG
// without MERGE_HEAD (a revert or cherry-pick writes the message there),
// sequencer/ (several picks), rebase-merge/ or rebase-apply/.
func Judges(ctx context.Context, env operations.Env, hook string) (bool, string, error) {
	if hook != "" && !slices.Contains(hookNames, hook) {
		return false, "", contracts.Errorf(contracts.CodeUsage, "--hook %q: the check runs in %v", hook, hookNames)
	}
	if hook != "prepare-commit-msg" {
		return true, "", nil
	}
	dir, err := env.Git.GitDir(ctx, env.Dir)
	if err != nil {
		return false, "", operations.GitError(err)
	}
	if exists(filepath.Join(dir, "MERGE_HEAD")) {
		return false, "a merge: judged by pre-merge-commit or pre-commit", nil
	}
	for _, name := range []string{"CHERRY_PICK_HEAD", "REVERT_HEAD", "MERGE_MSG", "sequencer", "rebase-merge", "rebase-apply"} {
		if _, err := os.Lstat(filepath.Join(dir, name)); err == nil {
			return true, "", nil
		}
	}
	return false, "not a cherry-pick, revert or rebase: the commit is judged by pre-commit", nil
}
