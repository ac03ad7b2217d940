package operations

import (
	"context"
	"os"
	"path/filepath"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/sources"
	"github.com/git-context-tree/git-context-tree/internal/tree"
)

// InitRequest is what `init` was asked to do.
type InitRequest struct {
	Dir       string // default: the command's directory
	Title     string // default: from the directory name
	NoConnect bool   // write the tree only, without declaring it
}

// Init scaffolds a new tree root (content only) and declares it in the
// project configuration. The tree is written while the configuration lock
// is held, and removed again if declaring it fails, so a refusal (an
// existing NODE.md, a held lock, an invalid configuration) leaves nothing
// behind.
func Init(ctx context.Context, env Env, req InitRequest) (*contracts.InitResult, error) {
	abs := env.Dir
	if req.Dir != "" {
		abs = env.Abs(req.Dir)
	}
	title := req.Title
	if title == "" {
		title = tree.DefaultTitle(abs)
	}
	if req.NoConnect {
		root, err := tree.Scaffold(abs, title)
		if err != nil {
			return nil, err
		}
		return initResult(root, title, false), nil
	}
	p, _, err := openProject(ctx, env)
	if err != nil {
		return nil, err
	}
	firstMissing := missingAncestor(abs)
	var root string
	_, err = p.UpdateConfig(env.LockWait, func(cfg *contracts.Config) (bool, error) {
		if root, err = tree.Scaffold(abs, title); err != nil {
			return false, err
		}
		src, err := directorySource(p, env, ConnectRequest{Target: root})
		if err != nil {
			return false, err
		}
		want := sources.NewConnection(p.Root, src)
		for _, s := range cfg.Trees {
			if sources.NewConnection(p.Root, s).Identity == want.Identity {
				return false, nil
			}
		}
		cfg.Trees = append(cfg.Trees, src)
		return true, nil
	})
	if err != nil {
		if root != "" {
			undoScaffold(root, firstMissing)
		}
		return nil, err
	}
	return initResult(root, title, true), nil
}

func initResult(root, title string, connected bool) *contracts.InitResult {
	return &contracts.InitResult{SchemaVersion: contracts.CLIVersion, Root: root,
		Document: filepath.Join(root, tree.NodeFile), Title: title, Connected: connected}
}

// missingAncestor returns the outermost directory of dir that does not
// exist yet ("" when dir exists): what scaffolding will create.
func missingAncestor(dir string) string {
	missing := ""
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Lstat(d); err == nil || d == filepath.Dir(d) {
			return missing
		}
		missing = d
	}
}

// undoScaffold removes the NODE.md init wrote and the directories it
// created for it, only while they are empty.
func undoScaffold(root, firstMissing string) {
	os.Remove(filepath.Join(root, tree.NodeFile))
	if firstMissing == "" {
		return
	}
	for d := root; ; d = filepath.Dir(d) {
		if os.Remove(d) != nil || d == firstMissing || d == filepath.Dir(d) {
			return
		}
	}
}
