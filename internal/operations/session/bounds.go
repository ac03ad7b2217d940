package session

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/adapters/git"
	"github.com/git-context-tree/git-context-tree/internal/operations"
)

// What a session may add, unless git config says otherwise: a file as
// large as the largest document the tool reads, and in all eight of them.
const (
	DefaultMaxFileSize = contracts.MaxDocumentBytes
	DefaultMaxSize     = 8 * contracts.MaxDocumentBytes
	maxFileSizeKey     = "context-tree.sessionMaxFileSize"
	maxSizeKey         = "context-tree.sessionMaxSize"
)

// sessionLimits are the bounds in force for a project.
type sessionLimits struct {
	file, total int64
}

// readLimits reads the bounds from git config as a command run in the
// project sees it (system, global, the project's repository), sizes as git
// writes them (5m, 512k, 1g or bytes).
func readLimits(ctx context.Context, env operations.Env) (sessionLimits, error) {
	l := sessionLimits{file: DefaultMaxFileSize, total: DefaultMaxSize}
	values, err := env.Git.UserConfigValues(ctx, env.Dir, maxFileSizeKey, maxSizeKey)
	if err != nil {
		return l, operations.GitError(err)
	}
	for _, k := range []struct {
		key string
		to  *int64
	}{{maxFileSizeKey, &l.file}, {maxSizeKey, &l.total}} {
		v, ok := values[k.key]
		if !ok {
			continue
		}
		n, err := parseSize(v)
		if err != nil {
			return l, contracts.Errorf(contracts.CodeUsage, "git config %s=%q: %v", k.key, v, err)
		}
		*k.to = n
	}
	return l, nil
}

// parseSize reads a size as git config --type=int does: digits with an
// optional k, m or g suffix (powers of 1024).
func parseSize(v string) (int64, error) {
	s := strings.ToLower(strings.TrimSpace(v))
	mult := int64(1)
	switch {
	case strings.HasSuffix(s, "k"):
		mult, s = 1<<10, strings.TrimSuffix(s, "k")
	case strings.HasSuffix(s, "m"):
		mult, s = 1<<20, strings.TrimSuffix(s, "m")
	case strings.HasSuffix(s, "g"):
		mult, s = 1<<30, strings.TrimSuffix(s, "g")
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n <= 0 || n > (1<<62)/mult {
		return 0, fmt.Errorf("not a positive size (bytes, or with k, m or g)")
	}
	return n * mult, nil
}

// checkBounds refuses a session whose captured tree adds a file over the
// per-file bound, or files over the total bound. Added means a path whose
// blob differs from the base's there (new, or changed: counted at its new
// size); the base's own files, unchanged, never count. Sizes are those of
// the blobs git staged, read from their headers: a file swapped on disk
// before or after git add is judged as it was staged, and an oversize
// blob stays in the quarantine.
func checkBounds(ctx context.Context, env operations.Env, s *contracts.Session, q *git.Quarantine, changes []git.TreeChange) error {
	var added []git.TreeChange
	for _, c := range changes {
		if c.NewID != c.OldID && isBlobMode(c.NewMode) {
			added = append(added, c)
		}
	}
	if len(added) == 0 {
		return nil
	}
	limits, err := readLimits(ctx, env)
	if err != nil {
		return err
	}
	ids := make([]string, len(added))
	for i, c := range added {
		ids[i] = c.NewID
	}
	sizes, err := q.ObjectSizes(ctx, ids)
	if err != nil {
		return operations.GitError(err)
	}
	var all int64
	for i, c := range added {
		if sizes[i] < 0 {
			return operations.GitError(fmt.Errorf("blob %s of %s is missing", c.NewID, c.Path))
		}
		if sizes[i] > limits.file {
			return tooLarge(s, c.Path, sizes[i], limits.file, maxFileSizeKey, "per file")
		}
		all += sizes[i]
	}
	if all > limits.total {
		return tooLarge(s, "", all, limits.total, maxSizeKey, "in all")
	}
	return nil
}

// isBlobMode reports a tree entry mode that holds a blob (a file or a
// symlink).
func isBlobMode(mode string) bool {
	return mode == "100644" || mode == "100755" || mode == "120000"
}

func tooLarge(s *contracts.Session, path string, size, limit int64, key, per string) error {
	what := "its new and changed files hold " + strconv.FormatInt(size, 10) + " bytes"
	details := map[string]any{"session": s.ID, "bytes": size, "limit": limit, "setting": key, "worktree": s.Worktree}
	if path != "" {
		what = path + " is " + strconv.FormatInt(size, 10) + " bytes"
		details["path"] = path
	}
	return contracts.Errorf(contracts.CodeSessionTooLarge,
		"session %s: %s, over the %d bytes %s a session may add (git config %s); nothing was stored or committed: remove it from %s, or raise the limit",
		s.ID, what, limit, per, key, s.Worktree).WithDetails(details)
}
