package git

import (
	"bufio"
	"bytes"
	"context"
	"strings"
)

// A partial cache (gitpartial-clone(7)) holds every commit and tree of
// the branches it fetched but only the blobs a checkout asked for. Every
// git command the tool runs has lazy fetching off (GIT_NO_LAZY_FETCH, see
// env), so no command can quietly download a blob outside a declared
// subtree; the blobs a subtree needs are fetched explicitly, in one batch,
// by FetchObjects.

// PartialFilter is the object filter of a partial cache: no blobs.
const PartialFilter = "blob:none"

// MissingObjects lists the objects reachable from the given trees (or
// commits) that the repository does not have, without fetching any.
func (g *Git) MissingObjects(ctx context.Context, gitDir string, tips ...string) ([]string, error) {
	if len(tips) == 0 {
		return nil, nil
	}
	args := append([]string{"rev-list", "--objects", "--no-object-names", "--missing=print"}, tips...)
	out, err := g.InRepo(ctx, gitDir, append(args, "--")...)
	if err != nil {
		return nil, err
	}
	var missing []string
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		if id, ok := strings.CutPrefix(sc.Text(), "?"); ok {
			missing = append(missing, id)
		}
	}
	return missing, nil
}

// HasMissingObjects reports whether the objects of one commit (its tree,
// recursively) are incomplete in the repository: true after a filtered
// fetch the server honoured, false when it sent every blob.
func (g *Git) HasMissingObjects(ctx context.Context, gitDir, commit string) (bool, error) {
	out, err := g.InRepo(ctx, gitDir, "rev-list", "--objects", "--no-object-names", "--missing=print", "--max-count=1", commit, "--")
	if err != nil {
		return false, err
	}
	return bytes.HasPrefix(out, []byte{'?'}) || bytes.Contains(out, []byte("\n?")), nil
}

// FetchObjects fetches the named objects from remote into a partial
// cache, in one request, as git's own lazy fetch would (no negotiation,
// no tags, no refs written), with progress as FetchBranch.
func (g *Git) FetchObjects(ctx context.Context, gitDir, remote string, ids []string, opt FetchOptions) error {
	if len(ids) == 0 {
		return nil
	}
	ctx, cancel := contextWithNetworkTimeout(ctx)
	defer cancel()
	args := []string{"--git-dir=" + gitDir, "-c", "fetch.negotiationAlgorithm=noop", "fetch", "--no-tags", "--no-write-fetch-head",
		"--recurse-submodules=no", "--filter=" + PartialFilter, progressFlag(opt.Progress), "--stdin", "--", remote}
	cmd, err := g.command(ctx, Isolated, gitDir, args...)
	if err != nil {
		return err
	}
	_, err = runWithProgress(cmd, args, strings.NewReader(strings.Join(ids, "\n")+"\n"), opt.Progress)
	return err
}

// UnsetConfig removes a key of the repository's own configuration; an
// absent key is no error.
func (g *Git) UnsetConfig(ctx context.Context, gitDir, key string) error {
	_, err := g.InRepo(ctx, gitDir, "config", "--local", "--unset-all", key)
	if ExitCode(err) == 5 {
		return nil
	}
	return err
}

// CountChanged counts the files under dir (repository-relative, "." for
// all) that differ between two commits, from tree objects alone.
func (g *Git) CountChanged(ctx context.Context, gitDir, from, to, dir string) (int, error) {
	args := []string{"diff-tree", "-r", "-z", "--no-renames", "--name-only", from, to, "--"}
	if dir != "." {
		args = append(args, ":(literal)"+dir)
	}
	out, err := g.InRepo(ctx, gitDir, args...)
	if err != nil {
		return 0, err
	}
	return len(splitNUL(out)), nil
}

// HasObject reports whether the repository has the object itself (lazy
// fetching is off, so a missing one is not fetched: cat-file fails).
func (g *Git) HasObject(ctx context.Context, gitDir, id string) bool {
	_, err := g.InRepo(ctx, gitDir, "cat-file", "-e", id)
	return err == nil
}
