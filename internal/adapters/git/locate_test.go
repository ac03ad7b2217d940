package git

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// countingGit is a Git running the real git through a script that counts
// its runs, in the test's environment without repository variables.
func countingGit(t *testing.T, extraEnv ...string) (*Git, func() int) {
	t.Helper()
	real, err := exec.LookPath("git")
	if err != nil {
		t.Fatal(err)
	}
	log := filepath.Join(t.TempDir(), "calls")
	script := filepath.Join(t.TempDir(), "git")
	if err := os.WriteFile(script, []byte("#!/bin/sh\necho \"$@\" >> "+log+"\nexec "+real+" \"$@\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	var env []string
	for _, kv := range os.Environ() {
		if name, _, _ := strings.Cut(kv, "="); !hasGitVars([]string{kv}) && name != "GIT_CEILING_DIRECTORIES" {
			env = append(env, kv)
		}
	}
	g := &Git{Path: script, Env: append(env, extraEnv...)}
	return g, func() int {
		data, _ := os.ReadFile(log)
		return strings.Count(string(data), "\n")
	}
}

// revParse is git's own answer for dir, asked alone (no cache, nothing
// inferred): "" where git finds no work tree.
func revParse(t *testing.T, dir string, env []string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"rev-parse", "--path-format=absolute"}, args...)...)
	cmd.Dir, cmd.Env = dir, env
	out, err := cmd.Output()
	if err != nil {
		return ""
	}
	return strings.TrimSuffix(string(out), "\n")
}

// TestLocationOneProcess: everything a command asks about where it runs
// (top level in both scopes, the index's location, the hooks directory,
// the git dirs, the object format) costs one git process, and each answer
// is the one git gives when asked alone.
func TestLocationOneProcess(t *testing.T) {
	r := newIndexRepo(t)
	r.git("config", "core.hooksPath", "managed-hooks")
	dir := filepath.Join(r.dir, "docs")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	g, runs := countingGit(t)
	ctx := context.Background()
	type answers struct{ Top, TopIsolated, IndexTop, IndexGitDir, Hooks, HooksCommon, GitDir, Dirs, Common, Format string }
	var got answers
	var errs []error
	keep := func(dst *string, v string, err error) {
		*dst = v
		if err != nil {
			errs = append(errs, err)
		}
	}
	top, err := g.Toplevel(ctx, Invoking, dir)
	keep(&got.Top, top, err)
	top, err = g.Toplevel(ctx, Isolated, dir)
	keep(&got.TopIsolated, top, err)
	loc, err := g.LocateIndex(ctx, dir)
	if err != nil || loc == nil {
		t.Fatalf("LocateIndex: %+v, %v", loc, err)
	}
	got.IndexTop, got.IndexGitDir = loc.Top, loc.GitDir
	hooks, common, err := g.HooksDir(ctx, dir)
	keep(&got.Hooks, hooks, err)
	got.HooksCommon = common
	gitDir, err := g.GitDir(ctx, dir)
	keep(&got.GitDir, gitDir, err)
	gd, cd, err := g.GitDirs(ctx, Isolated, dir)
	keep(&got.Dirs, gd+" "+cd, err)
	cd, err = g.CommonDir(ctx, Invoking, dir)
	keep(&got.Common, cd, err)
	format, err := g.ObjectFormat(ctx, cd)
	keep(&got.Format, format, err)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if n := runs(); n != 1 {
		t.Errorf("git ran %d times, want once", n)
	}
	env := g.Env.List()
	wantTop := revParse(t, dir, env, "--show-toplevel")
	wantGitDir := revParse(t, dir, env, "--git-dir")
	wantCommon := revParse(t, dir, env, "--git-common-dir")
	want := answers{
		Top: wantTop, TopIsolated: wantTop, IndexTop: wantTop, IndexGitDir: wantGitDir,
		Hooks: revParse(t, dir, env, "--git-path", "hooks"), HooksCommon: wantCommon,
		GitDir: wantGitDir, Dirs: wantGitDir + " " + wantCommon, Common: wantCommon,
		Format: revParse(t, dir, env, "--show-object-format"),
	}
	if want.Hooks != filepath.Join(r.dir, "managed-hooks") {
		t.Fatalf("git's own hooks path %q: the test expects core.hooksPath to count", want.Hooks)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("answers differ from git's (-git +ours):\n%s", diff)
	}
}

// TestLocationInherited: a directory below one already answered takes its
// answer without git only where git, discovering upwards, would reach the
// answered directory: a nested repository, a git file, a git directory, a
// symlink into another repository and a ceiling directory that stops
// discovery on the way all leave the question to git, and every answer is
// git's own.
func TestLocationInherited(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	mk := func(p string) string {
		if err := os.MkdirAll(filepath.Join(root, p), 0o755); err != nil {
			t.Fatal(err)
		}
		return filepath.Join(root, p)
	}
	initRepo := func(p string) {
		if out, err := exec.Command("git", "init", "-q", filepath.Join(root, p)).CombinedOutput(); err != nil {
			t.Fatalf("git init: %v\n%s", err, out)
		}
	}
	mk("repo/a/b/c")
	initRepo("repo")
	mk("repo/nested/x")
	initRepo("repo/nested")
	mk("repo/gitfile/y")
	other := mk("other/z")
	initRepo("other")
	if err := os.WriteFile(filepath.Join(root, "repo/gitfile/.git"), []byte("gitdir: "+filepath.Join(root, "other/.git")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(other, filepath.Join(root, "repo/a/link")); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, c := range []struct {
		name    string
		dir     string
		ceiling string
		git     bool // git must be asked
	}{
		{"plain subdirectory", "repo/a/b/c", "", false},
		{"the answered directory", "repo", "", false},
		{"nested repository", "repo/nested/x", "", true},
		{"git file", "repo/gitfile/y", "", true},
		{"inside the git directory", "repo/.git/refs", "", true},
		{"symlink to another repository", "repo/a/link", "", true},
		{"ceiling on the way", "repo/a/b/c", filepath.Join(root, "repo/a"), true},
		{"ceiling at the answered directory", "repo/a/b/c", filepath.Join(root, "repo"), true},
		{"ceiling above the answered directory", "repo/a/b/c", root, false},
		{"ceiling at the directory itself", "repo/a/b/c", filepath.Join(root, "repo/a/b/c"), false},
	} {
		t.Run(c.name, func(t *testing.T) {
			var extra []string
			if c.ceiling != "" {
				extra = append(extra, "GIT_CEILING_DIRECTORIES="+c.ceiling)
			}
			g, runs := countingGit(t, extra...)
			if top, err := g.Toplevel(ctx, Invoking, filepath.Join(root, "repo")); err != nil || top != filepath.Join(root, "repo") {
				t.Fatalf("Toplevel(repo) = %q, %v", top, err)
			}
			dir := filepath.Join(root, c.dir)
			top, err := g.Toplevel(ctx, Isolated, dir)
			if err != nil {
				t.Fatal(err)
			}
			if want := revParse(t, dir, g.Env.List(), "--show-toplevel"); top != want {
				t.Errorf("Toplevel(%s) = %q, git says %q", c.dir, top, want)
			}
			if asked := runs() > 1; asked != c.git {
				t.Errorf("git asked: %t, want %t", asked, c.git)
			}
		})
	}
}
