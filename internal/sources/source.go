package sources

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/git-context-tree/git-context-tree/contracts"
)

var sourceKeys = map[contracts.SourceKind][]string{
	contracts.SourceDirectory: {"kind", "path"},
	contracts.SourceGit:       {"kind", "repository", "path", "ref"},
}

// parseSource validates one entry of trees.
func parseSource(raw json.RawMessage) (contracts.Source, *pointerError) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil || obj == nil {
		return contracts.Source{}, &pointerError{"", "a source must be a JSON object"}
	}
	str := func(key string) (string, *pointerError) {
		v, ok := obj[key]
		if !ok {
			return "", &pointerError{"/" + key, "missing"}
		}
		var s string
		if err := json.Unmarshal(v, &s); err != nil {
			return "", &pointerError{"/" + key, "must be a string"}
		}
		return s, nil
	}
	kind, perr := str("kind")
	if perr != nil {
		return contracts.Source{}, perr
	}
	allowed, ok := sourceKeys[contracts.SourceKind(kind)]
	if !ok {
		return contracts.Source{}, &pointerError{"/kind", fmt.Sprintf("unknown kind %q; a source is \"directory\" or \"git\"", kind)}
	}
	for k := range obj {
		if !slices.Contains(allowed, k) {
			return contracts.Source{}, &pointerError{"/" + escapePointer(k), fmt.Sprintf("unknown key for a %s source (allowed: %s)", kind, strings.Join(allowed, ", "))}
		}
	}
	src := contracts.Source{Kind: contracts.SourceKind(kind)}
	if src.Path, perr = str("path"); perr != nil {
		return src, perr
	}
	if src.Kind == contracts.SourceDirectory {
		if why := CheckDirectoryPath(src.Path); why != "" {
			return src, &pointerError{"/path", why}
		}
		return src, nil
	}
	if src.Repository, perr = str("repository"); perr != nil {
		return src, perr
	}
	if why := CheckRepository(src.Repository); why != "" {
		return src, &pointerError{"/repository", why}
	}
	if why := CheckSubtree(src.Path); why != "" {
		return src, &pointerError{"/path", why}
	}
	if src.Ref, perr = str("ref"); perr != nil {
		if perr.why == "missing" {
			perr.why = "missing; a git source names an explicit branch"
		}
		return src, perr
	}
	if why := CheckBranch(src.Ref); why != "" {
		return src, &pointerError{"/ref", why}
	}
	return src, nil
}

// CheckDirectoryPath accepts a clean absolute path or a canonical relative
// path inside the project ("." is the project root itself). Neither may
// pass through a .git segment (S4): a tree is never read from inside a
// repository's own data.
func CheckDirectoryPath(p string) string {
	if filepath.IsAbs(p) {
		if strings.Contains(p, `\`) {
			return "must not contain backslashes"
		}
		if filepath.Clean(p) != p {
			return fmt.Sprintf("absolute path is not in canonical form (%s)", filepath.Clean(p))
		}
		if p == "/" {
			return ""
		}
		// Clean, so only a .git segment or NUL can be left to refuse.
		for _, seg := range strings.Split(p[1:], "/") {
			if why := checkSegment(seg); why != "" {
				return why
			}
		}
		return ""
	}
	return CheckSubtree(p)
}

// CheckSubtree accepts "." or a canonical relative path: "/"-separated, no
// empty, ".", ".." or ".git" segments, no backslashes, no leading or
// trailing "/". It returns why p is invalid, or "".
func CheckSubtree(p string) string {
	switch {
	case p == ".":
		return ""
	case p == "":
		return "must not be empty (use \".\" for the whole repository or project)"
	case strings.Contains(p, `\`):
		return "must not contain backslashes; use /"
	case strings.HasPrefix(p, "/"):
		return "must be relative, without a leading /"
	case strings.HasSuffix(p, "/"):
		return "must not end with /"
	}
	for _, seg := range strings.Split(p, "/") {
		if why := checkSegment(seg); why != "" {
			return why
		}
	}
	return ""
}

// checkSegment says why one segment of a path is not allowed, or "".
func checkSegment(seg string) string {
	switch {
	case seg == "":
		return "must not contain empty segments (//)"
	case seg == "." || seg == "..":
		return fmt.Sprintf("must be canonical, without %q segments", seg)
	case strings.EqualFold(seg, ".git"):
		return "must not contain a .git segment"
	case strings.ContainsRune(seg, 0):
		return "must not contain NUL"
	}
	return ""
}
