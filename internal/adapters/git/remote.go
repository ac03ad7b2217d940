package git

import (
	"context"
	"io"
	"os/exec"
	"time"
)

// NetworkTimeout bounds one fetch, push or ls-remote.
const NetworkTimeout = 5 * time.Minute

// FetchOptions shape a fetch.
type FetchOptions struct {
	// Filter is an object filter (PartialFilter) for a partial cache; ""
	// fetches every object.
	Filter string
	// Progress, when set, receives git's own progress output (stderr with
	// --progress) as it comes; nil fetches quietly.
	Progress io.Writer
}

// FetchBranch fetches exactly one branch of remote into dst (force-updated,
// so an upstream force-push is followed), without tags.
func (g *Git) FetchBranch(ctx context.Context, gitDir, remote, branch, dst string, opt FetchOptions) error {
	ctx, cancel := context.WithTimeout(ctx, NetworkTimeout)
	defer cancel()
	args := []string{"--git-dir=" + gitDir, "fetch", "--no-tags", "--no-write-fetch-head"}
	if opt.Filter != "" {
		args = append(args, "--filter="+opt.Filter)
	}
	args = append(args, progressFlag(opt.Progress), "--", remote, "+refs/heads/"+branch+":"+dst)
	cmd, err := g.command(ctx, Isolated, gitDir, args...)
	if err != nil {
		return err
	}
	_, err = runWithProgress(cmd, args, nil, opt.Progress)
	return err
}

func progressFlag(w io.Writer) string {
	if w == nil {
		return "--quiet"
	}
	return "--progress"
}

// runWithProgress runs cmd with stdin, copying its stderr to progress as
// it comes while keeping it for the error.
func runWithProgress(cmd *exec.Cmd, args []string, stdin io.Reader, progress io.Writer) ([]byte, error) {
	cmd.Stdin = stdin
	return runCmdTee(cmd, args, progress)
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

func contextWithNetworkTimeout(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, NetworkTimeout)
}
