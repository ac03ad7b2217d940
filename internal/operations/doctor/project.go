package doctor

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/buildinfo"
	"github.com/git-context-tree/git-context-tree/internal/operations"
	"github.com/git-context-tree/git-context-tree/internal/operations/hooks"
	"github.com/git-context-tree/git-context-tree/internal/sources"
	"github.com/git-context-tree/git-context-tree/internal/tree"
)

// snapshotOld is the age past which doctor suggests syncing a git source.
const snapshotOld = 7 * 24 * time.Hour

// checkProject reports the project's configuration, its declared trees
// and, in a git checkout, its commit hook.
func checkProject(ctx context.Context, env operations.Env, r *doctorReport) {
	const area = "project"
	p, conns, err := operations.OpenProject(ctx, env)
	if err != nil {
		var ce *contracts.Error
		if !errors.As(err, &ce) {
			ce = contracts.Errorf(contracts.CodeInternal, "%v", err)
		}
		fix := "git context-tree list  # shows the same error"
		if ce.Code == contracts.CodeConfigInvalid {
			fix = "git context-tree schema config  # the format; then edit the file"
		}
		r.fail(area, "project.config", ce.Message, fix)
		return
	}
	if p.Config == nil {
		// A folder of Markdown already in the checkout is what to adopt
		// (init's own suggestion at a code root); otherwise a new folder.
		// Outside git nothing is walked (it could be a home directory).
		target := "docs/context"
		best := ""
		if p.Checkout != "" {
			best = operations.MarkdownFolder(p.Root)
		}
		if best != "" {
			target = operations.ShellWord(operations.DisplayPath(env, filepath.Join(p.Root, best)))
		}
		r.warn(area, "project.config", "no "+contracts.ConfigFile+" in "+env.Dir+" or above: no tree is declared here",
			"git context-tree init "+target+"  # or: git context-tree connect <dir>")
	} else {
		r.ok(area, "project.config", fmt.Sprintf("%s declares %d tree(s)", p.ConfigFile, len(conns)), p.ConfigFile)
		checkSelectors(conns, r)
		for _, c := range conns {
			checkConnection(ctx, env, c, r)
		}
	}
	if p.Checkout != "" {
		checkHook(ctx, env, p, conns, r)
		checkPinnedRelease(p.Checkout, buildinfo.Semver(), r)
	}
}

// checkSelectors warns about short selectors several sources share: they
// are ambiguous, so commands need the exact ones.
func checkSelectors(conns []sources.Connection, r *doctorReport) {
	byShort := map[string][]string{}
	for _, c := range conns {
		byShort[c.Short] = append(byShort[c.Short], c.Exact)
	}
	for _, c := range conns {
		exacts := byShort[c.Short]
		if len(exacts) < 2 || exacts[0] != c.Exact {
			continue
		}
		r.warn("project", "project.selectors", fmt.Sprintf("selector %q names %d trees; use an exact selector: %s", c.Short, len(exacts), strings.Join(exacts, ", ")),
			"git context-tree list")
	}
}

// checkConnection reports one declared tree: it resolves (a directory
// that exists, a git source whose snapshot holds its subtree and is
// intact), a directory tree verifies, a git source's snapshot is recent.
func checkConnection(ctx context.Context, env operations.Env, c sources.Connection, r *doctorReport) {
	const area = "project"
	sel, name := shellArg(c.Exact), connLabel(c)
	if c.Source.Kind == contracts.SourceGit {
		rec, synced := env.Managed().LastFetch(c.Source.Repository, c.Source.Ref)
		if !synced {
			r.warn(area, "project.sync", name+": never synced on this machine", "git context-tree sync "+sel)
			return
		}
		if _, err := operations.ResolveConnection(ctx, env, c); err != nil {
			// A subtree the branch's snapshot does not hold yet (connected
			// after the last sync) is a sync away, like a source never
			// synced; a snapshot sync rejected is broken.
			if errorCode(err) == contracts.CodeNotSynced {
				r.warn(area, "project.sync", name+": "+errorText(err), "git context-tree sync "+sel)
			} else {
				r.fail(area, "project.sync", name+": "+errorText(err), "git context-tree sync "+sel)
			}
			return
		}
		age := time.Since(rec.At)
		msg := fmt.Sprintf("%s: snapshot of %s synced %s ago", name, abbrev(rec.Commit), operations.HumanAge(age))
		if age > snapshotOld {
			r.warn(area, "project.sync", msg, "git context-tree sync "+sel)
			return
		}
		r.ok(area, "project.sync", msg)
		return
	}
	if _, err := operations.ResolveConnection(ctx, env, c); err != nil {
		fix := "git context-tree resolve " + sel
		if errorCode(err) == contracts.CodeTreeNotFound {
			fix = "git context-tree init " + shellArg(c.Source.Path) + "  # or: git context-tree disconnect " + sel
		}
		r.fail(area, "project.resolve", name+": "+errorText(err), fix, c.Dir)
		return
	}
	rep, err := operations.Verify(ctx, env, []string{c.Exact}, tree.VerifyOptions{})
	if err != nil {
		r.fail(area, "project.tree", name+": "+errorText(err), "git context-tree verify "+sel)
		return
	}
	findings, docs := 0, 0
	for _, t := range rep.Trees {
		findings += len(t.Findings)
		docs += t.Scanned.Documents
	}
	if findings > 0 {
		r.fail(area, "project.tree", fmt.Sprintf("%s: %d finding(s) in %d document(s)", name, findings, docs),
			"git context-tree fix "+sel+" --write  # repairs what it can; verify lists the rest", c.Dir)
		return
	}
	r.ok(area, "project.tree", fmt.Sprintf("%s: %d document(s) verify", name, docs), c.Dir)
}

// connLabel names a declared tree in a line: its subtree selector
// (handbook/teams/platform) when it has one, so two subtrees of one
// repository are told apart, else its short selector.
func connLabel(c sources.Connection) string {
	if c.SubtreeSel != "" {
		return c.SubtreeSel
	}
	return c.Short
}

// checkHook reports whether git runs the tree check on commits here, and
// whether the hook will find the binary.
func checkHook(ctx context.Context, env operations.Env, p *sources.Project, conns []sources.Connection, r *doctorReport) {
	const area = "hook"
	st, err := hooks.Status(ctx, env)
	switch {
	case err != nil:
		r.fail(area, "hook.status", errorText(err), "git context-tree hooks status")
	case st.Effective:
		msg := "git runs the tree check on commits and merges"
		if st.Manager != "" {
			msg += " (through " + st.Manager + ")"
		}
		if st.Chained != "" {
			msg += "; the hook that was there before runs first: " + st.Chained
		}
		r.ok(area, "hook.status", msg, st.Hook)
		for _, w := range st.Warnings {
			r.warn(area, "hook.twice", w, "", st.Hook)
		}
	default:
		why := "git does not run the tree check on commits"
		if st.Reason != "" {
			why += ": " + st.Reason
		}
		// The result's fix: with a hook manager whose configuration runs
		// the check already, its own install (hooks install would only
		// send the user back here).
		fix := st.Fix
		if fix == "" {
			fix = "git context-tree hooks install"
		}
		if declaresDirectoryIn(conns, p.Checkout) {
			r.fail(area, "hook.status", why, fix, st.Hook)
		} else {
			r.warn(area, "hook.status", why, fix, st.Hook)
		}
	}
	checkHookPath(env, r)
}

// declaresDirectoryIn reports a directory tree declared inside checkout:
// the trees the hook protects.
func declaresDirectoryIn(conns []sources.Connection, checkout string) bool {
	for _, c := range conns {
		if c.Source.Kind == contracts.SourceDirectory && operations.Within(c.Dir, checkout) {
			return true
		}
	}
	return false
}

// guiPath is the PATH a git client started outside a shell (a desktop
// app, an IDE launched from the dock) typically gets.
var guiPath = operations.GUIPath

// checkHookPath reports whether hooks find git-context-tree: git runs hooks
// with its own PATH (the shell's, for git started from one), and GUI
// clients often with only the system directories.
func checkHookPath(env operations.Env, r *doctorReport) {
	const area = "hook"
	found, err := lookPath(env, "git-context-tree")
	if err != nil {
		r.fail(area, "hook.path", "git-context-tree is not on PATH: the hook cannot run it and refuses every commit",
			buildinfo.InstallCommand+"  # or a release archive; then add $(go env GOPATH)/bin to PATH")
		return
	}
	for _, d := range guiPath {
		if p, err := filepath.EvalSymlinks(filepath.Join(d, "git-context-tree")); err == nil && p != "" {
			r.ok(area, "hook.path", "hooks find "+found+", also from GUI git clients ("+d+")", found)
			return
		}
	}
	exe := env.Abs(found)
	// A hint, not a warning: most clients start from a login session that
	// has the user's PATH; some (macOS apps, IDEs started from a dock) see
	// only the system directories.
	r.ok(area, "hook.path", "hooks find "+found+"; a GUI git client that does not get your shell's PATH (only "+
		strings.Join(guiPath, ":")+") will not: if one says it is missing, run sudo ln -s "+shellArg(exe)+" /usr/local/bin/git-context-tree", found)
}

// lookPath finds an executable on the command's PATH, as the hook's
// `command -v` does.
func lookPath(env operations.Env, name string) (string, error) {
	for _, dir := range filepath.SplitList(env.Vars.Get("PATH")) {
		if dir == "" {
			dir = "."
		}
		p := filepath.Join(dir, name)
		if fi, err := os.Stat(env.Abs(p)); err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	return "", os.ErrNotExist
}

// errorCode is an error's stable code, "" for an error without one.
func errorCode(err error) contracts.ErrorCode {
	var ce *contracts.Error
	if errors.As(err, &ce) {
		return ce.Code
	}
	return ""
}

// errorText is an error's message without its Go wrapping.
func errorText(err error) string {
	var ce *contracts.Error
	if errors.As(err, &ce) {
		return string(ce.Code) + ": " + ce.Message
	}
	return err.Error()
}

// shellArg quotes s for a POSIX shell when it needs quoting.
func shellArg(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:@%+=,") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// abbrev shortens a commit id for messages.
func abbrev(id string) string { return id[:min(len(id), 7)] }
