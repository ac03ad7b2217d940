package git

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// Location is where the repository of a directory in a work tree keeps
// its parts, as one `git rev-parse` answers for that directory.
type Location struct {
	Top          string // the work tree's top directory
	GitDir       string // this worktree's own git dir
	CommonDir    string // the git dir every worktree shares
	Hooks        string // where git runs hooks from (core.hooksPath, or hooks/)
	ObjectFormat string // sha1 or sha256
}

// locationArgs asks in one process what a command asks about where it
// runs (discovery, the index, the hooks, the object format): each of
// these questions used to cost a git process of its own, and starting git
// is most of what answering them costs.
var locationArgs = []string{"rev-parse", "--path-format=absolute",
	"--show-toplevel", "--git-dir", "--git-common-dir", "--git-path", "hooks", "--show-object-format"}

// locationKey is a directory as a command names it, with the scope it is
// asked in (Invoking when no repository variable is set: both scopes then
// see the same).
type locationKey struct {
	scope Scope
	dir   string
}

// locationEntry is a remembered answer: loc nil when git found no work
// tree (a bare repository, a git dir, or no repository), real the
// directory's resolved path (where git starts discovering).
type locationEntry struct {
	loc  *Location
	real string
}

// location answers for dir, once per directory, scope and Git (one
// command). known is false when the answer must come from the caller's
// own question instead (git's output could not be split into its lines,
// as a path holding a newline would make it); loc is nil when dir is not
// in a work tree.
//
// The query runs without the hardening's core.hooksPath override, which
// would answer --git-path hooks with the null device (HooksDir says why
// that is the question); rev-parse runs no hook.
func (g *Git) location(ctx context.Context, scope Scope, dir string) (loc *Location, known bool, err error) {
	key := locationKey{scope: scope, dir: dir}
	noVars := !hasGitVars(g.Env)
	if noVars {
		key.scope = Invoking
	}
	g.locationsMu.Lock()
	e, ok := g.locations[key]
	g.locationsMu.Unlock()
	if ok {
		return e.loc, true, nil
	}
	e = locationEntry{real: realDir(dir)}
	switch {
	case noVars && noRepositoryAbove(dir):
		// nothing git could find: e.loc stays nil
	case noVars && g.inheritLocation(key.scope, &e):
		// a directory below one already answered, with nothing between
	default:
		cmd, err := g.commandWith(ctx, scope, dir, hardening[2:], locationArgs)
		if err != nil {
			return nil, false, err
		}
		out, err := runCmd(cmd, locationArgs)
		if err != nil {
			if ExitCode(err) != 128 {
				return nil, false, err
			}
			break // not in a work tree
		}
		lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
		if len(lines) != 5 {
			return nil, false, nil
		}
		e.loc = &Location{Top: lines[0], GitDir: lines[1], CommonDir: lines[2], Hooks: lines[3], ObjectFormat: lines[4]}
	}
	g.locationsMu.Lock()
	if g.locations == nil {
		g.locations = map[locationKey]locationEntry{}
	}
	g.locations[key] = e
	g.locationsMu.Unlock()
	return e.loc, true, nil
}

// inheritLocation answers for a directory below one already answered in a
// work tree when git, discovering upwards from it, would reach that
// directory and go on from there as it did: no directory on the way (the
// directory itself included, the answered one excluded) holds a ".git" or
// "HEAD" entry of any kind, and none lies on another file system (where
// discovery stops). It is only asked when no repository variable can
// change where discovery goes, and no ceiling directory stops it on the
// way (ceilingAllows); any doubt leaves the question to git.
func (g *Git) inheritLocation(scope Scope, e *locationEntry) bool {
	if e.real == "" {
		return false
	}
	g.locationsMu.Lock()
	var above locationEntry
	for k, cand := range g.locations {
		if k.scope != scope || cand.loc == nil || cand.real == "" {
			continue
		}
		if within(cand.real, e.real) && cand.real != e.real && len(cand.real) > len(above.real) {
			above = cand
		}
	}
	g.locationsMu.Unlock()
	if above.loc == nil || !g.ceilingAllows(above.real, e.real) {
		return false
	}
	dev, ok := device(above.real)
	if !ok {
		return false
	}
	for d := e.real; d != above.real; d = filepath.Dir(d) {
		if filepath.Dir(d) == d {
			return false
		}
		if mayHoldRepository(d) {
			return false
		}
		if dd, ok := device(d); !ok || dd != dev {
			return false
		}
	}
	e.loc = above.loc
	return true
}

// ceilingAllows reports that no directory of GIT_CEILING_DIRECTORIES
// stops git discovering from real before it reaches above (an answered
// directory): git examines no directory at or above the deepest ceiling
// that is a proper ancestor of where it starts, so a ceiling at above or
// between the two would end discovery early. A ceiling that is not an
// absolute path leaves the question to git.
func (g *Git) ceilingAllows(above, real string) bool {
	for _, c := range filepath.SplitList(g.Env.Get("GIT_CEILING_DIRECTORIES")) {
		if c == "" {
			continue
		}
		if !filepath.IsAbs(c) {
			return false
		}
		forms := []string{filepath.Clean(c)}
		if r, err := filepath.EvalSymlinks(c); err == nil {
			forms = append(forms, r)
		}
		for _, f := range forms {
			if within(above, f) && within(f, real) && f != real {
				return false
			}
		}
	}
	return true
}

// within reports whether p is dir or lies below it.
func within(dir, p string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && filepath.IsLocal(rel)
}

// realDir is dir made absolute with every symlink resolved (git discovers
// from the resolved directory), "" when it cannot be resolved.
func realDir(dir string) string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return ""
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return ""
	}
	return real
}

// device is the file system a directory lies on.
func device(dir string) (uint64, bool) {
	fi, err := os.Stat(dir)
	if err != nil {
		return 0, false
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return uint64(st.Dev), true // Dev's type differs by platform
}

// locationField is one field of a location, or location's error.
func locationField(loc *Location, err error, field func(*Location) string) (string, error) {
	if err != nil {
		return "", err
	}
	return field(loc), nil
}

// knownObjectFormat is the object format of the repository whose git dir
// (or common dir) is gitDir, when a location this command asked for
// already named it; "" when none did.
func (g *Git) knownObjectFormat(gitDir string) string {
	g.locationsMu.Lock()
	defer g.locationsMu.Unlock()
	for _, e := range g.locations {
		if e.loc != nil && (e.loc.CommonDir == gitDir || e.loc.GitDir == gitDir) {
			return e.loc.ObjectFormat
		}
	}
	return ""
}
