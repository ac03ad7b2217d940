package session

import (
	"context"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/git-context-tree/git-context-tree/contracts"
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

// sizedFile is a regular file of the session's work tree.
type sizedFile struct {
	path string // repository-relative, with /
	size int64
}

// checkBounds refuses, before git hashes anything into the home
// repository, a session whose work tree adds a file over the per-file
// bound or files over the total bound. Added means a path the base does
// not hold, or holds at another size (counted at its new size). Ignored
// files are not staged and do not count, except those force stages.
func checkBounds(ctx context.Context, env operations.Env, s *contracts.Session, ignored, force []string) error {
	limits, err := readLimits(ctx, env)
	if err != nil {
		return err
	}
	files, err := workTreeFiles(s.Worktree, ignored, force)
	if err != nil {
		return err
	}
	var all int64
	var big []string
	for _, f := range files {
		all += f.size
		if f.size > limits.file {
			big = append(big, f.path)
		}
	}
	if all <= limits.total && len(big) == 0 {
		return nil // the work tree as a whole is within bounds
	}
	// Only what differs from the base counts: ask the base for the sizes
	// of the paths in question (every path when the total is over).
	var ask []string
	if all <= limits.total {
		ask = big
	}
	base, err := env.Git.BlobSizes(ctx, s.Repository.CommonDir, s.Base, ask)
	if err != nil {
		return operations.GitError(err)
	}
	var added int64
	for _, f := range files {
		if n, ok := base[f.path]; ok && n == f.size {
			continue
		}
		if f.size > limits.file {
			return tooLarge(s, f.path, f.size, limits.file, maxFileSizeKey, "per file")
		}
		added += f.size
	}
	if added > limits.total {
		return tooLarge(s, "", added, limits.total, maxSizeKey, "in all")
	}
	return nil
}

func tooLarge(s *contracts.Session, path string, size, limit int64, key, per string) error {
	what := "its new and changed files hold " + strconv.FormatInt(size, 10) + " bytes"
	details := map[string]any{"session": s.ID, "bytes": size, "limit": limit, "setting": key, "worktree": s.Worktree}
	if path != "" {
		what = path + " is " + strconv.FormatInt(size, 10) + " bytes"
		details["path"] = path
	}
	return contracts.Errorf(contracts.CodeSessionTooLarge,
		"session %s: %s, over the %d bytes %s a session may add (git config %s); nothing was hashed or committed: remove it from %s, or raise the limit",
		s.ID, what, limit, per, key, s.Worktree).WithDetails(details)
}

// workTreeFiles lists the regular files of a session's work tree that git
// add would stage: not under .git, not ignored unless forced. Symlinks are
// stored as their target and never count.
func workTreeFiles(root string, ignored, force []string) ([]sizedFile, error) {
	skip := func(rel string) bool {
		for _, p := range ignored {
			if rel == strings.TrimSuffix(p, "/") || (strings.HasSuffix(p, "/") && strings.HasPrefix(rel, p)) {
				return !slices.ContainsFunc(force, func(f string) bool { return rel == f || strings.HasPrefix(rel, f+"/") })
			}
		}
		return false
	}
	var files []sizedFile
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p == root {
			return nil
		}
		rel := filepath.ToSlash(strings.TrimPrefix(p, root+string(filepath.Separator)))
		if d.IsDir() {
			if d.Name() == ".git" || skip(rel+"/") || skip(rel) {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() || skip(rel) {
			return nil
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		files = append(files, sizedFile{path: rel, size: fi.Size()})
		return nil
	})
	if err != nil {
		return nil, contracts.Errorf(contracts.CodeIO, "cannot read the session worktree %s: %v", root, err)
	}
	return files, nil
}
