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
	rep, _, err := VerifyTrees(ctx, env, args, opts)
	return rep, err
}

// VerifyTrees is Verify also returning the target of each tree of the
// report, in order, for checks that read the trees again (verify
// --evidence). A git source's snapshot is verified held to its commit: a
// document read that is not the commit's blob is SNAPSHOT_CORRUPT (named:
// the request fails; else the tree is skipped with it), never findings
// or a pass of content the commit does not hold.
func VerifyTrees(ctx context.Context, env Env, args []string, opts tree.VerifyOptions) (*contracts.VerifyReport, []TreeTarget, error) {
	_, conns, err := OpenProject(ctx, env)
	if err != nil {
		return nil, nil, err
	}
	rep := &contracts.VerifyReport{SchemaVersion: contracts.CLIVersion, OK: true, Trees: []contracts.TreeReport{}}
	var targets []TreeTarget
	seen := map[string]bool{}
	add := func(t TreeTarget, err error) error {
		if err == nil && !seen[t.Root] {
			var r *tree.Report
			if r, err = VerifyTarget(ctx, env, t, opts); err == nil {
				seen[t.Root] = true
				rep.Trees = append(rep.Trees, contracts.TreeReport{Root: t.Root, Selector: t.Selector(), OK: r.OK(), Findings: r.Findings, Scanned: r.Scanned})
				rep.OK = rep.OK && r.OK()
			} else if len(args) > 0 {
				return err // a tree asked for by name must be verified
			}
		}
		if err != nil {
			if err := addDeclaredFailure(rep, t, err); err != nil {
				return err
			}
		}
		for len(targets) < len(rep.Trees) {
			targets = append(targets, t)
		}
		return nil
	}
	switch {
	case len(args) > 0:
		for _, a := range args {
			t, err := TargetFor(ctx, env, conns, a)
			if err != nil && (t.Conn == nil || t.Conn.Source.Kind == contracts.SourceGit) {
				return nil, nil, err // a tree asked for by name must be verified
			}
			if err := add(t, err); err != nil {
				return nil, nil, err
			}
		}
	case len(conns) > 0:
		for _, c := range conns {
			if err := add(ConnTarget(ctx, env, c)); err != nil {
				return nil, nil, err
			}
		}
	default:
		root, err := sources.FindTreeRoot(ctx, env.Git, env.Dir)
		if err != nil {
			return nil, nil, err
		}
		_ = add(TreeTarget{Root: root}, nil)
	}
	return rep, targets, nil
}

// VerifyTarget verifies t's tree, a git source's snapshot held to its
// commit (one ls-tree after the walk): SNAPSHOT_CORRUPT when a document
// it read is not the commit's.
func VerifyTarget(ctx context.Context, env Env, t TreeTarget, opts tree.VerifyOptions) (*tree.Report, error) {
	served := t.ServedBlobs()
	opts.Observe = served.Observer()
	r := tree.VerifyWith(t.Root, opts)
	check := served.Check
	if r.OK() {
		check = served.CheckWhole // a clean report: nothing was removed during the walk either
	}
	if err := check(ctx, env.Git); err != nil {
		return nil, err
	}
	return r, nil
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
