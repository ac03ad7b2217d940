package exports

import (
	"context"
	"path/filepath"
	"strconv"
	"time"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/adapters/git"
	"github.com/git-context-tree/git-context-tree/internal/environ"
	"github.com/git-context-tree/git-context-tree/internal/export"
	"github.com/git-context-tree/git-context-tree/internal/operations"
	"github.com/git-context-tree/git-context-tree/internal/redact"
	"github.com/git-context-tree/git-context-tree/internal/sources"
	"github.com/git-context-tree/git-context-tree/internal/tree"
)

// exportTree is one tree read for an export.
type exportTree struct {
	title      string // the root NODE.md's title
	root       export.Document
	docs       []export.Document
	unreadable []contracts.SkippedDocument
}

// openExportTarget picks the tree an export of one tree reads: the named
// one, else the default, as read does; a git source's snapshot must be one
// sync accepted. usage is the command line that names a tree, its
// required flags included (the refusal's hint, which must parse).
func openExportTarget(ctx context.Context, env operations.Env, conns []sources.Connection, selector, usage string) (operations.TreeTarget, error) {
	var t operations.TreeTarget
	var err error
	if selector != "" {
		t, err = operations.TargetFor(ctx, env, conns, selector)
	} else {
		t, err = operations.DefaultTarget(ctx, env, conns, "`git context-tree "+usage+"`")
	}
	if err != nil {
		return t, err
	}
	return t, t.ServeVerified(ctx, env)
}

// readExportTree lists and prepares every document of a tree by the CLI's
// walk rules (tree.Documents).
func readExportTree(ctx context.Context, env operations.Env, t operations.TreeTarget, counter *export.Counter) (*exportTree, error) {
	served := t.ServedBlobs()
	entries, err := tree.DocumentsObserved(t.Root, served.Observer())
	if err != nil {
		return nil, err
	}
	// A snapshot's documents are held to its commit's blobs: what is
	// exported is the commit's content, whatever changed on disk since
	// the snapshot was checked.
	if err := served.Check(ctx, env.Git); err != nil {
		return nil, err
	}
	docs, unreadable := export.Prepare(entries, counter)
	et := &exportTree{docs: docs, title: tree.DefaultTitle(t.Root)}
	for _, e := range unreadable {
		et.unreadable = append(et.unreadable, contracts.SkippedDocument{Path: e.Path, Reason: e.Unreadable})
	}
	for _, e := range entries {
		if e.Path == tree.NodeFile {
			et.title = redact.String(e.Title)
		}
	}
	for _, d := range docs {
		if d.Path == tree.NodeFile {
			et.root, et.title = d, d.Title
		}
	}
	return et, nil
}

// checkoutState is git's view of the checkout holding dir, nil outside
// git. The project's .ctxfile directory is left out of dirtiness, so
// writing the envelope never makes the next export differ.
func checkoutState(ctx context.Context, env operations.Env, dir, projectRoot string) (*git.BranchState, string, error) {
	top, err := env.Git.Toplevel(ctx, git.Isolated, dir)
	if err != nil {
		return nil, "", contracts.Errorf(contracts.CodeGit, "%v", err)
	}
	if top == "" {
		return nil, "", nil
	}
	top = tree.RealPath(top)
	var exclude []string
	if rel, ok := tree.Inside(top, projectRoot); ok {
		exclude = append(exclude, filepath.ToSlash(filepath.Join(rel, ctxfileDir)))
	}
	st, err := env.Git.BranchState(ctx, git.Isolated, dir, exclude...)
	if err != nil {
		return nil, "", contracts.Errorf(contracts.CodeGit, "%v", err)
	}
	return &st, top, nil
}

// exportTime is now, or SOURCE_DATE_EPOCH when set (the reproducible-builds
// convention), so a pipeline can make even the timestamps repeatable.
func exportTime(vars environ.Vars) (time.Time, error) {
	v := vars.Get("SOURCE_DATE_EPOCH")
	if v == "" {
		return time.Now().UTC(), nil
	}
	secs, err := strconv.ParseInt(v, 10, 64)
	if err != nil || secs < 0 {
		return time.Time{}, contracts.Errorf(contracts.CodeUsage, "SOURCE_DATE_EPOCH=%q is not a Unix time in seconds", v)
	}
	return time.Unix(secs, 0).UTC(), nil
}
