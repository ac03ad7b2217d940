package sources

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/adapters/git"
	"github.com/git-context-tree/git-context-tree/internal/tree"
)

// Project is where a command runs: the project root, its configuration file
// (which may not exist yet) and the git checkout around it, if any.
type Project struct {
	Root       string            // real path
	ConfigFile string            // Root/.context-tree.json
	Config     *contracts.Config // nil when the file does not exist
	Checkout   string            // git work tree root, "" outside git
}

// Discover finds the project for a command started in start (S5): the
// nearest directory at or above start holding .context-tree.json, by the
// rule of SearchDirs. Without a configuration the project root is the
// checkout root, or start itself outside git.
func Discover(ctx context.Context, g *git.Git, start string) (*Project, error) {
	dir, err := filepath.EvalSymlinks(start)
	if err != nil {
		return nil, contracts.Errorf(contracts.CodeIO, "cannot resolve %s: %v", start, unwrapPathError(err))
	}
	top, err := g.Toplevel(ctx, git.Invoking, dir)
	if err != nil {
		return nil, contracts.Errorf(contracts.CodeGit, "%v", err)
	}
	if top != "" {
		top = tree.RealPath(top)
	}
	bound, err := searchBound(ctx, g, dir, top)
	if err != nil {
		return nil, err
	}
	p := &Project{Checkout: top}
	for _, file := range ConfigCandidates(dir, bound) {
		if _, err := os.Lstat(file); err == nil {
			p.Root, p.ConfigFile = filepath.Dir(file), file
			if p.Config, err = LoadConfig(file); err != nil {
				return nil, err
			}
			return p, nil
		} else if !errors.Is(err, fs.ErrNotExist) {
			return nil, contracts.Errorf(contracts.CodeIO, "cannot read %s: %v", file, unwrapPathError(err))
		}
	}
	p.Root = dir
	if top != "" {
		p.Root = top
	}
	p.ConfigFile = filepath.Join(p.Root, contracts.ConfigFile)
	return p, nil
}

// searchBound is the directory discovery never goes above: the checkout
// root; in no work tree but inside a repository's git directory, the
// checkout that .git directory belongs to, or the git directory itself (a
// bare repository, a linked worktree's), so that a command started there
// never takes a configuration from above the repository; "" (the
// filesystem root) outside git.
func searchBound(ctx context.Context, g *git.Git, dir, top string) (string, error) {
	if top != "" {
		return top, nil
	}
	gitDir, bare, err := g.GitDirAround(ctx, git.Invoking, dir)
	if err != nil {
		return "", contracts.Errorf(contracts.CodeGit, "%v", err)
	}
	if gitDir == "" {
		return "", nil
	}
	gitDir = tree.RealPath(gitDir)
	if _, ok := tree.Inside(gitDir, dir); !ok {
		return "", nil // a GIT_DIR elsewhere: dir is not inside a repository
	}
	if !bare && filepath.Base(gitDir) == ".git" {
		return filepath.Dir(gitDir), nil
	}
	return gitDir, nil
}

// Ref is the project as results report it.
func (p *Project) Ref() contracts.ProjectRef {
	return contracts.ProjectRef{Root: p.Root, Config: p.ConfigFile, Exists: p.Config != nil}
}

// Sources returns the declared sources (none without a configuration).
func (p *Project) Sources() []contracts.Source {
	if p.Config == nil {
		return nil
	}
	return p.Config.Trees
}

func fileExists(name string) bool {
	_, err := os.Lstat(name)
	return err == nil
}
