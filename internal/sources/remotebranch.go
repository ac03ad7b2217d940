package sources

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/adapters/git"
	"github.com/git-context-tree/git-context-tree/internal/redact"
)

// CheckRemoteBranch asks the repository's remote (its https identity, with
// the user's insteadOf rewrites) whether it has the branch. It returns
// REF_NOT_FOUND naming close branch names when the remote answers without
// it, and unreachable (with the reason) when the remote cannot be asked at
// all: connect then declares the source anyway, as it would offline.
func (m *Managed) CheckRemoteBranch(ctx context.Context, repository, branch string) (unreachable string, err error) {
	dir, err := m.Home.Dir() // no repository: only the user's configuration applies
	if err != nil {
		return "", err
	}
	branches, err := m.Git.RemoteBranches(ctx, dir, OriginURL(repository))
	if err != nil {
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		if missing := m.missingLocalRemote(ctx, dir, repository); missing != "" {
			return "", contracts.Errorf(contracts.CodeRepositoryNotFound,
				"https://github.com/%s does not exist: it is rewritten (url.<base>.insteadOf) to %s, which does not exist (--offline declares it without asking)",
				strings.ToLower(repository), missing).
				WithDetails(map[string]any{"repository": strings.ToLower(repository), "path": missing})
		}
		return redact.String(unreachableWhy(err)), nil
	}
	if slices.Contains(branches, branch) {
		return "", nil
	}
	close := CloseNames(branch, branches, 5)
	msg := "https://github.com/" + strings.ToLower(repository) + " has no branch " + quoteName(branch)
	if len(close) > 0 {
		msg += "; did you mean " + strings.Join(quoteAll(close), ", ") + "?"
	} else if len(branches) == 0 {
		msg += " (it has no branches yet)"
	}
	return "", contracts.Errorf(contracts.CodeRefNotFound, "%s (--offline declares it without asking)", msg).
		WithDetails(map[string]any{"repository": strings.ToLower(repository), "branch": branch, "suggestions": close})
}

// CloseNames returns up to limit names close to want, closest first: equal
// but for case, one a prefix of the other, or within an edit distance of a
// third of want's length (at least 2) of the name or of one of its
// slash-separated parts (relase finds release/1.0).
func CloseNames(want string, names []string, limit int) []string {
	type scored struct {
		name string
		d    int
	}
	var found []scored
	maxD := max(2, len(want)/3)
	lw := strings.ToLower(want)
	for _, n := range names {
		ln := strings.ToLower(n)
		d := editDistance(lw, ln)
		if strings.Contains(ln, "/") {
			for _, part := range strings.Split(ln, "/") {
				d = min(d, editDistance(lw, part)+1)
			}
		}
		switch {
		case ln == lw:
			d = 0
		case strings.HasPrefix(ln, lw) || strings.HasPrefix(lw, ln):
			d = min(d, 1)
		case d > maxD:
			continue
		}
		found = append(found, scored{n, d})
	}
	slices.SortStableFunc(found, func(a, b scored) int {
		if a.d != b.d {
			return a.d - b.d
		}
		return strings.Compare(a.name, b.name)
	})
	out := []string{}
	for i := 0; i < len(found) && i < limit; i++ {
		out = append(out, found[i].name)
	}
	return out
}

// editDistance is the Levenshtein distance between a and b, by bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

func quoteName(s string) string { return `"` + s + `"` }

func quoteAll(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = quoteName(n)
	}
	return out
}

// missingLocalRemote is the local path the repository's address is
// rewritten to when that path does not exist ("" otherwise): the one case
// where "no such repository" can be told without reading git's messages.
func (m *Managed) missingLocalRemote(ctx context.Context, dir, repository string) string {
	u, err := m.Git.RemoteURL(ctx, dir, OriginURL(repository))
	if err != nil {
		return ""
	}
	path := u
	if rest, ok := strings.CutPrefix(u, "file://"); ok {
		if path, err = url.PathUnescape(rest); err != nil {
			return ""
		}
	}
	if !filepath.IsAbs(path) {
		return ""
	}
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return path
	}
	return ""
}

// unreachableWhy says why the remote could not be asked. git exits 128 alike
// for a repository that does not exist, one the user may not read, and a
// network failure (GitHub answers a missing and a private repository
// alike), so the status cannot tell them apart and the message says so.
func unreachableWhy(err error) string {
	status := "git ls-remote failed"
	if code := git.ExitCode(err); code >= 0 {
		status = fmt.Sprintf("git ls-remote exited %d", code)
	}
	return fmt.Sprintf("%s: %s; git reports a repository that does not exist, one you may not read and a network failure alike, so check the name", status, git.Summary(err))
}
