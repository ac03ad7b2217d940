package git

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
)

// InRepo runs git against the repository whose git directory is gitDir (a
// bare cache, or any repository's common dir), isolated from inherited
// repository variables and never discovering a repository from the working
// directory.
func (g *Git) InRepo(ctx context.Context, gitDir string, args ...string) ([]byte, error) {
	return g.Run(ctx, Isolated, gitDir, append([]string{"--git-dir=" + gitDir}, args...)...)
}

// InitBare creates a bare repository at dir.
func (g *Git) InitBare(ctx context.Context, dir string) error {
	_, err := g.Run(ctx, Isolated, "", "init", "--bare", "--quiet", "--", dir)
	return err
}

// ConfigGet reads a single-valued config key of the repository itself
// (--local: no user or system configuration), ok false when unset.
func (g *Git) ConfigGet(ctx context.Context, gitDir, key string) (value string, ok bool, err error) {
	out, err := g.InRepo(ctx, gitDir, "config", "--local", "--get", key)
	if err != nil {
		if ExitCode(err) == 1 {
			return "", false, nil
		}
		return "", false, err
	}
	return strings.TrimSuffix(string(out), "\n"), true, nil
}

// ConfigSet writes a config key of the repository.
func (g *Git) ConfigSet(ctx context.Context, gitDir, key, value string) error {
	_, err := g.InRepo(ctx, gitDir, "config", "--local", key, value)
	return err
}

// ResolveCommit resolves rev to a commit id in gitDir, "" when it does not
// exist.
func (g *Git) ResolveCommit(ctx context.Context, gitDir, rev string) (string, error) {
	out, err := g.InRepo(ctx, gitDir, "rev-parse", "-q", "--verify", "--end-of-options", rev+"^{commit}")
	if err != nil {
		if ExitCode(err) == 1 {
			return "", nil
		}
		return "", err
	}
	return strings.TrimSuffix(string(out), "\n"), nil
}

// TreeEntry is one `git ls-tree` entry.
type TreeEntry struct {
	Mode string
	Type string
	ID   string
	Path string
}

// LsTree lists the entries of commit at the given paths (recursively with
// recurse), parsed from -z output.
func (g *Git) LsTree(ctx context.Context, gitDir, commit string, recurse bool, paths ...string) ([]TreeEntry, error) {
	return g.lsTree(ctx, gitDir, nil, commit, recurse, paths...)
}

func (g *Git) lsTree(ctx context.Context, gitDir string, q *Quarantine, commit string, recurse bool, paths ...string) ([]TreeEntry, error) {
	args := []string{"ls-tree", "-z", "--full-tree"}
	if recurse {
		args = append(args, "-r", "-t")
	}
	args = append(args, commit, "--")
	for _, p := range paths {
		args = append(args, ":(literal)"+p)
	}
	out, err := g.inRepoWith(ctx, gitDir, q, nil, args...)
	if err != nil {
		return nil, err
	}
	var entries []TreeEntry
	for _, rec := range bytes.Split(out, []byte{0}) {
		meta, path, ok := bytes.Cut(rec, []byte{'\t'})
		if !ok {
			continue
		}
		f := strings.Fields(string(meta))
		if len(f) != 3 {
			continue
		}
		entries = append(entries, TreeEntry{Mode: f[0], Type: f[1], ID: f[2], Path: string(path)})
	}
	return entries, nil
}

// LocalConfig reads every entry of the repository's own configuration
// file (no user, system or command-line configuration), in file order.
func (g *Git) LocalConfig(ctx context.Context, gitDir string) ([][2]string, error) {
	return configEntries(g.InRepo(ctx, gitDir, "config", "--local", "--list", "-z"))
}

// configEntries parses `git config --list -z`: key, newline, value, NUL.
func configEntries(out []byte, err error) ([][2]string, error) {
	if err != nil {
		return nil, err
	}
	var entries [][2]string
	for _, rec := range splitNUL(out) {
		key, value, _ := strings.Cut(rec, "\n")
		entries = append(entries, [2]string{key, value})
	}
	return entries, nil
}

// ConfigFileEntries reads every entry of one configuration file as data,
// in file order: includes are not followed (an include.path is listed as
// an entry), and no repository's configuration takes part.
func (g *Git) ConfigFileEntries(ctx context.Context, file string) ([][2]string, error) {
	return configEntries(g.Run(ctx, Isolated, string(filepath.Separator), "config", "--file", file, "--no-includes", "--list", "-z"))
}

// SetLocalConfig sets key in the local configuration of the repository
// at dir (the user's own: scope Invoking from a hook's command).
func (g *Git) SetLocalConfig(ctx context.Context, scope Scope, dir, key, value string) error {
	_, err := g.Run(ctx, scope, dir, "config", "--local", key, value)
	return err
}

// UnsetLocalConfig removes key from that configuration; a key that is
// not set is no error.
func (g *Git) UnsetLocalConfig(ctx context.Context, scope Scope, dir, key string) error {
	_, err := g.Run(ctx, scope, dir, "config", "--local", "--unset-all", key)
	if ExitCode(err) == 5 {
		return nil
	}
	return err
}
