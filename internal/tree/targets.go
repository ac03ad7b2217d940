package tree

import (
	"net/url"
	"path"
	"strings"
)

// TargetVerdict classifies a link or soft link target.
type TargetVerdict int

const (
	// TargetInside is a local path inside the tree.
	TargetInside TargetVerdict = iota
	// TargetEscapes is a local path that leaves the tree.
	TargetEscapes
	// TargetExternal is a URL other than file:, mailto:, a fragment-only
	// or network-path reference: not a path in the tree at all.
	TargetExternal
)

// ResolveTarget normalizes a link target written in the document at docDir
// (tree-relative directory, "." for the root). A target starting with "/" is
// tree-root-relative; with fromRoot every target is (soft_links). It strips
// "#fragment" and "?query", percent-decodes, treats backslashes as
// separators and cleans the path. Drive letters, leading backslashes and
// file: URLs count as escapes. The returned path is tree-relative ("." is
// the root).
func ResolveTarget(docDir, target string, fromRoot bool) (string, TargetVerdict) {
	if p, ok := resolvePlain(docDir, target, fromRoot); ok {
		return p, TargetInside
	}
	return resolveTarget(docDir, target, fromRoot)
}

// resolvePlain resolves the usual target without cleaning or decoding
// anything: a plain path (isPlainPath), rooted by one "/" or not, maybe
// with one trailing "/" and a "#fragment" or "?query". ok is false for
// anything else.
func resolvePlain(docDir, target string, fromRoot bool) (string, bool) {
	t := target
	if i := strings.IndexAny(t, "?#"); i > 0 {
		t = t[:i]
	}
	rooted := strings.HasPrefix(t, "/")
	if rooted {
		t = t[1:]
	}
	t = strings.TrimSuffix(t, "/")
	if !isPlainPath(t) {
		return "", false
	}
	if rooted || fromRoot || docDir == "." {
		return t, true
	}
	return docDir + "/" + t, true
}

// resolveTarget is ResolveTarget for any target.
func resolveTarget(docDir, target string, fromRoot bool) (string, TargetVerdict) {
	t, v := localPath(target)
	if v != TargetInside {
		return "", v
	}
	rooted := strings.HasPrefix(t, "/")
	t = strings.TrimLeft(t, "/")
	if rooted && hasDriveLetter(t) {
		return "", TargetEscapes // "/C:/x", a file URL path
	}
	if !rooted && !fromRoot {
		t = path.Join(docDir, t)
	}
	p := path.Clean("./" + t)
	if p == ".." || strings.HasPrefix(p, "../") {
		return p, TargetEscapes
	}
	return p, TargetInside
}

// localPath classifies a target and returns its path part, without
// fragment or query, percent-decoded, with "/" separators.
func localPath(target string) (string, TargetVerdict) {
	t := strings.TrimSpace(target)
	switch {
	case t == "" || strings.HasPrefix(t, "#") || strings.HasPrefix(t, "?"):
		return "", TargetExternal
	case hasDriveLetter(t) || strings.HasPrefix(t, `\`) || isFileURL(t):
		return "", TargetEscapes
	case hasScheme(t) || strings.HasPrefix(t, "//"):
		return "", TargetExternal
	}
	if i := strings.IndexAny(t, "?#"); i >= 0 {
		t = t[:i]
	}
	if dec, err := url.PathUnescape(t); err == nil {
		t = dec
	}
	if hasDriveLetter(t) || strings.HasPrefix(t, `\`) {
		return "", TargetEscapes
	}
	return strings.ReplaceAll(t, `\`, "/"), TargetInside
}

// hasScheme reports a URL scheme of two or more characters ("https:",
// "mailto:"); a single letter is a drive letter, not a scheme.
func hasScheme(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ':':
			return i >= 2
		case isAlpha(c):
		case i > 0 && (c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.'):
		default:
			return false
		}
	}
	return false
}

// isFileURL reports a file: URL (any case, any form: "file:///x",
// "file://host/x", "file:x"). It names a location on some machine, which
// is never a path in the tree: whether it happens to point into the
// tree's directory depends on where the tree is checked out, and a
// verdict must depend on the tree's content alone (docs/decisions.md).
func isFileURL(t string) bool {
	return len(t) >= 5 && strings.EqualFold(t[:5], "file:")
}

// hasDriveLetter reports a Windows drive prefix: absolute ("C:/x", "C:\\x")
// or drive-relative ("C:x"), both outside the tree.
func hasDriveLetter(s string) bool {
	return len(s) >= 2 && isAlpha(s[0]) && s[1] == ':'
}

func isAlpha(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// isPlainPath reports a target ResolveTarget would return unchanged (with
// docDir joined in front): a relative path of printable ASCII without
// spaces, "%", "?", "#", "\\" or ":", no empty, "." or ".." segment and
// no trailing slash.
func isPlainPath(t string) bool {
	if t == "" {
		return false
	}
	segStart := 0
	for i := 0; i <= len(t); i++ {
		if i < len(t) {
			c := t[i]
			if c <= ' ' || c >= 0x7f || c == '%' || c == '?' || c == '#' || c == '\\' || c == ':' {
				return false
			}
			if c != '/' {
				continue
			}
		}
		switch t[segStart:i] {
		case "", ".", "..":
			return false
		}
		segStart = i + 1
	}
	return true
}
