package git

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// A write session is a repository of its own: a work tree with a private
// .git directory that borrows the home repository's objects through
// objects/info/alternates. That .git is the agent's: after creating it,
// the tool runs no git command with it as the repository (its HEAD and
// branch are read and moved as files, see ReadHead). The tool builds every
// commit in the home repository itself, from the session's files, through
// an index file it owns (see WorkTree).

// ObjectFormat returns the object format ("sha1", "sha256") of gitDir.
func (g *Git) ObjectFormat(ctx context.Context, gitDir string) (string, error) {
	if format := g.knownObjectFormat(gitDir); format != "" {
		return format, nil
	}
	out, err := g.InRepo(ctx, gitDir, "rev-parse", "--show-object-format")
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(string(out)), nil
}

// InitSessionRepo creates the session repository at dir: no template (no
// sample hooks), HEAD on branch, objects borrowed from homeObjects. It
// does not create the branch or check anything out.
func (g *Git) InitSessionRepo(ctx context.Context, dir, branch, objectFormat, homeObjects string) error {
	if _, err := g.Run(ctx, Isolated, "", "init", "--quiet", "--template=", "--object-format="+objectFormat,
		"--initial-branch="+branch, "--", dir); err != nil {
		return err
	}
	info := filepath.Join(dir, ".git", "objects", "info")
	if err := os.MkdirAll(info, 0o700); err != nil {
		return fmt.Errorf("session repository: %w", err)
	}
	if err := os.WriteFile(filepath.Join(info, "alternates"), []byte(homeObjects+"\n"), 0o600); err != nil {
		return fmt.Errorf("session repository: %w", err)
	}
	return nil
}

// WorkTree is a work tree read or written through an explicit git
// directory and, when Index is set, an index file the caller owns, so
// neither the work tree's own .git nor an inherited GIT_INDEX_FILE can
// redirect git. With Quarantine set, the objects it writes (git add,
// write-tree) go there, not into GitDir's objects.
type WorkTree struct {
	GitDir     string
	Dir        string
	Index      string
	Quarantine *Quarantine
}

func (g *Git) inWorkTree(ctx context.Context, w WorkTree, args ...string) ([]byte, error) {
	cmd, err := g.command(ctx, Isolated, w.Dir, append([]string{"--git-dir=" + w.GitDir, "--work-tree=" + w.Dir}, args...)...)
	if err != nil {
		return nil, err
	}
	if w.Index != "" {
		cmd.Env = append(cmd.Env, "GIT_INDEX_FILE="+w.Index)
	}
	if w.Quarantine != nil {
		cmd.Env = append(cmd.Env, w.Quarantine.env()...)
	}
	return runCmd(cmd, args)
}

// ResetHard makes the work tree and index exactly HEAD's tree.
func (g *Git) ResetHard(ctx context.Context, w WorkTree) error {
	_, err := g.inWorkTree(ctx, w, "reset", "--hard", "--quiet", "--no-recurse-submodules")
	return err
}

// ReadTree loads a tree into the index (no work tree update).
func (g *Git) ReadTree(ctx context.Context, w WorkTree, tree string) error {
	_, err := g.inWorkTree(ctx, w, "read-tree", tree)
	return err
}

// AddSubtree stages the subtree of the work tree ("." for all of it) into
// the index (additions, edits, deletions; ignored files stay out) and
// force-adds the listed ignored paths. Nothing outside the subtree is
// read or written into the objects: a session's changes there are refused
// from PendingOutside, never hashed into the repository. A subtree gone
// from the disk is staged as deleted (git add refuses a pathspec that
// matches nothing on disk or in the index). A nested repository is staged
// as a gitlink, which callers refuse.
func (g *Git) AddSubtree(ctx context.Context, w WorkTree, subtree string, ignored []string) error {
	spec := ":/"
	if subtree != "." {
		spec = ":(top,literal)" + subtree
	}
	args := []string{"add", "--all", "--", spec}
	if _, err := os.Lstat(filepath.Join(w.Dir, filepath.FromSlash(subtree))); errors.Is(err, fs.ErrNotExist) {
		args = []string{"rm", "-r", "-q", "--cached", "--ignore-unmatch", "--", spec}
	}
	if _, err := g.inWorkTree(ctx, w, args...); err != nil {
		return err
	}
	if len(ignored) == 0 {
		return nil
	}
	args = []string{"add", "--force", "--"}
	for _, p := range ignored {
		args = append(args, ":(top,literal)"+p)
	}
	_, err := g.inWorkTree(ctx, w, args...)
	return err
}

// PendingOutside lists the work tree's files outside subtree that differ
// from the index: changed (content, mode or type), deleted, and untracked
// ones that ignore rules do not hide (IgnoredUntracked lists those), each
// once, sorted. git compares contents in memory: nothing is written into
// the objects.
func (g *Git) PendingOutside(ctx context.Context, w WorkTree, subtree string) ([]string, error) {
	if subtree == "." {
		return nil, nil
	}
	out, err := g.inWorkTree(ctx, w, "ls-files", "-z", "--full-name", "--modified", "--deleted", "--others", "--exclude-standard",
		"--", ":(top)", ":(top,exclude,literal)"+subtree)
	if err != nil {
		return nil, err
	}
	paths := splitNUL(out)
	slices.Sort(paths)
	return slices.Compact(paths), nil
}

// IgnoredUntracked lists untracked paths that ignore rules hide, a wholly
// ignored directory as one "dir/" entry.
func (g *Git) IgnoredUntracked(ctx context.Context, w WorkTree) ([]string, error) {
	out, err := g.inWorkTree(ctx, w, "ls-files", "-z", "--full-name", "--others", "--ignored", "--exclude-standard", "--directory", "--", ":/")
	if err != nil {
		return nil, err
	}
	return splitNUL(out), nil
}

// Pending lists what differs between the index and the work tree:
// modified and deleted tracked files and every untracked file, ignored or
// not. Empty means the work tree is exactly the index.
func (g *Git) Pending(ctx context.Context, w WorkTree) ([]string, error) {
	out, err := g.inWorkTree(ctx, w, "ls-files", "-z", "--full-name", "--modified", "--deleted", "--others", "--directory", "--", ":/")
	if err != nil {
		return nil, err
	}
	return splitNUL(out), nil
}

// WriteTree writes the index as a tree object and returns its id.
func (g *Git) WriteTree(ctx context.Context, w WorkTree) (string, error) {
	out, err := g.inWorkTree(ctx, w, "write-tree")
	return strings.TrimSpace(string(out)), err
}

// CommitTree creates a commit of tree with one parent, with the host
// identity, and returns its id. The message is used verbatim.
func (g *Git) CommitTree(ctx context.Context, gitDir, tree, parent, message string) (string, error) {
	out, err := g.InRepo(ctx, gitDir, "commit-tree", tree, "-p", parent, "-m", message)
	var ee *ExitError
	if errors.As(err, &ee) {
		// The message is no part of an error line.
		short := *ee
		short.Args = []string{"commit-tree", tree, "-p", parent}
		err = &short
	}
	return strings.TrimSpace(string(out)), err
}

// SetRef points ref at commit if it currently points at old ("" = it must
// not exist yet); it fails, changing nothing, otherwise.
func (g *Git) SetRef(ctx context.Context, gitDir, ref, commit, old string) error {
	_, err := g.InRepo(ctx, gitDir, "update-ref", "--no-deref", ref, commit, old)
	return err
}

// DeleteRef deletes ref if it currently points at old.
func (g *Git) DeleteRef(ctx context.Context, gitDir, ref, old string) error {
	_, err := g.InRepo(ctx, gitDir, "update-ref", "--no-deref", "-d", ref, old)
	return err
}

// TreeChange is one entry of `git diff-tree --raw`: a path whose mode or
// object differs between two trees. A missing side has mode "000000".
type TreeChange struct {
	OldMode, NewMode string
	OldID, NewID     string
	Path             string
}

// DiffTrees compares two trees (or commits) by their objects: the
// top-level entries that differ, or with recurse every file that does.
func (g *Git) DiffTrees(ctx context.Context, gitDir, from, to string, recurse bool) ([]TreeChange, error) {
	return g.diffTrees(ctx, gitDir, nil, from, to, recurse)
}

func (g *Git) diffTrees(ctx context.Context, gitDir string, q *Quarantine, from, to string, recurse bool) ([]TreeChange, error) {
	args := []string{"diff-tree", "-z", "--no-renames", "--raw", "--full-index"}
	if recurse {
		args = append(args, "-r")
	}
	out, err := g.inRepoWith(ctx, gitDir, q, nil, append(args, from, to, "--")...)
	if err != nil {
		return nil, err
	}
	return parseRawDiff(out)
}

// parseRawDiff parses `-z --raw` records: ":<old> <new> <oid> <oid> <S>\0<path>\0".
func parseRawDiff(out []byte) ([]TreeChange, error) {
	recs := bytes.Split(out, []byte{0})
	var changes []TreeChange
	for i := 0; i+1 < len(recs); i += 2 {
		meta := string(recs[i])
		if meta == "" {
			break
		}
		f := strings.Fields(strings.TrimPrefix(meta, ":"))
		if !strings.HasPrefix(meta, ":") || len(f) != 5 {
			return nil, fmt.Errorf("git diff-tree: unexpected record %q", meta)
		}
		changes = append(changes, TreeChange{OldMode: f[0], NewMode: f[1], OldID: f[2], NewID: f[3], Path: string(recs[i+1])})
	}
	return changes, nil
}

// ResolveTree returns the id of a commit's (or tree-ish's) tree.
func (g *Git) ResolveTree(ctx context.Context, gitDir, rev string) (string, error) {
	out, err := g.InRepo(ctx, gitDir, "rev-parse", "--verify", "--end-of-options", rev+"^{tree}")
	return strings.TrimSpace(string(out)), err
}

// IsAncestor reports whether commit a is reachable from b in gitDir.
func (g *Git) IsAncestor(ctx context.Context, gitDir, a, b string) (bool, error) {
	_, err := g.InRepo(ctx, gitDir, "merge-base", "--is-ancestor", a, b)
	switch ExitCode(err) {
	case -1:
		return err == nil, err
	case 1:
		return false, nil
	default:
		return false, err
	}
}

// IdentityKnown reports whether git can name a committer in gitDir (the
// user's user.name and user.email, or what git may infer).
func (g *Git) IdentityKnown(ctx context.Context, gitDir string) bool {
	_, err := g.InRepo(ctx, gitDir, "var", "GIT_COMMITTER_IDENT")
	return err == nil
}
