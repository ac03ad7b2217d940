package cli

import (
	"fmt"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/operations/exports"
)

type exportSiteCmd struct {
	Selector string `arg:"" optional:"" name:"selector" help:"The tree: a declared source's selector or a tree directory (default: as read chooses)."`
	Out      string `short:"o" name:"output" required:"" placeholder:"<dir>" help:"Directory to write the site to: new, empty, or a previous site export, which is replaced as a whole."`
	RepoURL  string `name:"repo-url" placeholder:"<url>" help:"The repository's web address (https://github.com/owner/repo), for links to cited code at the recorded commit (default: origin, when it is a GitHub repository)."`
}

func (cmd *exportSiteCmd) Help() string {
	return `A static site of the tree that works from file:// and from any static
host, with no network: one page per document (Markdown rendered; raw HTML
shown as text; links to documents of the tree lead to their pages, other
paths are plain text), a navigation tree, breadcrumbs, each page's soft
links and backlinks (documents whose soft links or Markdown links point
there) with a small map of them, members/ marked, and the commit and dirty
state in the footer. _site/contents.html lists the whole hierarchy with
descriptions, _site/map.html draws domains and soft links, and the search
box searches titles, descriptions, headings and text in the page, and the
code paths pages cite (type src/api.go to find the pages citing it).

A page whose document has sources lists them: path and lines at the
recorded commit, linked to the repository at that commit (--repo-url, else
origin when it is on GitHub; a declared git source's GitHub repository for
entries naming it), each fresh or changed as drift says, and a "Cited code
changed since this page was written" badge under the title when any is.

The site is written beside the output directory and then put in its place
in one step. An output directory that is not empty and holds no previous
export (the marker file .git-context-tree-site) is refused with
SITE_OUTPUT_FOREIGN (exit 3), as is a symlink there. The same commit gives
the same files, apart from the generation time in the footers
(SOURCE_DATE_EPOCH fixes it).`
}

func (cmd *exportSiteCmd) Run(c *Context) error {
	res, err := exports.Site(c, c.Env, exports.SiteRequest{Selector: cmd.Selector, OutDir: cmd.Out, RepoURL: cmd.RepoURL})
	if err != nil {
		return err
	}
	c.warnSkipped(res.Skipped)
	return c.emit(res, func() { c.printExportSite(res) })
}

func (c *Context) printExportSite(r *contracts.ExportSiteResult) {
	verb := "Wrote"
	if r.Replaced {
		verb = "Replaced"
	}
	fmt.Fprintf(c.Stdout, "%s the site at %s: %s, %s; open %s\n", verb, c.display(r.OutputDir),
		countOf(len(r.Pages), "page"), countOf(r.Files, "file"), c.display(r.OutputDir+"/index.html"))
}
