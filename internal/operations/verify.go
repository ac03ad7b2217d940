package operations

import (
	"context"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/sources"
	"github.com/git-context-tree/git-context-tree/internal/tree"
)

// Verify verifies each tree directory given, or the tree found from the
// command's directory when none is. A directory that is not a tree root is
// an error for the whole request; findings are data.
func Verify(ctx context.Context, env Env, dirs []string) (*contracts.VerifyReport, error) {
	roots, err := treeRoots(ctx, env, dirs)
	if err != nil {
		return nil, err
	}
	rep := &contracts.VerifyReport{SchemaVersion: contracts.CLIVersion, OK: true, Trees: []contracts.TreeReport{}}
	for _, root := range roots {
		r := tree.Verify(root)
		rep.Trees = append(rep.Trees, contracts.TreeReport{Root: root, OK: r.OK(), Findings: r.Findings, Scanned: r.Scanned})
		rep.OK = rep.OK && r.OK()
	}
	return rep, nil
}

// treeRoots turns tree arguments into real root paths, in order, once each.
func treeRoots(ctx context.Context, env Env, dirs []string) ([]string, error) {
	if len(dirs) == 0 {
		root, err := sources.FindTreeRoot(ctx, env.Git, env.Dir)
		if err != nil {
			return nil, err
		}
		return []string{root}, nil
	}
	seen := map[string]bool{}
	var roots []string
	for _, d := range dirs {
		root, err := openTree(env.Abs(d), d)
		if err != nil {
			return nil, err
		}
		if !seen[root] {
			seen[root] = true
			roots = append(roots, root)
		}
	}
	return roots, nil
}

// openTree opens a directory the user named as a tree root.
func openTree(abs, name string) (string, error) {
	root, err := tree.OpenRoot(abs)
	if err != nil {
		return "", err
	}
	if !tree.IsTreeRoot(root) {
		return "", contracts.Errorf(contracts.CodeNotATree, "%s is not a tree: it has no NODE.md", name).WithDetails(map[string]any{"path": root})
	}
	return root, nil
}
