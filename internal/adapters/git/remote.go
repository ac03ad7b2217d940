package git

import (
	"context"
	"time"
)

// NetworkTimeout bounds one fetch, push or ls-remote.
const NetworkTimeout = 5 * time.Minute

// FetchBranch fetches exactly one branch of remote into dst (force-updated,
// so an upstream force-push is followed), without tags.
func (g *Git) FetchBranch(ctx context.Context, gitDir, remote, branch, dst string) error {
	ctx, cancel := context.WithTimeout(ctx, NetworkTimeout)
	defer cancel()
	_, err := g.InRepo(ctx, gitDir, "fetch", "--quiet", "--no-tags", "--no-write-fetch-head", "--", remote,
		"+refs/heads/"+branch+":"+dst)
	return err
}

// RemoteHasBranch asks the remote whether it has the branch: true, false,
// or an error when the remote cannot be reached.
func (g *Git) RemoteHasBranch(ctx context.Context, gitDir, remote, branch string) (bool, error) {
	ctx, cancel := context.WithTimeout(ctx, NetworkTimeout)
	defer cancel()
	_, err := g.InRepo(ctx, gitDir, "ls-remote", "--quiet", "--exit-code", "--heads", "--", remote, "refs/heads/"+branch)
	switch ExitCode(err) {
	case -1:
		return err == nil, err
	case 2:
		return false, nil
	default:
		return false, err
	}
}
