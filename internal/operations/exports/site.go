package exports

import (
	"context"
	"path/filepath"
	"time"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/export"
	"github.com/git-context-tree/git-context-tree/internal/operations"
	"github.com/git-context-tree/git-context-tree/internal/tree"
)

// SiteRequest is `export site`.
type SiteRequest struct {
	Selector string
	OutDir   string
	// RepoURL is the project repository's web address, for links to
	// cited code ("": its origin when that is a GitHub repository).
	RepoURL string
}

// Site writes the static site of one tree to a directory, replacing
// a previous export there as a whole.
func Site(ctx context.Context, env operations.Env, req SiteRequest) (*contracts.ExportSiteResult, error) {
	if req.OutDir == "" {
		return nil, contracts.Errorf(contracts.CodeUsage, "export site needs an output directory (-o <dir>)")
	}
	if err := checkRepoURL(req.RepoURL); err != nil {
		return nil, err
	}
	_, conns, err := operations.OpenProject(ctx, env)
	if err != nil {
		return nil, err
	}
	t, err := openExportTarget(ctx, env, conns, req.Selector, "export site <selector> --output <dir>")
	if err != nil {
		return nil, err
	}
	out := realOutputPath(env.Abs(req.OutDir))
	if err := checkSiteOutside(out, t.Root); err != nil {
		return nil, err
	}
	if err := checkSiteOutput(out); err != nil {
		return nil, err
	}
	site, res, err := buildSite(ctx, env, t, req.RepoURL)
	if err != nil {
		return nil, err
	}
	replaced, bytes, err := writeSite(out, site, holdImages(ctx, env, t))
	if err != nil {
		return nil, err
	}
	res.OutputDir, res.Replaced, res.Bytes = out, replaced, bytes
	return res, nil
}

// buildSite reads and renders a tree's site, with the result describing
// it (without the output directory).
func buildSite(ctx context.Context, env operations.Env, t operations.TreeTarget, repoURL string) (*export.Site, *contracts.ExportSiteResult, error) {
	et, err := readExportTree(ctx, env, t, nil)
	if err != nil {
		return nil, nil, err
	}
	if err := attachSources(ctx, env, t, et.docs, repoURL); err != nil {
		return nil, nil, err
	}
	ref, err := t.Ref(ctx, env)
	if err != nil {
		return nil, nil, err
	}
	now, err := exportTime(env.Vars)
	if err != nil {
		return nil, nil, err
	}
	opts := export.SiteOptions{Title: et.title, Head: ref.Head, GeneratedAt: now.Format(time.RFC3339), Root: t.Root}
	if sel := t.Selector(); !filepath.IsAbs(sel) {
		// A git source's URL; a directory's exact selector is an
		// absolute path, which no published file carries.
		opts.Selector = sel
	}
	if ref.Dirty != nil {
		opts.Dirty = *ref.Dirty
	}
	site, err := export.RenderSite(et.docs, opts)
	if err != nil {
		return nil, nil, err
	}
	res := &contracts.ExportSiteResult{
		SchemaVersion: contracts.CLIVersion, Tree: ref, GeneratedAt: opts.GeneratedAt,
		Files: len(site.Paths), Pages: []contracts.SitePage{}, Skipped: et.unreadable,
	}
	for _, p := range site.Pages {
		res.Pages = append(res.Pages, contracts.SitePage{
			Path: p.Path, Page: p.Page, Title: p.Title, Class: p.Class, SoftLinks: p.SoftLinks, Backlinks: p.Backlinks,
		})
	}
	return site, res, nil
}

// realOutputPath resolves the symlinks above a path that may not exist
// yet; the last component is kept as given, so a symlink there is seen
// (and refused) rather than followed.
func realOutputPath(p string) string {
	p = filepath.Clean(p)
	return filepath.Join(tree.RealPath(filepath.Dir(p)), filepath.Base(p))
}

// checkSiteOutside refuses an output directory that is the tree, lies in
// it (the site would become part of the tree) or holds it (replacing the
// directory would remove the tree).
func checkSiteOutside(out, root string) error {
	if _, ok := tree.Inside(root, out); ok {
		return contracts.Errorf(contracts.CodeUsage, "the site cannot be written to %s: it lies in the tree it shows (%s)", out, root)
	}
	if _, ok := tree.Inside(out, root); ok {
		return contracts.Errorf(contracts.CodeUsage, "the site cannot be written to %s: it holds the tree it shows (%s), and an export replaces the whole directory", out, root)
	}
	return nil
}
