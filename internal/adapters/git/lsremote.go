package git

import (
	"context"
	"path/filepath"
	"strings"
	"time"
)

// LsRemoteTimeout bounds the branch check of connect: a quick question,
// answered "unreachable" rather than waited on.
const LsRemoteTimeout = 30 * time.Second

// RemoteBranches lists the branch names of the repository at url
// (`git ls-remote --heads`), asked from dir, an empty directory that is no
// repository: GIT_CEILING_DIRECTORIES stops discovery there, so no
// repository's own configuration applies, only the user's (insteadOf
// rewrites included). An error means the remote could not be asked.
func (g *Git) RemoteBranches(ctx context.Context, dir, url string) ([]string, error) {
	ctx, cancel := context.WithTimeout(ctx, LsRemoteTimeout)
	defer cancel()
	args := []string{"ls-remote", "--heads", "--", url}
	cmd, err := g.command(ctx, Isolated, dir, args...)
	if err != nil {
		return nil, err
	}
	cmd.Env = append(cmd.Env, "GIT_CEILING_DIRECTORIES="+filepath.Dir(dir))
	out, err := runCmd(cmd, args)
	if err != nil {
		return nil, err
	}
	var branches []string
	for _, line := range strings.Split(string(out), "\n") {
		_, ref, ok := strings.Cut(line, "\t")
		if name, found := strings.CutPrefix(ref, "refs/heads/"); ok && found {
			branches = append(branches, name)
		}
	}
	return branches, nil
}

// RemoteURL is the address git would use for url after the user's
// url.<base>.insteadOf rewrites (`git ls-remote --get-url`, which asks no
// remote), asked from dir as RemoteBranches asks.
func (g *Git) RemoteURL(ctx context.Context, dir, url string) (string, error) {
	args := []string{"ls-remote", "--get-url", "--", url}
	cmd, err := g.command(ctx, Isolated, dir, args...)
	if err != nil {
		return "", err
	}
	cmd.Env = append(cmd.Env, "GIT_CEILING_DIRECTORIES="+filepath.Dir(dir))
	out, err := runCmd(cmd, args)
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(string(out)), nil
}
