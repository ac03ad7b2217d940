package git

import (
	"bytes"
	"context"
	"strconv"
	"strings"
	"time"
)

// BranchState is a checkout's position and cleanliness, from one
// `git status --porcelain=v2 --branch`.
type BranchState struct {
	Head     string // "" on an unborn branch
	Branch   string // "" when detached
	Upstream string // "" without one
	// Ahead and Behind count commits against the upstream; HasCounts is
	// false when there is no upstream or git cannot compare (its ref is gone).
	Ahead, Behind int
	HasCounts     bool
	Dirty         bool // tracked changes or untracked, non-ignored files
}

// BranchState reads the checkout at dir: HEAD, branch, upstream counts and
// whether anything under dir, except the excluded paths (relative to the
// checkout's root), differs from HEAD.
func (g *Git) BranchState(ctx context.Context, scope Scope, dir string, exclude ...string) (BranchState, error) {
	args := []string{"status", "--porcelain=v2", "--branch", "-z", "--untracked-files=all", "--", "."}
	for _, p := range exclude {
		args = append(args, ":(top,literal,exclude)"+p)
	}
	out, err := g.Run(ctx, scope, dir, args...)
	if err != nil {
		return BranchState{}, err
	}
	return parseBranchState(out), nil
}

// CheckoutState reads, with one git process, what directory resolution
// asks of a checkout: HEAD, the branch ("" when detached) and whether
// anything under dir differs from HEAD (tracked changes, staged or not,
// and untracked files that are not ignored). Like Dirty it only looks
// (--no-optional-locks), and it skips counting commits against the
// upstream (--no-ahead-behind), which can walk a long history.
func (g *Git) CheckoutState(ctx context.Context, scope Scope, dir string) (BranchState, error) {
	out, err := g.Run(ctx, scope, dir, "--no-optional-locks", "status", "--porcelain=v2", "--branch", "--no-ahead-behind", "-z", "--untracked-files=all", "--", ".")
	if err != nil {
		return BranchState{}, err
	}
	return parseBranchState(out), nil
}

func parseBranchState(out []byte) BranchState {
	var s BranchState
	for _, r := range bytes.Split(out, []byte{0}) {
		line := string(r)
		switch {
		case line == "":
		case strings.HasPrefix(line, "# branch.oid "):
			if oid := strings.TrimPrefix(line, "# branch.oid "); oid != "(initial)" {
				s.Head = oid
			}
		case strings.HasPrefix(line, "# branch.head "):
			if b := strings.TrimPrefix(line, "# branch.head "); b != "(detached)" {
				s.Branch = b
			}
		case strings.HasPrefix(line, "# branch.upstream "):
			s.Upstream = strings.TrimPrefix(line, "# branch.upstream ")
		case strings.HasPrefix(line, "# branch.ab "):
			f := strings.Fields(strings.TrimPrefix(line, "# branch.ab "))
			if len(f) == 2 {
				a, errA := strconv.Atoi(strings.TrimPrefix(f[0], "+"))
				b, errB := strconv.Atoi(strings.TrimPrefix(f[1], "-"))
				s.Ahead, s.Behind, s.HasCounts = a, b, errA == nil && errB == nil
			}
		case line[0] == '#':
		default:
			// A rename's source path is a record of its own; any record
			// at all means the checkout is dirty.
			s.Dirty = true
		}
	}
	return s
}

// HeadTime is the committer date of HEAD in the checkout at dir.
func (g *Git) HeadTime(ctx context.Context, scope Scope, dir string) (time.Time, error) {
	out, err := g.Run(ctx, scope, dir, "show", "-s", "--no-show-signature", "--format=%ct", "HEAD^{commit}", "--")
	if err != nil {
		return time.Time{}, err
	}
	secs, err := strconv.ParseInt(strings.TrimSpace(string(out)), 10, 64)
	if err != nil {
		return time.Time{}, err
	}
	return time.Unix(secs, 0).UTC(), nil
}
