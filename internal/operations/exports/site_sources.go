package exports

import (
	"context"
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"sync"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/adapters/git"
	"github.com/git-context-tree/git-context-tree/internal/export"
	"github.com/git-context-tree/git-context-tree/internal/operations"
	"github.com/git-context-tree/git-context-tree/internal/operations/evidence"
	"github.com/git-context-tree/git-context-tree/internal/sources"
)

// attachSources gives each document of a site its sources: every entry
// with its freshness (as drift computes it) and a link to the cited lines
// at the recorded commit (else the head) in the repository's web home:
// repoURL for the project's repository, else its origin when that is a
// GitHub repository; a declared git source's GitHub repository for
// entries naming it.
func attachSources(ctx context.Context, env operations.Env, t operations.TreeTarget, docs []export.Document, repoURL string) error {
	fresh, err := evidence.Freshness(ctx, env, t)
	if err != nil || len(fresh) == 0 {
		return err
	}
	homes := webHomes{ctx: ctx, env: env, project: repoURL, known: map[string]string{}}
	for i := range docs {
		for _, c := range fresh[docs[i].Path] {
			s := export.Source{Path: c.Path, Lines: c.Lines, Repository: c.Repository, Commit: c.Commit, Freshness: c.Freshness, Changes: len(c.Commits)}
			at := c.Commit
			if at == "" {
				at = c.Head
			}
			if home := homes.of(c.Repository); home != "" && at != "" {
				s.URL = blobURL(home, at, c.Path, c.Lines)
			}
			docs[i].Sources = append(docs[i].Sources, s)
		}
	}
	return nil
}

// webHomes finds and remembers repositories' web URLs.
type webHomes struct {
	ctx     context.Context
	env     operations.Env
	project string
	known   map[string]string
}

func (h *webHomes) of(repository string) string {
	if home, ok := h.known[repository]; ok {
		return home
	}
	home := ""
	if repository == "" {
		home = h.projectHome()
	} else if _, conns, err := operations.OpenProject(h.ctx, h.env); err == nil {
		if c, err := sources.Select(conns, repository, h.env.Dir); err == nil && c.Source.Kind == contracts.SourceGit {
			home = "https://github.com/" + strings.ToLower(c.Source.Repository)
		}
	}
	h.known[repository] = home
	return home
}

// projectHome is --repo-url, else the project's origin when it names a
// GitHub repository.
func (h *webHomes) projectHome() string {
	if h.project != "" {
		return strings.TrimSuffix(h.project, "/")
	}
	p, _, err := operations.OpenProject(h.ctx, h.env)
	if err != nil || p.Checkout == "" {
		return ""
	}
	dir, err := h.env.Git.CommonDir(h.ctx, git.Isolated, p.Checkout)
	if err != nil {
		return ""
	}
	origin, ok, err := h.env.Git.ConfigGet(h.ctx, dir, "remote.origin.url")
	if err != nil || !ok {
		return ""
	}
	return githubHome(origin)
}

var githubRemote = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(?:https://(?:[^@/]+@)?github\.com/|ssh://git@github\.com/|git@github\.com:)([A-Za-z0-9_.-]+)/([A-Za-z0-9_.-]+?)(?:\.git)?/?$`)
})

// githubHome is the web URL of a GitHub remote URL, "" for any other
// (credentials in the URL are never carried over).
func githubHome(remote string) string {
	m := githubRemote().FindStringSubmatch(strings.TrimSpace(remote))
	if m == nil {
		return ""
	}
	return "https://github.com/" + m[1] + "/" + m[2]
}

// blobURL links a file's lines at a commit, GitHub's way.
func blobURL(home, commit, path, lines string) string {
	u := fmt.Sprintf("%s/blob/%s/%s", home, url.PathEscape(commit), (&url.URL{Path: path}).EscapedPath())
	if lines != "" {
		a, b, _ := strings.Cut(lines, "-")
		u += "#L" + a
		if b != "" {
			u += "-L" + b
		}
	}
	return u
}

// checkRepoURL accepts an http(s) web URL without credentials.
func checkRepoURL(raw string) error {
	if raw == "" {
		return nil
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || u.User != nil || u.RawQuery != "" || u.Fragment != "" {
		return contracts.Errorf(contracts.CodeUsage, "--repo-url %q is not the repository's web address (https://host/owner/repo, no credentials)", raw)
	}
	return nil
}
