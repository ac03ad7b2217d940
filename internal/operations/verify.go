package operations

import (
	"context"
	"errors"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/sources"
	"github.com/git-context-tree/git-context-tree/internal/tree"
)

// Verify verifies the trees named by args (selectors or directories). With
// no args it verifies every declared source, or, in a project that declares
// none, the tree at or above the command's directory. A named directory
// that is not a tree fails the request; a declared tree's problems are
// findings. opts adds opt-in checks (verify --links).
func Verify(ctx context.Context, env Env, args []string, opts tree.VerifyOptions) (*contracts.VerifyReport, error) {
	_, conns, err := OpenProject(ctx, env)
	if err != nil {
		return nil, err
	}
	rep := &contracts.VerifyReport{SchemaVersion: contracts.CLIVersion, OK: true, Trees: []contracts.TreeReport{}}
	seen := map[string]bool{}
	add := func(t TreeTarget, err error) error {
		if err != nil {
			return addDeclaredFailure(rep, t, err)
		}
		if seen[t.Root] {
			return nil
		}
		seen[t.Root] = true
		r := tree.VerifyWith(t.Root, opts)
		rep.Trees = append(rep.Trees, contracts.TreeReport{Root: t.Root, Selector: t.Selector(), OK: r.OK(), Findings: r.Findings, Scanned: r.Scanned})
		rep.OK = rep.OK && r.OK()
		return nil
	}
	switch {
	case len(args) > 0:
		for _, a := range args {
			t, err := TargetFor(ctx, env, conns, a)
			if err != nil && (t.Conn == nil || t.Conn.Source.Kind == contracts.SourceGit) {
				return nil, err // a tree asked for by name must be verified
			}
			if err := add(t, err); err != nil {
				return nil, err
			}
		}
	case len(conns) > 0:
		for _, c := range conns {
			if err := add(ConnTarget(ctx, env, c)); err != nil {
				return nil, err
			}
		}
	default:
		root, err := sources.FindTreeRoot(ctx, env.Git, env.Dir)
		if err != nil {
			return nil, err
		}
		_ = add(TreeTarget{Root: root}, nil)
	}
	return rep, nil
}

// addDeclaredFailure records a declared tree that cannot be verified: a git
// source without a usable snapshot is skipped with its reason (verification
// never touches the network), a directory's missing or symlinked root is a
// finding; anything else fails the request.
func addDeclaredFailure(rep *contracts.VerifyReport, t TreeTarget, err error) error {
	var ce *contracts.Error
	if !errors.As(err, &ce) {
		return err
	}
	if t.Conn != nil && t.Conn.Source.Kind == contracts.SourceGit {
		rep.Skipped = append(rep.Skipped, contracts.SkippedTree{Selector: t.Selector(), Error: ce})
		return nil
	}
	var code contracts.FindingCode
	switch ce.Code {
	case contracts.CodeTreeNotFound, contracts.CodeNotATree:
		code = contracts.FindingRootMissing
	case contracts.CodeRootSymlink:
		code = contracts.FindingSymlinkUnsupported
	default:
		return err
	}
	rep.OK = false
	rep.Trees = append(rep.Trees, contracts.TreeReport{Root: t.Root, Selector: t.Selector(),
		Findings: []contracts.Finding{{Code: code, Path: ".", Message: "declared tree root: " + ce.Message}}})
	return nil
}
