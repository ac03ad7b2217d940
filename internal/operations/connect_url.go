package operations

import (
	"net/url"
	"strings"

	"github.com/git-context-tree/git-context-tree/contracts"
)

// githubURLPrefixes are how a GitHub address without its scheme begins
// (compared without case).
var githubURLPrefixes = []string{"github.com/", "www.github.com/"}

// fromGitHubURL turns a GitHub address given to connect into the request
// it stands for: https://github.com/<owner>/<repo>/tree/<branch>[/<subtree>]
// (an exact selector as list prints it: the branch one URL-encoded segment,
// feature%2Fx, each subtree segment encoded on its own) gives the
// repository, --ref and --path; https://github.com/<owner>/<repo>[.git]
// the repository alone, --ref then required. --ref and --path given too
// must agree with the address. A target without "://" (and not starting
// github.com/) is the request unchanged: a directory, or owner/repo. Any
// other address (another host or scheme, a user or password, a query or
// fragment, another page of the repository such as blob) is
// SOURCE_INVALID: repository inputs are identities, never credentials.
func fromGitHubURL(req ConnectRequest) (ConnectRequest, error) {
	target := req.Target
	for _, p := range githubURLPrefixes {
		if len(target) >= len(p) && strings.EqualFold(target[:len(p)], p) {
			target = "https://" + target
		}
	}
	if !strings.Contains(target, "://") {
		return req, nil
	}
	shown := redactedInput(req.Target)
	invalid := func(why string) (ConnectRequest, error) {
		return req, contracts.Errorf(contracts.CodeSourceInvalid, "cannot connect %s: %s", shown, why)
	}
	u, err := url.Parse(target)
	if err != nil || u.User != nil || u.RawQuery != "" || u.Fragment != "" || u.Opaque != "" {
		return invalid("give the address of a repository or of a folder in it, without credentials, query or fragment")
	}
	if host := strings.ToLower(u.Host); u.Scheme != "https" || host != "github.com" && host != "www.github.com" {
		return invalid("a git source is a GitHub repository (https://github.com/<owner>/<repo>, or owner/repo with --ref); host git's url.<base>.insteadOf reaches other servers")
	}
	segs := strings.Split(strings.TrimSuffix(u.EscapedPath(), "/"), "/")[1:]
	for i, s := range segs {
		if segs[i], err = url.PathUnescape(s); err != nil || segs[i] == "" {
			return invalid("its path is not a sequence of URL-encoded names")
		}
	}
	if len(segs) < 2 {
		return invalid("it names no repository (https://github.com/<owner>/<repo>)")
	}
	out := req
	out.Target = segs[0] + "/" + strings.TrimSuffix(segs[1], ".git")
	var ref, path string
	switch {
	case len(segs) == 2:
	case segs[2] == "tree" && len(segs) >= 4:
		ref, path = segs[3], strings.Join(segs[4:], "/")
		if path == "" {
			path = "."
		}
	default:
		return invalid("connect takes https://github.com/<owner>/<repo>/tree/<branch>/<subtree> (as list prints it) or the repository's address with --ref")
	}
	if ref != "" {
		if req.Ref != "" && req.Ref != ref {
			return req, contracts.Errorf(contracts.CodeUsage, "--ref %s disagrees with the branch %s of %s", req.Ref, ref, shown)
		}
		if req.Path != "" && strings.Trim(req.Path, "/") != path {
			return req, contracts.Errorf(contracts.CodeUsage, "--path %s disagrees with the subtree %s of %s", req.Path, path, shown)
		}
		out.Ref, out.Path = ref, path
	}
	if out.Ref == "" {
		return req, contracts.Errorf(contracts.CodeUsage,
			"%s names a repository: give its branch with --ref <branch> (and --path <subtree>), or the address of a folder, https://github.com/%s/tree/<branch>/<subtree>", shown, out.Target)
	}
	return out, nil
}
