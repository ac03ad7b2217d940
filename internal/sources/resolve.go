package sources

import (
	"context"
	"path/filepath"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/adapters/git"
	"github.com/git-context-tree/git-context-tree/internal/tree"
)

// DirectoryResolution is directory resolution (S7): the real content root
// and, when it lies in a git checkout, the repository's view of it.
type DirectoryResolution struct {
	ContentRoot    string
	RepositoryRoot string // "" outside git
	Subtree        string // repository-relative, "/"-separated, "." for the root
	Branch         string // "" outside git or on a detached HEAD; a snapshot's is its source's branch (Detached too)
	Detached       bool
	Head           string // "" on an unborn branch
	Dirty          bool   // tracked changes or untracked non-ignored files under the root
}

// InGit reports whether the content root lies in a git checkout.
func (r *DirectoryResolution) InGit() bool { return r.RepositoryRoot != "" }

// ResolveDirectory resolves a directory source. No repository is required,
// and working changes are reported, not refused. The directory itself must
// exist and be reached without any symlink (OpenDirectoryRoot: a declared
// root that is or lies below a symlink in the project is refused with
// TREE_ROOT_SYMLINK, so no session is ever opened through one). Git runs
// isolated from inherited repository variables: the directory may belong
// to any repository.
func ResolveDirectory(ctx context.Context, g *git.Git, dir string) (*DirectoryResolution, error) {
	root, err := OpenDirectoryRoot(dir)
	if err != nil {
		return nil, err
	}
	r := &DirectoryResolution{ContentRoot: root}
	top, err := g.Toplevel(ctx, git.Isolated, root)
	if err != nil || top == "" {
		return r, gitError(err)
	}
	top = tree.RealPath(top)
	sub, ok := tree.Inside(top, root)
	if !ok {
		return nil, contracts.Errorf(contracts.CodeInternal, "%s is not below its checkout %s", root, top)
	}
	r.RepositoryRoot, r.Subtree = top, filepath.ToSlash(sub)
	st, err := g.CheckoutState(ctx, git.Isolated, root)
	if err != nil {
		return nil, gitError(err)
	}
	r.Head, r.Branch, r.Detached, r.Dirty = st.Head, st.Branch, st.Branch == "", st.Dirty
	return r, nil
}

func gitError(err error) error {
	if err == nil {
		return nil
	}
	return contracts.Errorf(contracts.CodeGit, "%v", err)
}
