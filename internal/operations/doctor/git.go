package doctor

import (
	"context"
	"fmt"
	"strings"

	"github.com/git-context-tree/git-context-tree/internal/adapters/git"
	"github.com/git-context-tree/git-context-tree/internal/operations"
)

// checkGit reports git's version, the commit identity and the URL
// rewrites that change where GitHub sources are fetched from. It reports
// false when git cannot be run at all: nothing that needs it is checked.
func checkGit(ctx context.Context, env operations.Env, r *doctorReport) bool {
	const area = "git"
	minimum := fmt.Sprintf("%d.%d", git.MinVersion[0], git.MinVersion[1])
	version, parsed, err := env.Git.Version(ctx)
	switch {
	case err != nil:
		r.fail(area, "git.version", "cannot run git: "+git.Summary(err), "install git "+minimum+" or later and put it on PATH")
		return false
	default:
		judgeGitVersion(version, parsed, r)
	}

	var missing []string
	identity, err := env.Git.UserConfigValues(ctx, env.Dir, "user.name", "user.email") // one git process for both
	for _, key := range []string{"user.name", "user.email"} {
		if err != nil || strings.TrimSpace(identity[key]) == "" {
			missing = append(missing, key)
		}
	}
	switch len(missing) {
	case 0:
		r.ok(area, "git.identity", "user.name and user.email are set (write sessions can commit)")
	default:
		fix := make([]string, len(missing))
		for i, k := range missing {
			fix[i] = fmt.Sprintf("git config --global %s %q", k, map[string]string{"user.name": "Your Name", "user.email": "you@example.com"}[k])
		}
		r.fail(area, "git.identity", strings.Join(missing, " and ")+" not set: finishing a write session cannot commit", strings.Join(fix, " && "))
	}

	rewrites, err := env.Git.URLRewrites(ctx, env.Dir)
	if err != nil {
		r.warn(area, "git.url-rewrites", "cannot read url.*.insteadOf settings: "+git.Summary(err), "git config --get-regexp '^url\\.'")
		return true
	}
	var github []string
	for _, rw := range rewrites {
		if affectsGitHub(rw.Pattern) {
			github = append(github, fmt.Sprintf("%s → %s (%s)", rw.Pattern, rw.Base, rw.Key))
		}
	}
	if len(github) == 0 {
		r.ok(area, "git.url-rewrites", "no url.*.insteadOf rewrites of https://github.com/")
		return true
	}
	r.ok(area, "git.url-rewrites", "GitHub sources are fetched through rewrites: "+strings.Join(github, "; "))
	return true
}

// affectsGitHub reports whether a rewritten prefix matches some
// https://github.com/<owner>/<repo> URL, the form sources are fetched by.
func affectsGitHub(pattern string) bool {
	const gh = "https://github.com/"
	return strings.HasPrefix(gh, pattern) || strings.HasPrefix(pattern, gh)
}

// judgeGitVersion reports git's version against the oldest the tool
// works with.
func judgeGitVersion(version string, parsed [3]int, r *doctorReport) {
	minimum := fmt.Sprintf("%d.%d", git.MinVersion[0], git.MinVersion[1])
	if !git.VersionAtLeast(parsed, git.MinVersion) {
		r.fail("git", "git.version", "git "+version+" is older than "+minimum+", the oldest this tool works with", "install git "+minimum+" or later")
		return
	}
	r.ok("git", "git.version", "git "+version+" (needs "+minimum+" or later)")
}
