package git

import (
	"context"
	"fmt"
	"strings"
)

// mergeIdentity names the synthetic commits MergeTrees makes: they are
// never referenced or published, and must not need the user's identity.
var mergeIdentity = []string{"-c", "user.name=git-context-tree", "-c", "user.email=git-context-tree@localhost"}

// MergeTrees applies what changes from base to theirs onto ours (three
// tree ids), as cherry-pick would, entirely in the repository gitDir: no
// work tree, index or configuration of anyone else takes part. It returns
// the merged tree and the paths left with conflicts (their files in the
// tree hold conflict markers). git merge-tree takes commits and, before
// git 2.40, no explicit merge base, so the three trees are wrapped in
// commits whose only common ancestor is base's.
func (g *Git) MergeTrees(ctx context.Context, gitDir, base, ours, theirs string) (tree string, conflicts []string, err error) {
	commit := func(tree string, parent ...string) (string, error) {
		args := append(append([]string{"--git-dir=" + gitDir}, mergeIdentity...), "commit-tree", tree, "-m", "git-context-tree update")
		for _, p := range parent {
			args = append(args, "-p", p)
		}
		out, err := g.Run(ctx, Isolated, gitDir, args...)
		return strings.TrimSpace(string(out)), err
	}
	b, err := commit(base)
	if err != nil {
		return "", nil, err
	}
	o, err := commit(ours, b)
	if err != nil {
		return "", nil, err
	}
	t, err := commit(theirs, b)
	if err != nil {
		return "", nil, err
	}
	out, err := g.InRepo(ctx, gitDir, "merge-tree", "--write-tree", "-z", "--name-only", "--no-messages", o, t)
	if err != nil && ExitCode(err) != 1 {
		return "", nil, err
	}
	// -z: the tree, NUL; with conflicts, each path and NUL, then NUL.
	recs := strings.Split(string(out), "\x00")
	if len(recs) == 0 || !isObjectID(recs[0]) {
		return "", nil, fmt.Errorf("git merge-tree: unexpected output %q", out)
	}
	if err == nil {
		return recs[0], nil, nil
	}
	for _, p := range recs[1:] {
		if p == "" {
			break
		}
		conflicts = append(conflicts, p)
	}
	return recs[0], conflicts, nil
}
