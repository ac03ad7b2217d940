package sources

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/adapters/git"
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
// nearest directory at or above start holding .context-tree.json, never
// crossing the git checkout root (so a nested repository never reads its
// parent's configuration); outside git the walk goes to the filesystem
// root. Without a configuration the project root is the checkout root, or
// start itself outside git.
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
		if real, err := filepath.EvalSymlinks(top); err == nil {
			top = real
		}
	}
	p := &Project{Checkout: top}
	for d := dir; ; d = filepath.Dir(d) {
		file := filepath.Join(d, contracts.ConfigFile)
		if _, err := os.Lstat(file); err == nil {
			p.Root, p.ConfigFile = d, file
			if p.Config, err = LoadConfig(file); err != nil {
				return nil, err
			}
			return p, nil
		} else if !errors.Is(err, fs.ErrNotExist) {
			return nil, contracts.Errorf(contracts.CodeIO, "cannot read %s: %v", file, unwrapPathError(err))
		}
		if d == top || d == filepath.Dir(d) {
			break
		}
	}
	p.Root = dir
	if top != "" {
		p.Root = top
	}
	p.ConfigFile = filepath.Join(p.Root, contracts.ConfigFile)
	return p, nil
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
