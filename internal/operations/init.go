package operations

import (
	"context"
	"path/filepath"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/tree"
)

// Init scaffolds a new tree root in dir (default: the command's directory).
// It writes content only; it refuses, writing nothing, when dir already
// holds a NODE.md.
func Init(ctx context.Context, env Env, dir, title string) (*contracts.InitResult, error) {
	abs := env.Dir
	if dir != "" {
		abs = env.Abs(dir)
	}
	if title == "" {
		title = tree.DefaultTitle(abs)
	}
	root, err := tree.Scaffold(abs, title)
	if err != nil {
		return nil, err
	}
	return &contracts.InitResult{
		SchemaVersion: contracts.CLIVersion,
		Root:          root,
		Document:      filepath.Join(root, tree.NodeFile),
		Title:         title,
	}, nil
}
