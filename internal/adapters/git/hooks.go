package git

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
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
	args := []string{"rev-parse", "--path-format=absolute", "--git-path", "hooks", "--git-common-dir"}
	cmd, err := g.command(ctx, Invoking, dir, args...)
	if err != nil {
		return "", "", err
	}
	for i := 1; i+1 < len(cmd.Args); i++ {
		if cmd.Args[i] == "-c" && cmd.Args[i+1] == "core.hooksPath="+os.DevNull {
			cmd.Args = append(cmd.Args[:i:i], cmd.Args[i+2:]...)
			break
		}
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		var xe *exec.ExitError
		if errors.As(err, &xe) {
			return "", "", &ExitError{Args: args, Code: xe.ExitCode(), Stderr: stderr.String()}
		}
		return "", "", fmt.Errorf("run git %s: %w", strings.Join(args, " "), err)
	}
	out := stdout.Bytes()
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
	out, err := g.Run(ctx, Invoking, dir, "rev-parse", "--path-format=absolute", "--git-dir")
	if err != nil {
		return "", err
	}
	return strings.TrimSuffix(string(out), "\n"), nil
}
