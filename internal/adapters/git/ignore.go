package git

import (
	"bytes"
	"context"
	"strings"
)

// CheckIgnore returns which of paths (relative to dir, in dir's work
// tree) git ignores. Tracked files are never ignored, as in git add; paths
// are names, never pathspec patterns.
func (g *Git) CheckIgnore(ctx context.Context, dir string, paths []string) (map[string]bool, error) {
	args := []string{"check-ignore", "-z", "--stdin"}
	cmd, err := g.command(ctx, Isolated, dir, args...)
	if err != nil {
		return nil, err
	}
	var in bytes.Buffer
	for _, p := range paths {
		in.WriteString("./" + p) // a leading ":" would be pathspec magic
		in.WriteByte(0)
	}
	cmd.Stdin = &in
	out, err := runCmd(cmd, args)
	if ExitCode(err) == 1 {
		return map[string]bool{}, nil // none is ignored
	}
	if err != nil {
		return nil, err
	}
	ignored := map[string]bool{}
	for _, p := range splitNUL(out) {
		ignored[strings.TrimPrefix(p, "./")] = true
	}
	return ignored, nil
}
