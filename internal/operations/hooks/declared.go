package hooks

import (
	"context"
	"errors"
	"path/filepath"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/operations"
	"github.com/git-context-tree/git-context-tree/internal/operations/staged"
)

// judgeDeclared makes a result whose hooks run the check say whether the
// check has anything to judge: the hook verifies the trees the index's
// configuration declares, so with none declared there (the configuration
// never staged, or declaring only git sources) an "effective" hook lets
// every tree through, or relies on the work tree's configuration.
func judgeDeclared(ctx context.Context, env operations.Env, s *hookSite, r *contracts.HooksResult) {
	if !r.Effective {
		return
	}
	d, err := staged.IndexDeclares(ctx, env.Git, env.Dir)
	if err != nil {
		var ce *contracts.Error
		msg := err.Error()
		if errors.As(err, &ce) {
			msg = ce.Message
		}
		r.Effective, r.Reason = false, "the hooks are installed, but the index cannot be read for declared trees: "+msg
		return
	}
	n := d.Trees
	r.DeclaredTrees = &n
	if d.Trees > 0 {
		return
	}
	r.Effective = false
	if d.Uncommitted != "" {
		rel, err := filepath.Rel(s.top, d.Uncommitted)
		if err != nil {
			rel = d.Uncommitted
		}
		r.UncommittedConfig = d.Uncommitted
		r.Reason = "installed, but no tree is declared in the index: " + rel + " is not committed (the hook verifies the trees it declares in the work tree until it is); run `git add " + rel + "` and commit it"
		return
	}
	r.Reason = "installed, but no tree is declared in the index: the staged " + contracts.ConfigFile + " declares no directory tree inside this repository, so the hook checks nothing"
	if !d.Staged {
		r.Reason = "installed, but no tree is declared in the index: there is no " + contracts.ConfigFile + " (run `git context-tree init <dir>` or `connect <dir>`, then commit the configuration)"
	}
}
