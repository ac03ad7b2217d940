package git

import (
	"bytes"
	"context"
	"fmt"
	"strconv"
	"strings"
)

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
	// --porcelain flags a refused ref with "!" at the start of its line and
	// says why in its third field: "[rejected]" when the remote branch is
	// not an ancestor (the target moved on); "[remote rejected]" when the
	// remote refused for a reason of its own, which is an error.
	for _, line := range strings.Split(string(out), "\n") {
		f := strings.SplitN(line, "\t", 4)
		if len(f) >= 3 && f[0] == "!" && strings.HasPrefix(f[2], "[rejected]") && ExitCode(err) == 1 {
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
	if loc, _, err := g.location(ctx, scope, dir); err != nil || loc != nil {
		return locationField(loc, err, func(l *Location) string { return l.CommonDir })
	}
	out, err := g.Run(ctx, scope, dir, "rev-parse", "--path-format=absolute", "--git-common-dir")
	if err != nil {
		return "", err
	}
	return strings.TrimSuffix(string(out), "\n"), nil
}

// GitDirs returns the absolute git directory of the work tree at dir (a
// linked worktree's own) and the repository's common directory (refs,
// config, shared by every worktree).
func (g *Git) GitDirs(ctx context.Context, scope Scope, dir string) (gitDir, common string, err error) {
	if loc, _, err := g.location(ctx, scope, dir); err != nil || loc != nil {
		if err != nil {
			return "", "", err
		}
		return loc.GitDir, loc.CommonDir, nil
	}
	out, err := g.Run(ctx, scope, dir, "rev-parse", "--path-format=absolute", "--git-dir", "--git-common-dir")
	if err != nil {
		return "", "", err
	}
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(lines) != 2 {
		return "", "", fmt.Errorf("git rev-parse --git-dir --git-common-dir: %d lines", len(lines))
	}
	return lines[0], lines[1], nil
}

// LogEntry is one commit as RecentCommits reads it.
type LogEntry struct {
	Hash, Author, Date, Subject string
}

// RecentCommits lists up to n commits reachable from HEAD in the checkout
// at dir, newest first (none on an unborn branch): NUL-separated fields,
// so subjects and names are taken as they are.
func (g *Git) RecentCommits(ctx context.Context, scope Scope, dir string, n int) ([]LogEntry, error) {
	out, err := g.Run(ctx, scope, dir, "log", "-n", strconv.Itoa(n), "--no-show-signature", "--format=%H%x00%an%x00%aI%x00%s%x00", "HEAD", "--")
	if err != nil {
		if h, herr := g.Head(ctx, scope, dir); herr == nil && h == "" {
			return nil, nil // an unborn branch has no commits
		}
		return nil, err
	}
	f := strings.Split(string(out), "\x00")
	var entries []LogEntry
	for i := 0; i+3 < len(f); i += 4 {
		entries = append(entries, LogEntry{Hash: strings.TrimLeft(f[i], "\n"), Author: f[i+1], Date: f[i+2], Subject: f[i+3]})
	}
	return entries, nil
}

// DiffShortstat is git's one-line summary of the work tree's changes
// against HEAD ("2 files changed, 5 insertions(+), 1 deletion(-)"), ""
// when there are none, leaving out the excluded paths.
func (g *Git) DiffShortstat(ctx context.Context, scope Scope, dir string, exclude ...string) (string, error) {
	args := []string{"--no-optional-locks", "diff", "--shortstat", "--no-ext-diff", "--no-color", "HEAD", "--", ":(top)"}
	for _, p := range exclude {
		args = append(args, ":(top,literal,exclude)"+p)
	}
	out, err := g.Run(ctx, scope, dir, args...)
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(string(out)), nil
}

// Stage adds paths (relative to dir) to the index of the checkout at dir.
// In a commit hook scope is Invoking: git points the hook at the index the
// commit is being made from (GIT_INDEX_FILE), which is the one to add to.
func (g *Git) Stage(ctx context.Context, scope Scope, dir string, paths ...string) error {
	args := append([]string{"add", "--"}, paths...)
	_, err := g.Run(ctx, scope, dir, args...)
	return err
}
