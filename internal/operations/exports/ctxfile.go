package exports

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/adapters/git"
	"github.com/git-context-tree/git-context-tree/internal/buildinfo"
	"github.com/git-context-tree/git-context-tree/internal/export"
	"github.com/git-context-tree/git-context-tree/internal/operations"
	"github.com/git-context-tree/git-context-tree/internal/sources"
	"github.com/git-context-tree/git-context-tree/internal/tree"
)

// The .ctxfile convention's paths, relative to the project root.
const (
	ctxfileDir  = ".ctxfile"
	ctxfileJSON = "context.json"
	ctxfileMD   = "context.md"
)

// CtxfileRequest is `export ctxfile`.
type CtxfileRequest struct {
	Selector string // "" exports every declared tree (or the default tree)
	// Profile is repo-safe when "", except for Check: then it is the
	// profile the envelope on disk was written with (repo-safe without
	// one), so a check compares content, and a full or custom export is
	// not stale by its profile alone.
	Profile  string
	Encoding string
	Stdout   bool // return the envelope instead of writing it
	Check    bool // compare with the envelope on disk instead of writing
	// Stage adds the written files to the index (the commit hook's refresh:
	// the committed envelope is the one just written).
	Stage bool
}

// FullProfileWarning is what the CLI prints, loudly, for profile full.
const FullProfileWarning = "profile full puts the body of every document into .ctxfile/context.json: committing it publishes everything in the tree, member notes included, to everyone with clone access"

// Ctxfile builds the .ctxfile envelope of the project's trees and
// writes, prints or checks it.
func Ctxfile(ctx context.Context, env operations.Env, req CtxfileRequest) (*contracts.ExportCtxfileResult, error) {
	counter, err := export.NewCounter(req.Encoding)
	if err != nil {
		return nil, err
	}
	p, conns, err := operations.OpenProject(ctx, env)
	if err != nil {
		return nil, err
	}
	if req.Profile == "" && req.Check {
		req.Profile = writtenProfile(p.Root)
	}
	if req.Profile == "" {
		req.Profile = contracts.ProfileRepoSafe
	}
	var include []string
	if req.Profile == contracts.ProfileCustom {
		if include, err = readCtxfileInclude(p.Root); err != nil {
			return nil, err
		}
	}
	targets, err := ctxfileTargets(ctx, env, conns, req.Selector)
	if err != nil {
		return nil, err
	}
	now, err := exportTime(env.Vars)
	if err != nil {
		return nil, err
	}
	project, top, err := checkoutState(ctx, env, p.Root, p.Root)
	if err != nil {
		return nil, err
	}
	sections, err := export.Sections(req.Profile, include, project != nil)
	if err != nil {
		return nil, err
	}
	in := export.CtxfileInput{
		Profile: req.Profile, Sections: sections, ToolVersion: buildinfo.Semver(), Encoding: counter.Encoding,
		GeneratedAt: now, SnapshotAt: now, RootName: filepath.Base(p.Root),
	}
	if project != nil {
		in.GitSHA = project.Head
		if in.GitState, err = gitState(ctx, env, project, top, p.Root); err != nil {
			return nil, err
		}
	}
	res := &contracts.ExportCtxfileResult{
		SchemaVersion: contracts.CLIVersion, ProjectRoot: p.Root, Profile: req.Profile, Encoding: counter.Encoding,
		Sections: sections, Trees: []contracts.TreeRef{}, Check: req.Check,
	}
	if in.SnapshotAt, err = addCtxfileTrees(ctx, env, p.Root, targets, counter, &in, res); err != nil {
		return nil, err
	}
	if in.SnapshotAt.IsZero() {
		in.SnapshotAt = now
	}
	if req.Profile == contracts.ProfileFull {
		res.Warnings = append(res.Warnings, FullProfileWarning)
	}
	envelope, err := export.Redacted(export.Envelope(in))
	if err != nil {
		return nil, err
	}
	switch {
	case req.Stdout:
		res.Envelope = &envelope
		return res, nil
	case req.Check:
		return checkCtxfile(p.Root, envelope, res)
	}
	res, err = writeCtxfile(p.Root, envelope, res)
	if err != nil || !req.Stage {
		return res, err
	}
	if p.Checkout == "" {
		return nil, contracts.Errorf(contracts.CodeNoRepository, "--stage adds the envelope to git's index, and %s is not in a git checkout", p.Root)
	}
	var paths []string
	for _, f := range res.Files {
		paths = append(paths, f.Path)
	}
	if err := env.Git.Stage(ctx, git.Invoking, p.Root, paths...); err != nil {
		return nil, contracts.Errorf(contracts.CodeGit, "cannot stage the envelope: %v", err)
	}
	res.Staged = true
	return res, nil
}

// ctxfileTargets is the named tree, else every declared tree, else the
// tree at or above the command's directory.
func ctxfileTargets(ctx context.Context, env operations.Env, conns []sources.Connection, selector string) ([]operations.TreeTarget, error) {
	if selector != "" || len(conns) == 0 {
		t, err := openExportTarget(ctx, env, conns, selector, "export ctxfile <selector>")
		return []operations.TreeTarget{t}, err
	}
	var targets []operations.TreeTarget
	for _, c := range conns {
		t, err := operations.ConnTarget(ctx, env, c)
		if err == nil {
			err = t.ServeVerified(ctx, env)
		}
		if err != nil {
			return nil, fmt.Errorf("tree %s: %w", c.Short, err)
		}
		targets = append(targets, t)
	}
	return targets, nil
}

// addCtxfileTrees reads each tree into the envelope's input and the
// result, and returns when the trees' content was committed: the newest
// HEAD commit time when every tree is a clean git checkout, else zero.
func addCtxfileTrees(ctx context.Context, env operations.Env, projectRoot string, targets []operations.TreeTarget, counter *export.Counter, in *export.CtxfileInput, res *contracts.ExportCtxfileResult) (time.Time, error) {
	var snapshot time.Time
	allClean := true
	for _, t := range targets {
		et, err := readExportTree(ctx, env, t, counter)
		if err != nil {
			return time.Time{}, err
		}
		meta := contracts.CtxfileTree{Selector: filepath.Base(t.Root), Title: et.title}
		if t.Conn != nil {
			meta.Selector = t.Conn.Short
			if t.Conn.Source.Kind == contracts.SourceGit {
				meta.Exact = t.Conn.Exact // a URL; a directory's exact selector is an absolute path
			}
		}
		prefix := ""
		switch rel, ok := tree.Inside(projectRoot, t.Root); {
		case ok && t.Snapshot == nil:
			meta.Path = filepath.ToSlash(rel)
			if rel != "." {
				prefix = meta.Path
			}
			if top, err := env.Git.Toplevel(ctx, git.Isolated, projectRoot); err == nil && top != "" {
				// Repository-relative, as git names the paths.
				if r, ok := tree.Inside(tree.RealPath(top), t.Root); ok && r != "." {
					prefix = filepath.ToSlash(r)
				}
			}
		case t.Snapshot != nil:
			// A git source's documents, under its repository's name.
			_, name, _ := strings.Cut(t.Snapshot.Repository, "/")
			prefix = name
		}
		meta.Prefix = prefix
		ref := contracts.TreeRef{Root: t.Root, Selector: t.Selector()}
		if t.Stale != nil {
			ref.Staleness = *t.Stale
		}
		st, err := treeState(ctx, env, t, projectRoot)
		if err != nil {
			return time.Time{}, err
		}
		if st != nil && st.Head != "" {
			dirty := st.Dirty
			meta.Commit, meta.Dirty = st.Head, &dirty
			ref.Head, ref.Dirty = st.Head, &dirty
			if !dirty {
				at, err := commitTime(ctx, env, t)
				if err != nil {
					return time.Time{}, contracts.Errorf(contracts.CodeGit, "%v", err)
				}
				snapshot = later(snapshot, at)
			}
		}
		allClean = allClean && st != nil && st.Head != "" && !st.Dirty
		in.Trees = append(in.Trees, export.CtxfileTree{Meta: meta, Prefix: prefix, Docs: et.docs})
		res.Trees = append(res.Trees, ref)
		res.Skipped = append(res.Skipped, et.unreadable...)
		res.Documents += len(et.docs)
		for _, d := range et.docs {
			res.Tokens += d.Tokens
			res.Redactions += d.Redactions
		}
	}
	if !allClean {
		return time.Time{}, nil
	}
	return snapshot, nil
}

func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// recentCommits is how many of the last commits gitState lists.
const recentCommits = 10

// gitState is the envelope's view of the project checkout (top): branch,
// counts against the upstream, the pending paths, the last commits and a
// diff summary, all without the project's .ctxfile directory (the
// envelope must not describe its own writing).
func gitState(ctx context.Context, env operations.Env, st *git.BranchState, top, projectRoot string) (*contracts.CtxfileGitState, error) {
	g := &contracts.CtxfileGitState{Head: st.Head, Upstream: st.Upstream, Dirty: st.Dirty, Commits: []contracts.CtxfileCommit{}}
	if st.Branch != "" {
		branch := st.Branch
		g.Branch = &branch
	}
	if st.HasCounts {
		g.Ahead, g.Behind = st.Ahead, st.Behind
	}
	var exclude []string
	if rel, ok := tree.Inside(top, projectRoot); ok {
		exclude = append(exclude, filepath.ToSlash(filepath.Join(rel, ctxfileDir)))
	}
	var err error
	if g.Staged, g.Modified, g.Untracked, err = env.Git.WorkingPaths(ctx, git.Isolated, top, exclude...); err != nil {
		return nil, contracts.Errorf(contracts.CodeGit, "%v", err)
	}
	if st.Head == "" {
		return g, nil
	}
	commits, err := env.Git.RecentCommits(ctx, git.Isolated, top, recentCommits)
	if err != nil {
		return nil, contracts.Errorf(contracts.CodeGit, "%v", err)
	}
	for _, c := range commits {
		g.Commits = append(g.Commits, contracts.CtxfileCommit{Hash: c.Hash, Message: c.Subject, Author: c.Author, Date: c.Date})
	}
	if g.DiffSummary, err = env.Git.DiffShortstat(ctx, git.Isolated, top, exclude...); err != nil {
		return nil, contracts.Errorf(contracts.CodeGit, "%v", err)
	}
	return g, nil
}

// writeCtxfile writes context.json and its render. An envelope on disk
// that differs only in its timestamps is kept as it is, so running the
// export again (in a hook, in CI) changes nothing until the trees do.
func writeCtxfile(projectRoot string, envelope contracts.CtxfileEnvelope, res *contracts.ExportCtxfileResult) (*contracts.ExportCtxfileResult, error) {
	dir := filepath.Join(projectRoot, ctxfileDir)
	if err := ctxfileDirectory(dir); err != nil {
		return nil, err
	}
	jsonPath := filepath.Join(dir, ctxfileJSON)
	old, err := readIfRegular(jsonPath)
	if err != nil {
		return nil, err
	}
	if old == nil {
		res.AgentContext = contracts.CtxfileAgentContext
	}
	if old != nil && export.OnlyTimesDiffer(old, envelope) {
		if err := parseEnvelope(old, &envelope); err != nil {
			return nil, err
		}
	}
	data, err := export.MarshalEnvelope(envelope)
	if err != nil {
		return nil, err
	}
	for _, f := range []struct {
		name string
		data []byte
	}{{jsonPath, data}, {filepath.Join(dir, ctxfileMD), []byte(export.RenderContextMD(envelope))}} {
		file, err := writeExport(f.name, f.data)
		if err != nil {
			return nil, err
		}
		res.Files = append(res.Files, file)
	}
	return res, nil
}

// checkCtxfile compares the envelope on disk with the trees; stale is a
// failed check (exit 1), reported with every difference.
func checkCtxfile(projectRoot string, envelope contracts.CtxfileEnvelope, res *contracts.ExportCtxfileResult) (*contracts.ExportCtxfileResult, error) {
	jsonPath := filepath.Join(projectRoot, ctxfileDir, ctxfileJSON)
	old, err := readIfRegular(jsonPath)
	if err != nil {
		return nil, err
	}
	if old == nil {
		res.Differences = []string{ctxfileDir + "/" + ctxfileJSON + " does not exist"}
	} else {
		res.Differences = export.Differences(old, envelope)
		res.Files = append(res.Files, contracts.ExportFile{Path: jsonPath, Bytes: len(old)})
		var prev contracts.CtxfileEnvelope
		mdPath := filepath.Join(projectRoot, ctxfileDir, ctxfileMD)
		md, err := readIfRegular(mdPath)
		if err != nil {
			return nil, err
		}
		if parseEnvelope(old, &prev) == nil && string(md) != export.RenderContextMD(prev) {
			res.Differences = append(res.Differences, ctxfileDir+"/"+ctxfileMD+" is not the render of "+ctxfileJSON)
		}
	}
	fresh := len(res.Differences) == 0
	res.Fresh = &fresh
	return res, nil
}

// writtenProfile is the profile of the envelope at the project root, ""
// when there is none or it names no profile of ours (the check then
// reports it stale as it is).
func writtenProfile(projectRoot string) string {
	old, err := readIfRegular(filepath.Join(projectRoot, ctxfileDir, ctxfileJSON))
	var prev contracts.CtxfileEnvelope
	if err != nil || old == nil || parseEnvelope(old, &prev) != nil {
		return ""
	}
	switch prev.Profile {
	case contracts.ProfileRepoSafe, contracts.ProfileFull, contracts.ProfileCustom:
		return prev.Profile
	}
	return ""
}

func parseEnvelope(data []byte, env *contracts.CtxfileEnvelope) error {
	if err := jsonUnmarshal(data, env); err != nil {
		return contracts.Errorf(contracts.CodeIO, "cannot parse %s/%s: %v", ctxfileDir, ctxfileJSON, err)
	}
	return nil
}

// ctxfileDirectory creates .ctxfile, refusing a symlink or a file there.
func ctxfileDirectory(dir string) error {
	fi, err := os.Lstat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if err := os.Mkdir(dir, 0o755); err != nil {
			return contracts.Errorf(contracts.CodeIO, "cannot create %s: %v", dir, unwrapPath(err))
		}
		return nil
	case err != nil:
		return contracts.Errorf(contracts.CodeIO, "cannot read %s: %v", dir, unwrapPath(err))
	case !fi.IsDir() || fi.Mode()&fs.ModeSymlink != 0:
		return contracts.Errorf(contracts.CodeIO, "%s is not a directory; the export does not write through links or over files", dir)
	}
	return nil
}

// readIfRegular reads a regular file, nil when there is none.
func readIfRegular(name string) ([]byte, error) {
	fi, err := os.Lstat(name)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil
	case err != nil:
		return nil, contracts.Errorf(contracts.CodeIO, "cannot read %s: %v", name, unwrapPath(err))
	case !fi.Mode().IsRegular():
		return nil, contracts.Errorf(contracts.CodeIO, "%s is not a regular file", name)
	}
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, contracts.Errorf(contracts.CodeIO, "cannot read %s: %v", name, unwrapPath(err))
	}
	return data, nil
}

// treeState is git's view of a tree's checkout; a git source's snapshot
// (a plain checkout, no .git) is its commit, clean.
func treeState(ctx context.Context, env operations.Env, t operations.TreeTarget, projectRoot string) (*git.BranchState, error) {
	if t.Snapshot != nil {
		return &git.BranchState{Head: t.Snapshot.Commit}, nil
	}
	st, _, err := checkoutState(ctx, env, t.Root, projectRoot)
	return st, err
}

// commitTime is when the commit a clean tree was read at was made.
func commitTime(ctx context.Context, env operations.Env, t operations.TreeTarget) (time.Time, error) {
	if t.Snapshot != nil {
		return env.Git.CommitTime(ctx, t.Snapshot.Cache, t.Snapshot.Commit)
	}
	return env.Git.HeadTime(ctx, git.Isolated, t.Root)
}
