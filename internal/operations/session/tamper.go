package session

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/operations"
)

// A session's .git is the agent's to use, but what the tool wrote there
// is all it may hold of the kind that reaches beyond it: git follows
// commondir (and a gitdir file, and worktrees/ records) to another
// repository, an extra alternate lends it foreign objects, and a
// configuration key can name filters, hooks, fsmonitor commands, include
// files or another ref storage. The tool runs no git command with the
// session's .git as repository (see git.ReadHead), so none of that could
// change what it commits; but such an entry means git run in the session
// may have written the home repository, so the session is refused with
// SESSION_TAMPERED, naming the entry, at every finish, update, abort and
// prune, until the user looks.

// sessionConfig is every key prepare writes into a session's
// configuration (git init's on any platform, the sparse checkout's, and
// the home repository as promisor remote), with the values it may have;
// "" accepts the home repository, the only value not known in advance.
var sessionConfig = map[string][]string{
	"core.repositoryformatversion": {"0", "1"},
	"core.filemode":                {"true", "false"},
	"core.bare":                    {"false"},
	"core.logallrefupdates":        {"true"},
	"core.ignorecase":              {"true"},
	"core.precomposeunicode":       {"true"},
	"core.symlinks":                {"false"},
	"extensions.objectformat":      {"sha1", "sha256"},
	"extensions.refstorage":        {"files"},
	"core.sparsecheckout":          {"true"},
	"core.sparsecheckoutcone":      {"false"},
	"remote.home.url":              {""},
	"remote.home.promisor":         {"true"},
}

// foreignGitEntries are the entries of a .git directory by which git
// reaches another repository.
var foreignGitEntries = []string{"commondir", "gitdir", "worktrees", filepath.Join("objects", "info", "http-alternates")}

// checkSessionRepo refuses a session whose .git holds anything of that
// kind that the tool did not write.
func checkSessionRepo(ctx context.Context, env operations.Env, s *contracts.Session) error {
	gitDir := sessionGitDir(s)
	tampered := func(file, what, fix string) error {
		return contracts.Errorf(contracts.CodeSessionTampered,
			"%s of session %s %s, which git-context-tree never writes: git run in the session may have changed another repository through it. Nothing was done; %s",
			file, s.ID, what, fix).WithDetails(map[string]any{"session": s.ID, "worktree": s.Worktree, "file": file})
	}
	for _, name := range foreignGitEntries {
		p := filepath.Join(gitDir, name)
		if _, err := os.Lstat(p); !errors.Is(err, fs.ErrNotExist) {
			return tampered(p, "exists", "check the home repository "+s.Repository.CommonDir+" (its refs and configuration), then remove "+p)
		}
	}
	alternates := filepath.Join(gitDir, "objects", "info", "alternates")
	want := filepath.Join(s.Repository.CommonDir, "objects") + "\n"
	if data, err := os.ReadFile(alternates); err != nil || string(data) != want {
		return tampered(alternates, "does not name exactly "+strings.TrimSpace(want), "write that one line back into it")
	}
	config := filepath.Join(gitDir, "config")
	entries, err := env.Git.ConfigFileEntries(ctx, config)
	if err != nil {
		return tampered(config, "cannot be read as git configuration", "restore it")
	}
	seen := map[string]bool{}
	for _, e := range entries {
		key := strings.ToLower(e[0])
		values, known := sessionConfig[key]
		ok := known && !seen[key]
		if ok && values[0] == "" {
			ok = e[1] == s.Repository.CommonDir
		} else if ok {
			ok = slices.Contains(values, e[1])
		}
		if !ok {
			return tampered(config, "sets "+e[0], "remove it with `git config --file "+config+" --unset-all "+e[0]+"`")
		}
		seen[key] = true
	}
	return nil
}
