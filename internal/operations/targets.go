package operations

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/sources"
	"github.com/git-context-tree/git-context-tree/internal/tree"
)

// TreeTarget is a tree a command operates on: its root and, when it was
// chosen through the project configuration, its connection.
type TreeTarget struct {
	Root     string
	Conn     *sources.Connection
	Snapshot *sources.Snapshot // for a git source
	// Stale is set when the source's newest fetched commit does not
	// verify and Snapshot is the last one that did (see ServeVerified).
	Stale *contracts.Staleness
}

// ServeVerified makes a git source's target what readers get: its
// snapshot when that verifies, else the last commit that verified
// (Stale set), else TREE_INVALID. Other targets are left as they are.
func (t *TreeTarget) ServeVerified(ctx context.Context, env Env) error {
	if t.Snapshot == nil || t.Conn == nil {
		return nil
	}
	served, stale, err := env.Managed().Served(ctx, *t.Conn, t.Snapshot)
	if err != nil {
		return err
	}
	if stale != nil {
		root, err := tree.OpenRoot(served.TreeRoot)
		if err != nil {
			return err
		}
		t.Root, t.Snapshot, t.Stale = root, served, stale
	}
	return nil
}

// Ref names the target's tree for a result: root, selector and, in a
// checkout or snapshot, its commit and dirtiness, and staleness.
func (t TreeTarget) Ref(ctx context.Context, env Env) (contracts.TreeRef, error) {
	ref := contracts.TreeRef{Root: t.Root, Selector: t.Selector()}
	res, err := t.Resolution(ctx, env)
	if err != nil {
		return ref, err
	}
	if res.InGit() {
		dirty := res.Dirty
		ref.Head, ref.Dirty = res.Head, &dirty
	}
	if t.Stale != nil {
		ref.Staleness = *t.Stale
	}
	return ref, nil
}

// Selector is the exact selector of a declared tree, "" otherwise.
func (t TreeTarget) Selector() string {
	if t.Conn == nil {
		return ""
	}
	return t.Conn.Exact
}

// TargetFor turns one argument into a tree: a declared source's selector
// first, else a tree directory.
func TargetFor(ctx context.Context, env Env, conns []sources.Connection, arg string) (TreeTarget, error) {
	if arg == "" {
		return TreeTarget{}, contracts.Errorf(contracts.CodeUsage, "an empty string names no tree")
	}
	if len(conns) > 0 {
		c, err := sources.Select(conns, arg, env.Dir)
		if err == nil {
			return ConnTarget(ctx, env, c)
		}
		var ce *contracts.Error
		if !errors.As(err, &ce) || ce.Code != contracts.CodeSelectorNotFound {
			return TreeTarget{}, err
		}
	}
	root, err := openTree(env.Abs(arg), arg)
	if err != nil {
		var ce *contracts.Error
		if len(conns) > 0 && errors.As(err, &ce) && ce.Code == contracts.CodeTreeNotFound {
			return TreeTarget{}, contracts.Errorf(contracts.CodeSelectorNotFound,
				"%q is neither a declared source (see `git context-tree list`) nor a directory", arg).WithDetails(map[string]any{"selector": arg})
		}
		return TreeTarget{}, err
	}
	return TreeTarget{Root: root}, nil
}

// ConnTarget opens a declared source's tree: a directory source's own
// directory, or a git source's current snapshot (never the network).
func ConnTarget(ctx context.Context, env Env, c sources.Connection) (TreeTarget, error) {
	if c.Source.Kind == contracts.SourceGit {
		snap, err := env.Managed().Current(ctx, c)
		if err != nil {
			return TreeTarget{Conn: &c}, err
		}
		root, err := tree.OpenRoot(snap.TreeRoot)
		return TreeTarget{Root: root, Conn: &c, Snapshot: snap}, err
	}
	root, err := sources.OpenDirectoryRoot(c.Dir)
	if err != nil {
		return TreeTarget{Root: c.Dir, Conn: &c}, err
	}
	return TreeTarget{Root: root, Conn: &c}, nil
}

// DefaultTarget is the tree a command works on when none is named: the only
// declared source, else the declared directory source containing the
// command's directory, else the tree found at or above it. how is how the
// command names a tree, for the refusal when several are declared.
func DefaultTarget(ctx context.Context, env Env, conns []sources.Connection, how string) (TreeTarget, error) {
	if len(conns) == 1 {
		return ConnTarget(ctx, env, conns[0])
	}
	for _, c := range conns {
		if c.Source.Kind == contracts.SourceDirectory && Within(env.Dir, c.Dir) {
			return ConnTarget(ctx, env, c)
		}
	}
	root, err := sources.FindTreeRoot(ctx, env.Git, env.Dir)
	if err != nil && len(conns) > 1 {
		return TreeTarget{}, ChooseOne(conns, how)
	}
	return TreeTarget{Root: root}, err
}

// ChooseOne is the refusal when several trees are declared and none was
// named: it names every tree as the user would select it (the short
// selector where it is unique, else the exact one) and how to pass it,
// and lists every exact selector in details.
func ChooseOne(conns []sources.Connection, how string) error {
	exact := make([]string, len(conns))
	usable := make([]string, len(conns))
	shorts := map[string]int{}
	for _, c := range conns {
		shorts[c.Short]++
	}
	for i, c := range conns {
		exact[i] = c.Exact
		usable[i] = c.Exact
		if shorts[c.Short] == 1 {
			usable[i] = c.Short
		}
	}
	return contracts.Errorf(contracts.CodeSelectorAmbiguous, "%d trees are declared and none was named; name one with %s, one of: %s",
		len(conns), how, strings.Join(usable, ", ")).
		WithDetails(map[string]any{"matches": exact, "selectors": usable})
}

// Within reports whether dir, once resolved, is root (a real path) or
// below it.
func Within(dir, root string) bool {
	_, ok := tree.Inside(root, tree.RealPath(dir))
	return ok
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

// CountFindings is "1 finding" or "N findings".
func CountFindings(n int) string {
	if n == 1 {
		return "1 finding"
	}
	return fmt.Sprintf("%d findings", n)
}

// Resolution is directory resolution of the target's tree: a snapshot's
// from what sync recorded (it has no .git), anything else from git.
func (t TreeTarget) Resolution(ctx context.Context, env Env) (*sources.DirectoryResolution, error) {
	if t.Snapshot != nil {
		r := t.Snapshot.Resolution()
		r.ContentRoot = t.Root
		return r, nil
	}
	return env.resolveDirectory(ctx, t.Root)
}
