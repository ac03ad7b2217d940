package sources

import (
	"context"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/adapters/git"
)

// Checkout is what git knows about a directory's checkout.
type Checkout struct {
	Root  string // work tree root; "" when the directory is not in git
	Head  string // commit; "" on an unborn branch
	Dirty bool   // tracked changes or untracked, non-ignored files under the directory
}

// DescribeCheckout asks git about the checkout containing dir, if any.
func DescribeCheckout(ctx context.Context, g *git.Git, dir string) (*Checkout, error) {
	top, err := g.Toplevel(ctx, git.Isolated, dir)
	if err != nil {
		return nil, contracts.Errorf(contracts.CodeGit, "%v", err)
	}
	if top == "" {
		return &Checkout{}, nil
	}
	head, err := g.Head(ctx, git.Isolated, dir)
	if err != nil {
		return nil, contracts.Errorf(contracts.CodeGit, "%v", err)
	}
	dirty, err := g.Dirty(ctx, git.Isolated, dir, ".")
	if err != nil {
		return nil, contracts.Errorf(contracts.CodeGit, "%v", err)
	}
	return &Checkout{Root: top, Head: head, Dirty: dirty}, nil
}
