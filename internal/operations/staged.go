package operations

import (
	"context"
	"path"
	"path/filepath"
	"strings"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/adapters/git"
	"github.com/git-context-tree/git-context-tree/internal/sources"
	"github.com/git-context-tree/git-context-tree/internal/tree"
)

// VerifyStaged verifies every tree the project declares inside this
// repository exactly as the index holds it: what is being committed,
// partial commits included (the inherited GIT_INDEX_FILE is the index
// read). The project configuration is read from the index too. It never
// writes the index or the work tree. When nothing staged lies in a
// declared tree and the configuration is unchanged, it parses nothing.
func VerifyStaged(ctx context.Context, env Env) (*contracts.VerifyReport, error) {
	top, err := env.Git.Toplevel(ctx, git.Invoking, env.Dir)
	if err != nil {
		return nil, gitErr(err)
	}
	if top == "" {
		return nil, contracts.Errorf(contracts.CodeNoRepository, "verify --staged needs a git work tree; %s is not in one", env.Dir)
	}
	top = realPath(top)
	p, err := sources.Discover(ctx, env.Git, env.Dir)
	if err != nil {
		return nil, err
	}
	rep := &contracts.VerifyReport{SchemaVersion: contracts.CLIVersion, OK: true, Trees: []contracts.TreeReport{}}
	cfgRel, ok := repoRelative(top, p.ConfigFile)
	if !ok {
		rep.Note = "the project configuration is outside this repository; nothing to verify"
		return rep, nil
	}
	cfg, err := stagedConfig(ctx, env, top, cfgRel, p.ConfigFile)
	if err != nil {
		return nil, err
	}
	if cfg == nil {
		rep.Note = "no " + contracts.ConfigFile + " is staged: this commit declares no trees"
		return rep, nil
	}
	staged := &sources.Project{Root: p.Root, ConfigFile: p.ConfigFile, Config: cfg}
	conns, err := staged.Connections()
	if err != nil {
		return nil, err
	}
	trees := stagedTrees(top, conns)
	if len(trees) == 0 {
		rep.Note = "the project declares no tree inside this repository"
		return rep, nil
	}
	changed, err := env.Git.StagedPaths(ctx, top)
	if err != nil {
		return nil, gitErr(err)
	}
	if !touchesTrees(changed, cfgRel, trees) {
		rep.Note = "nothing staged in a declared tree"
		return rep, nil
	}
	for _, t := range trees {
		tr, err := verifyStagedTree(ctx, env, top, t)
		if err != nil {
			return nil, err
		}
		rep.Trees = append(rep.Trees, *tr)
		rep.OK = rep.OK && tr.OK
	}
	return rep, nil
}

// stagedTree is a declared directory tree inside the repository.
type stagedTree struct {
	prefix string // repository-relative, "." for the whole repository
	conn   sources.Connection
}

func stagedTrees(top string, conns []sources.Connection) []stagedTree {
	var trees []stagedTree
	for _, c := range conns {
		if c.Source.Kind != contracts.SourceDirectory {
			continue // git sources are committed in their own repositories
		}
		if rel, ok := repoRelative(top, c.Dir); ok {
			trees = append(trees, stagedTree{prefix: rel, conn: c})
		}
	}
	return trees
}

// repoRelative turns an absolute path into a repository-relative one.
func repoRelative(top, abs string) (string, bool) {
	rel, err := filepath.Rel(top, realPath(abs))
	if err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

func touchesTrees(changed []string, cfgRel string, trees []stagedTree) bool {
	for _, p := range changed {
		if p == cfgRel {
			return true
		}
		for _, t := range trees {
			if inSubtree(p, t.prefix) {
				return true
			}
		}
	}
	return false
}

// stagedConfig reads the configuration as staged; nil when it is not in the index.
func stagedConfig(ctx context.Context, env Env, top, rel, name string) (*contracts.Config, error) {
	entries, err := env.Git.IndexEntries(ctx, top, rel)
	if err != nil {
		return nil, gitErr(err)
	}
	var id string
	for _, e := range entries {
		if e.Path == rel {
			id = e.ID
		}
	}
	if id == "" {
		return nil, nil
	}
	var data []byte
	err = env.Git.ReadBlobs(ctx, top, []string{id}, func(_ string, b []byte) error { data = b; return nil })
	if err != nil {
		return nil, gitErr(err)
	}
	return sources.ParseConfig(name+" (staged)", data)
}

// verifyStagedTree verifies one tree from its index entries and blobs.
func verifyStagedTree(ctx context.Context, env Env, top string, t stagedTree) (*contracts.TreeReport, error) {
	entries, err := env.Git.IndexEntries(ctx, top, t.prefix)
	if err != nil {
		return nil, gitErr(err)
	}
	var tes []tree.IndexEntry
	var ids []string
	var wanted []string
	for _, e := range entries {
		rel := e.Path
		if t.prefix != "." {
			rel = strings.TrimPrefix(e.Path, t.prefix+"/")
		}
		te := tree.IndexEntry{Path: path.Clean(rel), Mode: e.Mode}
		tes = append(tes, te)
		if tree.WantsBlob(te) {
			ids = append(ids, e.ID)
			wanted = append(wanted, te.Path)
		}
	}
	blobs := make(map[string][]byte, len(ids))
	i := 0
	err = env.Git.ReadBlobs(ctx, top, ids, func(_ string, data []byte) error {
		blobs[wanted[i]] = data
		i++
		return nil
	})
	if err != nil {
		return nil, gitErr(err)
	}
	r := tree.VerifyIndex(tes, blobs)
	root := filepath.Join(top, filepath.FromSlash(t.prefix))
	return &contracts.TreeReport{Root: root, Selector: t.conn.Exact, OK: r.OK(), Findings: r.Findings, Scanned: r.Scanned}, nil
}
