package operations

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/redact"
	"github.com/git-context-tree/git-context-tree/internal/sources"
	"github.com/git-context-tree/git-context-tree/internal/tree"
)

// ConnectRequest is what `connect` was asked to declare: a directory, or a
// GitHub repository identity when Ref is set.
type ConnectRequest struct {
	Target       string
	Ref          string
	Path         string
	AllowInvalid bool
	// Offline declares a git source without asking its remote whether
	// the branch exists.
	Offline bool
}

// Connect declares a source in the project configuration (S5), creating
// the file at the project root if needed. Declaring a source that is
// already declared changes nothing and reports Changed false.
func Connect(ctx context.Context, env Env, req ConnectRequest) (*contracts.ConnectionChange, error) {
	p, conns, err := OpenProject(ctx, env)
	if err != nil {
		return nil, err
	}
	if req, err = fromGitHubURL(req); err != nil {
		return nil, err
	}
	var src contracts.Source
	if req.Ref != "" {
		src, err = gitSource(req)
	} else {
		src, err = directorySource(p, env, conns, req)
	}
	if err != nil {
		return nil, err
	}
	var warnings []string
	if src.Kind == contracts.SourceGit && !req.Offline && !declaredAlready(conns, p.Root, src) {
		w, err := checkBranch(ctx, env, src)
		if err != nil {
			return nil, err
		}
		if w != "" {
			warnings = append(warnings, w)
		}
	}
	res, err := declare(p, env, src)
	if err != nil {
		return nil, err
	}
	if res.Changed && src.Kind == contracts.SourceDirectory && filepath.IsAbs(src.Path) {
		warnings = append(warnings, fmt.Sprintf("%s lies outside the project, so it is declared by its absolute path: "+
			"other clones of the project need the tree at that same place (a tree shared with others travels as a git source, "+
			"`git context-tree connect <owner>/<repo> --ref <branch>`)", src.Path))
	}
	res.Warnings = append(warnings, res.Warnings...)
	return res, nil
}

func declaredAlready(conns []sources.Connection, root string, src contracts.Source) bool {
	_, ok := declaredAs(conns, root, src)
	return ok
}

// declaredAs finds the declared connection with src's identity (S6).
func declaredAs(conns []sources.Connection, root string, src contracts.Source) (sources.Connection, bool) {
	id := sources.NewConnection(root, src).Identity
	for _, c := range conns {
		if c.Identity == id {
			return c, true
		}
	}
	return sources.Connection{}, false
}

// declare adds src to the configuration unless its identity is declared.
func declare(p *sources.Project, env Env, src contracts.Source) (*contracts.ConnectionChange, error) {
	want := sources.NewConnection(p.Root, src)
	declared := want
	var trees []contracts.Source
	changed, err := p.UpdateConfig(env.ConfigLockWait(), func(cfg *contracts.Config) (bool, error) {
		for _, s := range cfg.Trees {
			if c := sources.NewConnection(p.Root, s); c.Identity == want.Identity {
				declared = c
				return false, nil
			}
		}
		cfg.Trees = append(cfg.Trees, src)
		trees = cfg.Trees
		return true, nil
	})
	if err != nil {
		return nil, err
	}
	res := &contracts.ConnectionChange{SchemaVersion: contracts.CLIVersion, Changed: changed, Project: p.Ref(), Connection: declared.Ref()}
	if changed {
		conns := make([]sources.Connection, len(trees))
		for i, s := range trees {
			conns[i] = sources.NewConnection(p.Root, s)
		}
		if w := selectorWarning(conns, declared); w != "" {
			res.Warnings = append(res.Warnings, w)
		}
	}
	return res, nil
}

func gitSource(req ConnectRequest) (contracts.Source, error) {
	src := contracts.Source{Kind: contracts.SourceGit, Repository: strings.ToLower(req.Target), Path: req.Path, Ref: req.Ref}
	if src.Path == "" {
		src.Path = "."
	}
	for _, check := range []struct{ what, why string }{
		{"repository " + redactedInput(req.Target), sources.CheckRepository(req.Target)},
		{"--path " + req.Path, sources.CheckSubtree(src.Path)},
		{"--ref " + req.Ref, sources.CheckBranch(req.Ref)},
	} {
		if check.why != "" {
			return src, contracts.Errorf(contracts.CodeSourceInvalid, "invalid %s: %s", check.what, check.why)
		}
	}
	return src, nil
}

// directorySource checks that the directory is a tree root that verifies
// (unless allowed otherwise) and stores it relative to the project root
// when it lies inside. A directory already declared is its declaration as
// it stands, unchecked: connecting it again is idempotent (S5) whatever
// the tree holds now, or even if it is gone (verify and list report that).
func directorySource(p *sources.Project, env Env, conns []sources.Connection, req ConnectRequest) (contracts.Source, error) {
	if req.Path != "" {
		return contracts.Source{}, contracts.Errorf(contracts.CodeUsage, "--path selects a subtree of a git source; it needs --ref")
	}
	abs := env.Abs(req.Target)
	if c, ok := declaredDirectory(conns, p.Root, abs); ok {
		return c.Source, nil
	}
	root, err := tree.OpenRoot(abs)
	if err != nil {
		if sources.CheckRepository(req.Target) == "" {
			err = fmt.Errorf("%w (to connect the GitHub repository %s, give --ref <branch>)", err, req.Target)
		}
		return contracts.Source{}, err
	}
	if !tree.IsTreeRoot(root) {
		return contracts.Source{}, contracts.Errorf(contracts.CodeNotATree, "%s is not a tree: it has no NODE.md (create one with `git context-tree init %s`)", req.Target, req.Target)
	}
	if !req.AllowInvalid {
		if rep := tree.Verify(root); !rep.OK() {
			return contracts.Source{}, contracts.Errorf(contracts.CodeTreeInvalid,
				"%s does not verify (%s); repair it (`git context-tree fix %s` shows what fix can do) or pass --allow-invalid", req.Target, CountFindings(len(rep.Findings)), ShellWord(req.Target)).
				WithDetails(map[string]any{"root": root, "findings": rep.Findings})
		}
	}
	path := root
	if rel, ok := tree.Inside(p.Root, root); ok {
		path = filepath.ToSlash(rel)
	}
	// Never write a declaration that reading the file back would reject.
	if why := sources.CheckDirectoryPath(path); why != "" {
		return contracts.Source{}, contracts.Errorf(contracts.CodeSourceInvalid, "cannot declare %s: its path %q %s", req.Target, path, why)
	}
	return contracts.Source{Kind: contracts.SourceDirectory, Path: path}, nil
}

// declaredDirectory finds the declared directory source at abs, by its
// identity (the resolved path), so any spelling of it matches. A symlink
// never matches: it is refused as a tree root as before, not taken for
// the directory it points to.
func declaredDirectory(conns []sources.Connection, root, abs string) (sources.Connection, bool) {
	if fi, err := os.Lstat(abs); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		return sources.Connection{}, false
	}
	return declaredAs(conns, root, contracts.Source{Kind: contracts.SourceDirectory, Path: abs})
}

// redactedInput shows a repository argument without anything that may be a
// credential: userinfo before "@", and secrets redact recognises.
func redactedInput(s string) string {
	if i := strings.LastIndex(s, "@"); i >= 0 {
		s = "***" + s[i:]
	}
	return redact.String(s)
}
