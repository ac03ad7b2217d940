package sources

import (
	"fmt"
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
	// SubtreeSel is a git source's repository name and subtree
	// (handbook/teams/platform), "" for "." or a directory source.
	SubtreeSel string
	// Dir is a directory source's absolute path: real, except that a
	// symlink inside the project (or the root itself being one) is kept as
	// declared and makes OpenDirectoryRoot refuse it; lexical where the
	// directory does not exist.
	Dir string
}

// Ref is the connection as results report it.
func (c Connection) Ref() contracts.ConnectionRef {
	return contracts.ConnectionRef{Selector: c.Short, Exact: c.Exact, SubtreeSelector: c.SubtreeSel, Source: c.Source}
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

// directoryIdentity prefixes a directory source's resolved path (S6).
const directoryIdentity = "directory:"

// NewConnection derives a source's identity and selectors. projectRoot
// anchors relative directory paths.
func NewConnection(projectRoot string, src contracts.Source) Connection {
	c := Connection{Source: src}
	if src.Kind == contracts.SourceDirectory {
		// Dir keeps a symlink inside the project as declared, so that
		// opening it is refused (declared.go); the identity and selectors
		// are the resolved path (S6) all the same.
		c.Dir = declaredDir(projectRoot, src.Path)
		c.Identity = directoryIdentity + tree.RealPath(c.Dir)
	} else {
		c.Identity = gitIdentity(src)
	}
	c.Short, c.Exact, c.SubtreeSel = selectors(c.Identity, src)
	return c
}

func gitIdentity(src contracts.Source) string {
	return "git:" + strings.ToLower(src.Repository) + "\x00" + src.Path + "\x00" + src.Ref
}

// selectors generates a source's short, exact and subtree selectors from
// its identity: a directory's resolved path, or a git source's repository,
// branch and subtree. The subtree selector (repository name, "/", subtree)
// tells apart subtrees of one repository, the common layout, without the
// long exact selector; for "." it would be the short selector, so it is "".
func selectors(identity string, src contracts.Source) (short, exact, subtree string) {
	if src.Kind == contracts.SourceDirectory {
		real := strings.TrimPrefix(identity, directoryIdentity)
		return filepath.Base(real), real, ""
	}
	repo := strings.ToLower(src.Repository)
	_, name, _ := strings.Cut(repo, "/")
	if src.Path != "." {
		subtree = name + "/" + src.Path
	}
	return name, GitSelector(repo, src.Ref, src.Path), subtree
}

// PinnedRef is the ConnectionRef of a source that a session or schedule
// record pinned by identity, with selectors generated as NewConnection
// made them: records store the identity and source, never selectors (S6).
// The directory's resolved path comes from the identity, not the disk, so
// the selectors are the ones the record was made with. ok is false when
// the identity is not that source's (a damaged record).
func PinnedRef(identity string, src contracts.Source) (ref contracts.ConnectionRef, ok bool) {
	switch src.Kind {
	case contracts.SourceDirectory:
		real, found := strings.CutPrefix(identity, directoryIdentity)
		ok = found && filepath.IsAbs(real) && filepath.Clean(real) == real
	case contracts.SourceGit:
		ok = identity == gitIdentity(src)
	}
	if !ok {
		return contracts.ConnectionRef{}, false
	}
	short, exact, subtree := selectors(identity, src)
	return contracts.ConnectionRef{Selector: short, Exact: exact, SubtreeSelector: subtree, Source: src}, true
}

// GitSelector is a git source's exact selector:
// https://github.com/<owner>/<repo>/tree/<branch>[/<segment>...], the branch
// and each subtree segment URL-encoded on their own (encodeComponent); no
// suffix for ".".
func GitSelector(repository, branch, subtree string) string {
	var b strings.Builder
	b.WriteString("https://github.com/")
	b.WriteString(strings.ToLower(repository))
	b.WriteString("/tree/")
	b.WriteString(encodeComponent(branch))
	if subtree != "." {
		for _, seg := range strings.Split(subtree, "/") {
			b.WriteByte('/')
			b.WriteString(encodeComponent(seg))
		}
	}
	return b.String()
}

// encodeComponent URL-encodes one component as JavaScript's
// encodeURIComponent does, the encoding of the specification's reference
// selectors: every byte but ASCII letters, digits and -_.!~*'() becomes
// %XX (uppercase hex). url.PathEscape would leave $&+,:;=@ as they are,
// so a branch "fix+1" would get another selector than the reference's.
func encodeComponent(s string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("-_.!~*'()", c) >= 0 {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(hex[c>>4])
		b.WriteByte(hex[c&15])
	}
	return b.String()
}
