package sources

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"
)

// CheckRepository validates a GitHub repository identity "owner/repo" as
// given by a user: GitHub's character rules, no URL, no credentials, no
// ".git" suffix. It returns why it is invalid, or "".
func CheckRepository(id string) string {
	if strings.Contains(id, "://") || strings.Contains(id, "@") || strings.HasPrefix(id, "git:") {
		return "must be a repository identity owner/repo, not a URL (credentials never belong in configuration)"
	}
	owner, repo, ok := strings.Cut(id, "/")
	if !ok || strings.Contains(repo, "/") {
		return fmt.Sprintf("must be owner/repo, not %q", id)
	}
	if why := checkOwner(owner); why != "" {
		return why
	}
	return checkRepoName(repo)
}

func checkOwner(o string) string {
	if o == "" || len(o) > 39 {
		return "owner must be 1 to 39 characters"
	}
	if strings.HasPrefix(o, "-") || strings.HasSuffix(o, "-") {
		return "owner must not begin or end with a hyphen"
	}
	for _, c := range o {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-') {
			return fmt.Sprintf("owner may contain only letters, digits and hyphens, not %q", c)
		}
	}
	return ""
}

func checkRepoName(r string) string {
	if r == "" || len(r) > 100 {
		return "repository name must be 1 to 100 characters"
	}
	if r == "." || r == ".." {
		return fmt.Sprintf("repository name %q is reserved", r)
	}
	if strings.HasSuffix(strings.ToLower(r), ".git") {
		return "repository name must not end with .git; give the identity owner/repo"
	}
	for _, c := range r {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.') {
			return fmt.Sprintf("repository name may contain only letters, digits, '-', '_' and '.', not %q", c)
		}
	}
	return ""
}

// CheckBranch validates a branch name by git's ref-name rules
// (git-check-ref-format(1), as for `--branch`), without running git.
func CheckBranch(b string) string {
	switch {
	case b == "":
		return "branch must not be empty"
	case b == "@" || b == "HEAD":
		return fmt.Sprintf("%q is not a branch name", b)
	case strings.HasPrefix(b, "-"):
		return "branch must not begin with -"
	case strings.HasPrefix(b, "/") || strings.HasSuffix(b, "/") || strings.Contains(b, "//"):
		return "branch must not begin or end with / or contain //"
	case strings.HasSuffix(b, "."):
		return "branch must not end with ."
	case strings.Contains(b, ".."):
		return "branch must not contain .."
	case strings.Contains(b, "@{"):
		return "branch must not contain @{"
	case strings.HasPrefix(b, "refs/"):
		return "give the branch name, not a full ref"
	}
	for _, c := range b {
		if c < 0x20 || c == 0x7f || strings.ContainsRune(" ~^:?*[\\", c) {
			return fmt.Sprintf("branch must not contain %q", c)
		}
	}
	for _, seg := range strings.Split(b, "/") {
		if strings.HasPrefix(seg, ".") || strings.HasSuffix(seg, ".lock") {
			return "branch components must not begin with . or end with .lock"
		}
	}
	return ""
}

// unwrapPathError drops the *fs.PathError wrapper, whose path the caller
// already names.
func unwrapPathError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
