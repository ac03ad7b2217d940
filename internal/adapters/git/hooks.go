package git

import (
	"context"
	"fmt"
	"strings"
)

// HooksDir returns the absolute directory git runs hooks from for the
// repository at dir (core.hooksPath, or the common dir's hooks/, as
// `git rev-parse --git-path hooks` resolves it), and the common dir.
//
// This one question is asked without the hardening's core.hooksPath
// override (git.go), which would answer it with the null device: it is
// where `hooks install` puts the shim and `hooks status` looks for it. The
// command is rev-parse, which runs no hook.
func (g *Git) HooksDir(ctx context.Context, dir string) (hooks, commonDir string, err error) {
	if loc, _, err := g.location(ctx, Invoking, dir); err != nil || loc != nil {
		if err != nil {
			return "", "", err
		}
		return loc.Hooks, loc.CommonDir, nil
	}
	args := []string{"rev-parse", "--path-format=absolute", "--git-path", "hooks", "--git-common-dir"}
	cmd, err := g.commandWith(ctx, Invoking, dir, hardening[2:], args)
	if err != nil {
		return "", "", err
	}
	out, err := runCmd(cmd, args)
	if err != nil {
		return "", "", err
	}
	lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
	if len(lines) != 2 {
		return "", "", fmt.Errorf("git rev-parse --git-path hooks: unexpected output %q", out)
	}
	return lines[0], lines[1], nil
}

// GitDir returns the absolute git directory of the work tree at dir (a
// linked worktree's own, where git keeps CHERRY_PICK_HEAD and rebase
// state), honouring an inherited GIT_DIR as a hook sees it.
func (g *Git) GitDir(ctx context.Context, dir string) (string, error) {
	if loc, _, err := g.location(ctx, Invoking, dir); err != nil || loc != nil {
		return locationField(loc, err, func(l *Location) string { return l.GitDir })
	}
	out, err := g.Run(ctx, Invoking, dir, "rev-parse", "--path-format=absolute", "--git-dir")
	if err != nil {
		return "", err
	}
	return strings.TrimSuffix(string(out), "\n"), nil
}
