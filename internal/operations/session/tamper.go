package session

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
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
	tampered := func(file, what, why, fix string) error {
		return contracts.Errorf(contracts.CodeSessionTampered,
			"%s of session %s %s, which git-context-tree never writes: %s. Nothing was done; %s",
			file, s.ID, what, why, fix).WithDetails(map[string]any{"session": s.ID, "worktree": s.Worktree, "file": file})
	}
	const reached = "git run in the session may have changed another repository through it"
	for _, name := range foreignGitEntries {
		p := filepath.Join(gitDir, name)
		if _, err := os.Lstat(p); !errors.Is(err, fs.ErrNotExist) {
			return tampered(p, "exists", reached, "check the home repository "+s.Repository.CommonDir+" (its refs and configuration), then remove "+p)
		}
	}
	if link, err := firstSymlink(gitDir); err != nil {
		return tampered(gitDir, "cannot be read", err.Error(), "check it")
	} else if link != "" {
		return tampered(link, "is a symlink", "git run in the session writes through it wherever it points (another repository's refs, objects or configuration)",
			"check the home repository "+s.Repository.CommonDir+" (its refs, objects and configuration), then remove "+link)
	}
	alternates := filepath.Join(gitDir, "objects", "info", "alternates")
	want := filepath.Join(s.Repository.CommonDir, "objects") + "\n"
	if data, err := os.ReadFile(alternates); err != nil || string(data) != want {
		return tampered(alternates, "does not name exactly "+strings.TrimSpace(want), "it lends the session objects from elsewhere", "write that one line back into it")
	}
	config := filepath.Join(gitDir, "config")
	entries, err := env.Git.ConfigFileEntries(ctx, config)
	if err != nil {
		return tampered(config, "cannot be read as git configuration", "it may hold anything", "restore it")
	}
	if err := checkHomeConfig(ctx, env, s); err != nil {
		return err
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
			return tampered(config, "sets "+e[0], "a session's configuration may hold only what prepare wrote (it could name programs, includes or other repositories; an identity or other setting belongs in your global configuration)",
				"remove it with `git config --file "+config+" --unset-all "+e[0]+"`")
		}
		seen[key] = true
	}
	return nil
}

// firstSymlink is the first symlink at or below dir ("" when there is
// none): the session's git directory holds none of its own making.
func firstSymlink(dir string) (string, error) {
	found := ""
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type()&fs.ModeSymlink != 0 {
			found = p
			return filepath.SkipAll
		}
		return nil
	})
	return found, err
}

// The home repository's own configuration applies to every git command
// the tool runs there for the session (the capture's `git add`, the
// commit), so a filter, a signing program or an include written into it
// by git run through a session's commondir would run as the user, even
// after the agent removed the commondir again. The tool cannot tell the
// user's own changes from such a write, so a digest of the configuration
// is recorded at prepare (sessions/<id>.homeconfig) and any change is
// SESSION_TAMPERED, with how to accept it when the change is the user's.
// Sections that ordinary branch and remote work rewrites, and that no
// git command of the tool for a session acts on, are left out of it.
var homeConfigIgnored = []string{"branch.", "remote.", "pull.", "push.", "fetch.", "gc.", "maintenance.", "advice.", "color.", "status."}

// redirects reports a key of an ignored section that names a program or
// where the user's own fetches and pushes go: a remote's URLs, its
// upload-pack, receive-pack, proxy or helper (remote.<name>.vcs), or a
// branch's remote given as a path or URL instead of a remote's name.
// Ordinary remote and branch work leaves them alone, and git run through
// a session's commondir could otherwise point the user's next fetch at a
// program or their next push at another repository unseen.
func redirects(key, value string) bool {
	section, rest, _ := strings.Cut(key, ".")
	i := strings.LastIndexByte(rest, '.')
	if i < 0 {
		return false
	}
	name := rest[i+1:]
	switch section {
	case "remote":
		return slices.Contains([]string{"url", "pushurl", "uploadpack", "receivepack", "proxy", "vcs"}, name)
	case "branch":
		return (name == "remote" || name == "pushremote") && strings.ContainsAny(value, "/:\\")
	}
	return false
}

// homeConfigRecord is where a session's digest of its home repository's
// configuration file is kept.
func homeConfigRecord(env operations.Env, s *contracts.Session) (string, error) {
	dir, err := env.Home.Dir("sessions")
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, s.ID+".homeconfig"), nil
}

// homeConfigVersion marks a record whose digest also covers the entries
// of ignored sections that redirect (redirects); a record without it was
// made before and is checked as it was made.
const homeConfigVersion = "v2 "

// homeConfigDigest is the digest of the home repository's configuration
// as it is now, but for homeConfigIgnored ("absent" without a file); with
// redirecting, the entries of those sections that redirect count too, and
// the digest carries homeConfigVersion.
func homeConfigDigest(ctx context.Context, env operations.Env, s *contracts.Session, redirecting bool) (string, error) {
	prefix := ""
	if redirecting {
		prefix = homeConfigVersion
	}
	file := filepath.Join(s.Repository.CommonDir, "config")
	if _, err := os.Lstat(file); errors.Is(err, fs.ErrNotExist) {
		return prefix + "absent", nil
	}
	entries, err := env.Git.ConfigFileEntries(ctx, file)
	if err != nil {
		return "", err
	}
	h := sha256.New()
	for _, e := range entries {
		key := strings.ToLower(e[0])
		ignored := slices.ContainsFunc(homeConfigIgnored, func(p string) bool { return strings.HasPrefix(key, p) })
		if !ignored || redirecting && redirects(key, e[1]) {
			fmt.Fprintf(h, "%s\n%s\x00", key, e[1])
		}
	}
	return prefix + hex.EncodeToString(h.Sum(nil)), nil
}

// homeConfigBytes is the digest of the configuration file's bytes ("" when
// it cannot be read). git reads the entries, without includes, from these
// bytes alone, so while they are the same so is homeConfigDigest: the
// check needs no git process then.
func homeConfigBytes(s *contracts.Session) string {
	data, err := os.ReadFile(filepath.Join(s.Repository.CommonDir, "config"))
	if err != nil {
		return ""
	}
	sum := sha256.Sum256(data)
	return "bytes " + hex.EncodeToString(sum[:])
}

// writeHomeConfigRecord keeps the entries' digest (what is checked) and
// the bytes' digest it was taken from (the shortcut), one per line.
func writeHomeConfigRecord(env operations.Env, file, digest, bytes string) error {
	return env.Home.WriteFile(filepath.Dir(file), filepath.Base(file), []byte(digest+"\n"+bytes+"\n"))
}

// recordHomeConfig remembers the home configuration a session starts with.
func recordHomeConfig(ctx context.Context, env operations.Env, s *contracts.Session) error {
	file, err := homeConfigRecord(env, s)
	if err != nil {
		return err
	}
	bytes := homeConfigBytes(s)
	digest, err := homeConfigDigest(ctx, env, s, true)
	if err != nil {
		return contracts.Errorf(contracts.CodeIO, "cannot read the configuration of %s: %v", s.Repository.CommonDir, err)
	}
	return writeHomeConfigRecord(env, file, digest, bytes)
}

// checkHomeConfig refuses a session whose home repository's configuration
// changed since prepare. Sessions opened before this record existed have
// none and are not checked.
func checkHomeConfig(ctx context.Context, env operations.Env, s *contracts.Session) error {
	file, err := homeConfigRecord(env, s)
	if err != nil {
		return err
	}
	record, err := env.Home.ReadFile(file)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	want, recordedBytes, _ := strings.Cut(strings.TrimSpace(string(record)), "\n")
	bytes := homeConfigBytes(s)
	if bytes != "" && bytes == recordedBytes {
		return nil
	}
	got, err := homeConfigDigest(ctx, env, s, strings.HasPrefix(want, homeConfigVersion))
	if err == nil && got == want {
		// Only ignored sections changed (or the record predates the
		// bytes' digest): keep the shortcut for the next check. A record
		// that cannot be rewritten only costs the next check a git run.
		_ = writeHomeConfigRecord(env, file, want, bytes)
		return nil
	}
	config := filepath.Join(s.Repository.CommonDir, "config")
	return contracts.Errorf(contracts.CodeSessionTampered,
		"the configuration of the home repository (%s) changed since session %s was opened: git run in the session may have written it, and the tool runs git there. Nothing was done; look at `git config --file %s --list`, and if every change is yours, accept it with `rm %s`",
		config, s.ID, config, file).WithDetails(map[string]any{"session": s.ID, "worktree": s.Worktree, "file": config})
}
