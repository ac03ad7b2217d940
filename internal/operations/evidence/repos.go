package evidence

import (
	"context"
	"errors"
	"fmt"
	"path"
	"strings"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/adapters/git"
	"github.com/git-context-tree/git-context-tree/internal/operations"
	"github.com/git-context-tree/git-context-tree/internal/sources"
)

// evidenceRepo is a repository cited sources are read from: the project's
// own work tree (repository ""), or a declared git source's cache at its
// synced commit. Unavailable says why it cannot be read; then nothing else
// is set.
type evidenceRepo struct {
	Name        string // the entries' repository, "" for the project
	Repo        git.Repo
	Head        string // the commit checked (HEAD, --at, or the snapshot's)
	Unavailable string
}

// evidenceRepos resolves and remembers the repositories of one command.
type evidenceRepos struct {
	env     operations.Env
	project *sources.Project
	conns   []sources.Connection
	at      string // --at: the project revision checked ("" for HEAD)
	byName  map[string]*evidenceRepo
	// lenient makes a project outside git a repository that is
	// unavailable (its entries say so) instead of an error: for views
	// such as the site, which show sources but do not check them.
	lenient bool
}

func newEvidenceRepos(ctx context.Context, env operations.Env, at string) (*evidenceRepos, error) {
	p, conns, err := operations.OpenProject(ctx, env)
	if err != nil {
		return nil, err
	}
	return &evidenceRepos{env: env, project: p, conns: conns, at: at, byName: map[string]*evidenceRepo{}}, nil
}

// get resolves the repository an entry names.
func (e *evidenceRepos) get(ctx context.Context, name string) (*evidenceRepo, error) {
	if r, ok := e.byName[name]; ok {
		return r, nil
	}
	var r *evidenceRepo
	var err error
	if name == "" {
		r, err = e.projectRepo(ctx)
	} else {
		r, err = e.sourceRepo(ctx, name)
	}
	if err != nil {
		return nil, err
	}
	r.Name = name
	e.byName[name] = r
	return r, nil
}

// seed records a repository already resolved (the project's HEAD, read
// while resolving a tree in it), unless one is recorded.
func (e *evidenceRepos) seed(name string, r *evidenceRepo) {
	if _, ok := e.byName[name]; !ok {
		r.Name = name
		e.byName[name] = r
	}
}

// projectRepo is the work tree of the project the trees describe.
func (e *evidenceRepos) projectRepo(ctx context.Context) (*evidenceRepo, error) {
	top := e.project.Checkout
	if top == "" && e.lenient {
		return &evidenceRepo{Unavailable: fmt.Sprintf("%s is not in a git repository", e.project.Root)}, nil
	}
	if top == "" {
		return nil, contracts.Errorf(contracts.CodeNoRepository, "evidence paths are relative to the project's git repository, and %s is not in one", e.project.Root)
	}
	rev := "HEAD"
	if e.at != "" {
		rev = e.at
	}
	repo := git.Repo{Dir: top}
	out, err := e.env.Git.RunIn(ctx, repo, "rev-parse", "-q", "--verify", "--end-of-options", rev+"^{commit}")
	if err != nil {
		if git.ExitCode(err) == 1 {
			if e.at != "" {
				return nil, contracts.Errorf(contracts.CodeUsage, "--at %s names no commit of %s", e.at, top)
			}
			return nil, contracts.Errorf(contracts.CodeNoRepository, "%s has no commit yet: evidence is read from HEAD", top)
		}
		return nil, operations.GitError(err)
	}
	return &evidenceRepo{Repo: repo, Head: strings.TrimSpace(string(out))}, nil
}

// sourceRepo is a declared git source's cache at its synced commit; a
// selector that names no git source, or one not synced, leaves it
// unavailable (a finding on each entry, not a failure of the command).
func (e *evidenceRepos) sourceRepo(ctx context.Context, name string) (*evidenceRepo, error) {
	c, err := sources.Select(e.conns, name, e.env.Dir)
	var ce *contracts.Error
	switch {
	case errors.As(err, &ce):
		return &evidenceRepo{Unavailable: fmt.Sprintf("repository %q: %s", name, ce.Message)}, nil
	case err != nil:
		return nil, err
	case c.Source.Kind != contracts.SourceGit:
		return &evidenceRepo{Unavailable: fmt.Sprintf("repository %q names a directory source, not a git source", name)}, nil
	}
	snap, err := e.env.Managed().Current(ctx, c)
	if errors.As(err, &ce) {
		return &evidenceRepo{Unavailable: fmt.Sprintf("repository %q: %s", name, ce.Message)}, nil
	} else if err != nil {
		return nil, err
	}
	return &evidenceRepo{Repo: git.Repo{GitDir: snap.Cache}, Head: snap.Commit}, nil
}

// citedFile is one file of a repository at a commit, as evidence reads it.
type citedFile struct {
	Mode    string // "" when missing
	Data    []byte // regular files only
	Missing string // why the object could not be read ("" when it was)
}

// readCited reads files of repo at commit through one cat-file process:
// the trees of their directories first (for each file's mode, so a
// symlink or submodule is named and never read as code), then the regular
// files' blobs.
func readCited(ctx context.Context, g *git.Git, repo git.Repo, commit string, paths []string) (map[string]*citedFile, error) {
	b, err := g.OpenRepoObjects(ctx, repo)
	if err != nil {
		return nil, operations.GitError(err)
	}
	defer b.Close()
	dirs := map[string]bool{}
	for _, p := range paths {
		dirs[path.Dir(p)] = true
	}
	var dirNames, dirKeys []string
	for d := range dirs {
		dirKeys = append(dirKeys, d)
		if d == "." {
			dirNames = append(dirNames, commit+"^{tree}")
		} else {
			dirNames = append(dirNames, commit+":"+d)
		}
	}
	trees, err := b.Read(dirNames)
	if err != nil {
		return nil, operations.GitError(err)
	}
	modes := map[string]map[string]string{}
	for i, t := range trees {
		if t.Type == "tree" {
			modes[dirKeys[i]] = git.TreeModes(t.Data, len(t.ID)/2)
		}
	}
	out := make(map[string]*citedFile, len(paths))
	var blobs []string
	for _, p := range paths {
		f := &citedFile{Mode: modes[path.Dir(p)][path.Base(p)]}
		out[p] = f
		if f.Mode == "100644" || f.Mode == "100755" {
			blobs = append(blobs, p)
		}
	}
	names := make([]string, len(blobs))
	for i, p := range blobs {
		names[i] = commit + ":" + p
	}
	objs, err := b.Read(names)
	if err != nil {
		return nil, operations.GitError(err)
	}
	for i, o := range objs {
		if o.ID == "" {
			// Listed in its tree but not here: a partial cache without the blob.
			out[blobs[i]].Missing = "its content is not in the local cache (a partial clone holds only the declared subtree's files)"
			continue
		}
		out[blobs[i]].Data = o.Data
	}
	return out, nil
}
