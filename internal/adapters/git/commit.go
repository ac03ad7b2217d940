package git

import (
	"bytes"
	"context"
	"strings"
)

// WorktreeAddBranch creates branch at commit and checks it out in a new
// worktree at path, for the repository whose git dir is gitDir.
func (g *Git) WorktreeAddBranch(ctx context.Context, gitDir, path, branch, commit string) error {
	_, err := g.InRepo(ctx, gitDir, "worktree", "add", "--quiet", "-b", branch, "--", path, commit)
	return err
}

// DeleteBranch deletes a local branch of gitDir, merged or not.
func (g *Git) DeleteBranch(ctx context.Context, gitDir, branch string) error {
	_, err := g.InRepo(ctx, gitDir, "branch", "--quiet", "-D", "--", branch)
	return err
}

// BranchExists reports whether refs/heads/branch exists in gitDir.
func (g *Git) BranchExists(ctx context.Context, gitDir, branch string) (bool, error) {
	_, err := g.InRepo(ctx, gitDir, "show-ref", "--verify", "--quiet", "refs/heads/"+branch)
	switch ExitCode(err) {
	case -1:
		return err == nil, err
	case 1:
		return false, nil
	default:
		return false, err
	}
}

// StagePaths stages every change (additions, edits, deletions) under the
// literal pathspec in the worktree at dir, and force-adds the listed
// ignored files.
func (g *Git) StagePaths(ctx context.Context, dir, pathspec string, ignored []string) error {
	if _, err := g.Run(ctx, Isolated, dir, "add", "-A", "--", ":(literal)"+pathspec); err != nil {
		return err
	}
	if len(ignored) == 0 {
		return nil
	}
	args := []string{"add", "-f", "--"}
	for _, p := range ignored {
		args = append(args, ":(literal)"+p)
	}
	_, err := g.Run(ctx, Isolated, dir, args...)
	return err
}

// Commit commits the index of the worktree at dir with the host identity.
// Hooks do not run: the caller has verified the content itself.
func (g *Git) Commit(ctx context.Context, dir, message string) (string, error) {
	if _, err := g.Run(ctx, Isolated, dir, "commit", "--quiet", "--no-verify", "--cleanup=verbatim", "-m", message); err != nil {
		return "", err
	}
	return g.Head(ctx, Isolated, dir)
}

// CommitParents returns a commit's parents.
func (g *Git) CommitParents(ctx context.Context, dir, commit string) ([]string, error) {
	out, err := g.Run(ctx, Isolated, dir, "rev-list", "--parents", "-n", "1", commit)
	if err != nil {
		return nil, err
	}
	f := strings.Fields(string(out))
	if len(f) == 0 {
		return nil, nil
	}
	return f[1:], nil
}

// ChangedPaths lists the paths that differ between two commits.
func (g *Git) ChangedPaths(ctx context.Context, dir, from, to string) ([]string, error) {
	out, err := g.Run(ctx, Isolated, dir, "diff-tree", "-r", "-z", "--name-only", "--no-renames", from, to)
	if err != nil {
		return nil, err
	}
	return splitNUL(out), nil
}

// splitNUL splits -z output into its non-empty records.
func splitNUL(out []byte) []string {
	var recs []string
	for _, p := range bytes.Split(out, []byte{0}) {
		if len(p) > 0 {
			recs = append(recs, string(p))
		}
	}
	return recs
}

// PushResult says how a push went.
type PushResult int

const (
	Pushed PushResult = iota
	// PushRejected: the remote refused the update (not a fast-forward).
	PushRejected
)

// Push pushes commit to refs/heads/branch of remote without force, from the
// repository whose git directory is gitDir, with that repository's own
// remote configuration. A rejection is a result, not an error; an
// unreachable remote is an error.
func (g *Git) Push(ctx context.Context, gitDir, remote, commit, branch string) (PushResult, error) {
	ctx, cancel := context.WithTimeout(ctx, NetworkTimeout)
	defer cancel()
	out, err := g.InRepo(ctx, gitDir, "push", "--porcelain", "--quiet", "--no-verify", "--", remote, commit+":refs/heads/"+branch)
	if err == nil {
		return Pushed, nil
	}
	// --porcelain flags a refused ref with "!" at the start of its line.
	for _, line := range strings.Split(string(out), "\n") {
		if strings.HasPrefix(line, "!\t") && ExitCode(err) == 1 {
			return PushRejected, nil
		}
	}
	return Pushed, err
}

// UpdateRef points ref at commit in gitDir.
func (g *Git) UpdateRef(ctx context.Context, gitDir, ref, commit string) error {
	_, err := g.InRepo(ctx, gitDir, "update-ref", ref, commit)
	return err
}

// CommonDir returns the absolute git common dir of the repository at dir.
func (g *Git) CommonDir(ctx context.Context, scope Scope, dir string) (string, error) {
	out, err := g.Run(ctx, scope, dir, "rev-parse", "--path-format=absolute", "--git-common-dir")
	if err != nil {
		return "", err
	}
	return strings.TrimSuffix(string(out), "\n"), nil
}

// CommitMessage returns a commit's full message.
func (g *Git) CommitMessage(ctx context.Context, dir, commit string) (string, error) {
	out, err := g.Run(ctx, Isolated, dir, "log", "-1", "--format=%B", commit)
	return string(out), err
}
