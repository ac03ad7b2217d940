package evidence

import (
	"errors"
	"os"
	"path/filepath"
	"strings"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/operations"
	"github.com/git-context-tree/git-context-tree/internal/sources"
	"github.com/git-context-tree/git-context-tree/internal/tree"
)

// query is one path asked about, resolved.
type query struct {
	contracts.CitesQuery
	rng  tree.LineRange
	repo string // the repository's identity: "" for the project, else its connection's exact selector
}

// parseQueries turns each argument, path[:N[-M]], into a repository-
// relative path: in the project's repository, relative to the command's
// directory or (when that names nothing there) to the repository root,
// like git; with a repository selector, relative to that repository's
// root.
func parseQueries(env operations.Env, project *sources.Project, conns []sources.Connection, repository string, args []string) ([]query, error) {
	if len(args) == 0 {
		return nil, contracts.Errorf(contracts.CodeUsage, "name at least one path, as path or path:N or path:N-M")
	}
	ident := ""
	if repository != "" {
		var err error
		if ident, err = repoIdentity(conns, repository, env.Dir); err != nil {
			return nil, err
		}
	} else if project.Checkout == "" {
		return nil, contracts.Errorf(contracts.CodeNoRepository, "cited paths are relative to the project's git repository, and %s is not in one", project.Root)
	}
	out := make([]query, 0, len(args))
	for _, a := range args {
		p, rng, err := splitLines(a)
		if err != nil {
			return nil, err
		}
		q := query{rng: rng, repo: ident}
		q.Lines, q.Repository = rng.String(), repository
		if repository != "" {
			if err := tree.CleanSourcePath(p); err != nil {
				return nil, contracts.Errorf(contracts.CodeUsage, "%s: a path of repository %s %v", a, repository, err)
			}
			q.Path = p
		} else if q.Path, err = projectPath(env, project.Checkout, p); err != nil {
			return nil, err
		}
		out = append(out, q)
	}
	return out, nil
}

// splitLines separates a trailing :N or :N-M from a path; a colon
// followed by anything else belongs to the path.
func splitLines(arg string) (string, tree.LineRange, error) {
	if i := strings.LastIndexByte(arg, ':'); i > 0 {
		spec := arg[i+1:]
		if spec != "" && strings.Trim(spec, "0123456789-") == "" {
			r, err := tree.ParseLineRange(spec)
			if err != nil {
				return "", r, contracts.Errorf(contracts.CodeUsage, "%s: %v", arg, err)
			}
			return arg[:i], r, nil
		}
	}
	if arg == "" {
		return "", tree.LineRange{}, contracts.Errorf(contracts.CodeUsage, "an empty string names no path")
	}
	return arg, tree.LineRange{}, nil
}

// projectPath resolves p against the command's directory, or the
// repository root top when that names nothing that exists and the root
// does.
func projectPath(env operations.Env, top, p string) (string, error) {
	fromDir, inDir := tree.Inside(top, realish(env.Abs(p)))
	if !filepath.IsAbs(p) && !exists(env.Abs(p)) && exists(filepath.Join(top, p)) {
		fromDir, inDir = tree.Inside(top, realish(filepath.Join(top, p)))
	}
	if !inDir || fromDir == "." {
		return "", contracts.Errorf(contracts.CodePathOutsideRepository, "%s is not a file of the repository at %s", p, top)
	}
	return filepath.ToSlash(fromDir), nil
}

func exists(name string) bool {
	_, err := os.Lstat(name)
	return err == nil
}

// realish resolves symlinks in the directories above name (a checkout
// reached through a symlinked path) but not name itself, which may not
// exist (a deleted file is still cited).
func realish(name string) string {
	return filepath.Join(tree.RealPath(filepath.Dir(name)), filepath.Base(name))
}

// repoIdentity names the repository a selector selects: its connection's
// exact selector. A name that selects nothing stands for itself (entries
// may name a source that is not declared here; they match literally).
func repoIdentity(conns []sources.Connection, name, dir string) (string, error) {
	if name == "" {
		return "", nil
	}
	c, err := sources.Select(conns, name, dir)
	var ce *contracts.Error
	switch {
	case err == nil:
		return c.Exact, nil
	case errors.As(err, &ce) && ce.Code == contracts.CodeSelectorAmbiguous:
		return "", err
	case errors.As(err, &ce):
		return name, nil
	}
	return "", err
}

// overlaps reports whether an entry's range meets a query's: a whole
// file meets every range.
func overlaps(a, b tree.LineRange) bool {
	return a.Whole() || b.Whole() || (a.Start <= b.End && b.Start <= a.End)
}
