package operations

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/adapters/atomicfile"
	"github.com/git-context-tree/git-context-tree/internal/adapters/git"
	"github.com/git-context-tree/git-context-tree/internal/sources"
	"github.com/git-context-tree/git-context-tree/internal/tree"
)

// FixRequest is what `fix` was asked to do.
type FixRequest struct {
	// Target is a selector or a directory; "" fixes every declared
	// directory tree, or the tree at or above the command's directory.
	Target string
	Write  bool // apply the changes; else only report them
}

// Fix plans the safe mechanical repairs of trees (tree.PlanFix) and, with
// Write, applies them, each file atomically. Content git ignores is left
// alone. A directory without NODE.md can be named: fix gives it one.
// Every change is checked against the disk before anything is written.
func Fix(ctx context.Context, env Env, req FixRequest) (*contracts.FixResult, error) {
	targets, err := fixTargets(ctx, env, req.Target)
	if err != nil {
		return nil, err
	}
	res := &contracts.FixResult{SchemaVersion: contracts.CLIVersion, OK: true, Written: req.Write, Trees: []contracts.FixTree{}}
	plans := make([]*tree.FixPlan, len(targets))
	for i, t := range targets {
		plan, err := tree.PlanFix(t.Root, tree.FixOptions{Ignored: ignoredIn(ctx, env, t.Root)})
		if err != nil {
			return nil, err
		}
		plans[i] = plan
		ft := contracts.FixTree{Root: t.Root, Selector: t.Selector(), Changes: []contracts.FixChange{}, Remaining: plan.Remaining, Skipped: plan.Skipped}
		for _, ch := range plan.Changes {
			action := contracts.FixUpdate
			if ch.Create {
				action = contracts.FixCreate
			}
			ft.Changes = append(ft.Changes, contracts.FixChange{Path: ch.Path, Action: action, Repairs: ch.Repairs,
				Diff: unifiedDiff(ch.Path, ch.Old, ch.New, ch.Create)})
		}
		res.Trees = append(res.Trees, ft)
		res.OK = res.OK && len(plan.Remaining) == 0
	}
	if !req.Write {
		countLinks(env, res, func(i int) bool { return len(plans[i].Changes) > 0 })
		return res, nil
	}
	for i, t := range targets {
		if err := checkUnchanged(t.Root, plans[i].Changes); err != nil {
			return nil, err
		}
	}
	for i, t := range targets {
		if err := applyFix(t.Root, plans[i].Changes); err != nil {
			return nil, err
		}
	}
	countLinks(env, res, func(int) bool { return false })
	return res, nil
}

// countLinks says, for each tree whose files are as fix leaves them, how
// many of its links name nothing: fix does not rewrite links. A plan not
// yet written is not counted (its files are not the ones verified).
func countLinks(env Env, res *contracts.FixResult, pending func(i int) bool) {
	for i, ft := range res.Trees {
		if pending(i) {
			continue
		}
		if links := linkFindings(ft.Root); links > 0 {
			res.Trees[i].LinkFindings = links
			res.Next = append(res.Next, contracts.NextStep{Command: "git context-tree verify --links " + ShellWord(DisplayPath(env, ft.Root)),
				Reason: brokenLinks(links) + "; fix does not rewrite links"})
		}
	}
}

// brokenLinks says how many links name nothing.
func brokenLinks(n int) string {
	if n == 1 {
		return "1 link names nothing (a missing file, heading or [[wikilink]])"
	}
	return fmt.Sprintf("%d links name nothing (missing files, headings or [[wikilinks]])", n)
}

// fixTargets are the trees fix works on: the one named, else every
// declared directory tree, else the tree at or above the command's
// directory. A git source is refused: its snapshot is not for editing.
func fixTargets(ctx context.Context, env Env, arg string) ([]TreeTarget, error) {
	_, conns, err := OpenProject(ctx, env)
	if err != nil {
		return nil, err
	}
	if arg != "" {
		t, err := TargetFor(ctx, env, conns, arg)
		var ce *contracts.Error
		if errors.As(err, &ce) && ce.Code == contracts.CodeNotATree && (t.Conn == nil || t.Conn.Source.Kind == contracts.SourceDirectory) {
			// A directory without NODE.md: fix makes it a tree.
			dir := t.Root
			if dir == "" {
				dir = env.Abs(arg)
			}
			t.Root, err = tree.OpenRoot(dir)
			return []TreeTarget{t}, err
		}
		if t.Conn != nil && t.Conn.Source.Kind == contracts.SourceGit {
			return nil, contracts.Errorf(contracts.CodeFixUnsupported,
				"%s is a git source, whose snapshot fix does not edit; fix a checkout of it, or edit it in a write session (git context-tree write prepare)", arg)
		}
		return []TreeTarget{t}, err
	}
	var targets []TreeTarget
	seen := map[string]bool{}
	for _, c := range conns {
		if c.Source.Kind != contracts.SourceDirectory {
			continue
		}
		t, err := ConnTarget(ctx, env, c)
		if err != nil {
			return nil, err
		}
		if !seen[t.Root] {
			seen[t.Root] = true
			targets = append(targets, t)
		}
	}
	if len(targets) > 0 {
		return targets, nil
	}
	root, err := sources.FindTreeRoot(ctx, env.Git, env.Dir)
	return []TreeTarget{{Root: root}}, err
}

// ignoredIn asks git which paths of the tree at root it ignores, when the
// tree lies in a git work tree.
func ignoredIn(ctx context.Context, env Env, root string) func([]string) (map[string]bool, error) {
	return func(paths []string) (map[string]bool, error) {
		top, err := env.Git.Toplevel(ctx, git.Isolated, root)
		if err != nil {
			return nil, GitError(err)
		}
		if top == "" {
			return nil, nil
		}
		ignored, err := env.Git.CheckIgnore(ctx, root, paths)
		if err != nil {
			return nil, GitError(err)
		}
		return ignored, nil
	}
}

// checkUnchanged refuses, before anything is written, when a file fix
// planned to write changed since: a new file appeared, or a file is no
// longer the regular, single-linked file with the content planned from.
func checkUnchanged(root string, changes []tree.FileChange) error {
	for _, ch := range changes {
		name := filepath.Join(root, filepath.FromSlash(ch.Path))
		fi, err := os.Lstat(name)
		switch {
		case ch.Create && errors.Is(err, fs.ErrNotExist):
			continue
		case ch.Create:
			return fixConflict(name)
		case err != nil || !fi.Mode().IsRegular():
			return fixConflict(name)
		}
		data, err := os.ReadFile(name)
		if err != nil || !bytes.Equal(data, ch.Old) {
			return fixConflict(name)
		}
	}
	return nil
}

func fixConflict(name string) error {
	return contracts.Errorf(contracts.CodeFixConflict, "%s changed while fix was planning; nothing was written, run fix again", name).
		WithDetails(map[string]any{"path": name})
}

// applyFix writes each change atomically (a new file is 0644; a rewritten
// one keeps its mode).
func applyFix(root string, changes []tree.FileChange) error {
	for _, ch := range changes {
		name := filepath.Join(root, filepath.FromSlash(ch.Path))
		if err := atomicfile.Write(name, ch.New, 0o644); err != nil {
			return contracts.Errorf(contracts.CodeIO, "cannot write %s: %v", name, err)
		}
	}
	return nil
}

// linkFindings counts what verify --links finds beyond verify: links that
// name nothing.
func linkFindings(root string) int {
	return len(tree.VerifyWith(root, tree.VerifyOptions{Links: true}).Findings) - len(tree.Verify(root).Findings)
}
