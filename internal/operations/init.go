package operations

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/tree"
)

// InitRequest is what `init` was asked to do.
type InitRequest struct {
	Dir       string // default: the command's directory
	Title     string // default: from the directory name
	NoConnect bool   // write the tree only, without declaring it
}

// Init scaffolds a new tree root (content only) and declares it in the
// project configuration. It refuses, writing nothing, when the directory
// already holds a NODE.md. The configuration is checked before anything is
// written, so an invalid one leaves no half-done tree.
func Init(ctx context.Context, env Env, req InitRequest) (*contracts.InitResult, error) {
	p, _, err := openProject(ctx, env)
	if err != nil && !req.NoConnect {
		return nil, err
	}
	abs := env.Dir
	if req.Dir != "" {
		abs = env.Abs(req.Dir)
	}
	title := req.Title
	if title == "" {
		title = tree.DefaultTitle(abs)
	}
	root, err := tree.Scaffold(abs, title)
	if err != nil {
		return nil, err
	}
	res := &contracts.InitResult{SchemaVersion: contracts.CLIVersion, Root: root, Document: filepath.Join(root, tree.NodeFile), Title: title}
	if req.NoConnect {
		return res, nil
	}
	src, err := directorySource(p, env, ConnectRequest{Target: root})
	if err == nil {
		_, err = declare(p, env, src)
	}
	if err != nil {
		return nil, fmt.Errorf("created %s but did not declare it in %s: %w", res.Document, p.ConfigFile, err)
	}
	res.Connected = true
	return res, nil
}
