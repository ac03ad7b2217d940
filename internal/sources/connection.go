package sources

import (
	"fmt"
	"net/url"
	"path/filepath"
	"strings"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/tree"
)

// Connection is a declared source with its logical identity (S6) and its
// generated selectors. The identity is independent of any revision.
type Connection struct {
	Index    int // position in the configuration's trees
	Source   contracts.Source
	Identity string
	Short    string
	Exact    string
	// Dir is a directory source's absolute path: real, except that a
	// symlink inside the project (or the root itself being one) is kept as
	// declared and makes OpenDirectoryRoot refuse it; lexical where the
	// directory does not exist.
	Dir string
}

// Ref is the connection as results report it.
func (c Connection) Ref() contracts.ConnectionRef {
	return contracts.ConnectionRef{Selector: c.Short, Exact: c.Exact, Source: c.Source}
}

// Connections derives every declared source's identity and selectors,
// rejecting duplicate identities (S5).
func (p *Project) Connections() ([]Connection, error) {
	var conns []Connection
	seen := map[string]int{}
	for i, src := range p.Sources() {
		c := NewConnection(p.Root, src)
		c.Index = i
		if j, dup := seen[c.Identity]; dup {
			return nil, configError(p.ConfigFile, fmt.Sprintf("/trees/%d", i), fmt.Sprintf("declares the same source as /trees/%d (%s)", j, c.Exact))
		}
		seen[c.Identity] = i
		conns = append(conns, c)
	}
	return conns, nil
}

// NewConnection derives a source's identity and selectors. projectRoot
// anchors relative directory paths.
func NewConnection(projectRoot string, src contracts.Source) Connection {
	c := Connection{Source: src}
	if src.Kind == contracts.SourceDirectory {
		// Dir keeps a symlink inside the project as declared, so that
		// opening it is refused (declared.go); the identity and selectors
		// are the resolved path (S6) all the same.
		c.Dir = declaredDir(projectRoot, src.Path)
		real := tree.RealPath(c.Dir)
		c.Identity = "directory:" + real
		c.Short = filepath.Base(real)
		c.Exact = real
		return c
	}
	repo := strings.ToLower(src.Repository)
	c.Identity = "git:" + repo + "\x00" + src.Path + "\x00" + src.Ref
	_, name, _ := strings.Cut(repo, "/")
	c.Short = name
	c.Exact = GitSelector(repo, src.Ref, src.Path)
	return c
}

// GitSelector is a git source's exact selector:
// https://github.com/<owner>/<repo>/tree/<branch>[/<segment>...], the branch
// and each subtree segment URL-encoded on their own; no suffix for ".".
func GitSelector(repository, branch, subtree string) string {
	var b strings.Builder
	b.WriteString("https://github.com/")
	b.WriteString(strings.ToLower(repository))
	b.WriteString("/tree/")
	b.WriteString(url.PathEscape(branch))
	if subtree != "." {
		for _, seg := range strings.Split(subtree, "/") {
			b.WriteByte('/')
			b.WriteString(url.PathEscape(seg))
		}
	}
	return b.String()
}
