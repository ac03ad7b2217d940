package export

import (
	"errors"
	"fmt"
	"path"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/tree"
)

// SiteAssetsDir holds the site's own files (style, scripts, the search
// index, the map and contents pages). Pages of a tree directory of that
// name would collide with them; RenderSite refuses such a tree.
const SiteAssetsDir = "_site"

// SiteMarker is the file at the root of every exported site: an output
// directory holding it may be replaced by the next export.
const SiteMarker = ".git-context-tree-site"

// SiteOptions is what a site states besides its documents.
type SiteOptions struct {
	Title       string // the root NODE.md's title
	Selector    string // the tree's selector, when it has one
	Head        string // commit, "" outside git
	Dirty       bool
	GeneratedAt string // RFC 3339; the one part that may differ between exports of a commit
	// Root is the tree's directory, where images are read from ("": the
	// site shows no image, only alt texts).
	Root string
}

// SiteFile is one file of the site, with a "/"-separated path relative to
// the site's root.
type SiteFile struct {
	Path string
	Data []byte
}

// Site is a planned site: every document's page, links and backlinks
// are known and its bodies rendered; Write renders and hands over its
// files one by one, so a large site is never held in memory whole.
type Site struct {
	Paths []string   // every file's site path, sorted
	Pages []SitePage // in export order
	g     *siteGraph
}

// SitePage is one document's page.
type SitePage struct {
	Path  string // the document's tree path
	Page  string // the page's site path
	Title string
	Class contracts.Class
	// SoftLinks and Backlinks are the pages' document paths: its resolved
	// soft links, and the documents whose soft links or Markdown links
	// point here.
	SoftLinks, Backlinks []string
}

// node is one document in the site's graph.
type node struct {
	doc      Document
	page     string // site path of its page
	pageEsc  string // page, URL-escaped (for links)
	parent   int    // -1 for the root
	children []int  // in tree order
	softOut  []int
	linksOut []int // Markdown links to other documents
	back     []int // sorted by tree order, unique
	body     renderedBody
}

// siteGraph is every readable document with its hierarchy and links.
type siteGraph struct {
	nodes  []node
	byPath map[string]int // tree path (documents; directories by their NODE.md's directory) → node
	tops   []int          // nodes without a parent: the root, or the top of each part of a tree without one
	opts   SiteOptions
	images *siteImages
}

// RenderSite plans the site of a tree from its documents (tree order).
func RenderSite(docs []Document, o SiteOptions) (*Site, error) {
	g, err := newSiteGraph(ExportOrder(docs), o)
	if err != nil {
		return nil, err
	}
	g.renderBodies()
	g.linkBack()
	site := &Site{g: g}
	for i := range g.nodes {
		site.Paths = append(site.Paths, g.nodes[i].page, MarkdownPath(g.nodes[i].page))
	}
	images := g.images.paths()
	site.Paths = append(site.Paths, images...)
	site.Paths = append(site.Paths, siteAssets...)
	slices.Sort(site.Paths)
	for i := 1; i < len(site.Paths); i++ {
		if site.Paths[i] == site.Paths[i-1] {
			return nil, contracts.Errorf(contracts.CodeUsage, "the site would write %s twice: a document's page collides with another file of the site", site.Paths[i])
		}
	}
	for i := range g.nodes {
		n := &g.nodes[i]
		site.Pages = append(site.Pages, SitePage{
			Path: n.doc.Path, Page: n.page, Title: n.doc.Title, Class: n.doc.Class,
			SoftLinks: g.paths(n.softOut), Backlinks: g.paths(n.back),
		})
	}
	return site, nil
}

// Images are the tree paths of the tree's images the site copies; Write
// emits each at its tree path, read again from the tree.
func (s *Site) Images() []string { return s.g.images.paths() }

// Write renders every file of the site on every core and hands each to
// emit, from several goroutines at once. It stops at the first error.
func (s *Site) Write(emit func(SiteFile) error) error {
	g := s.g
	for _, p := range g.images.paths() {
		data, err := g.images.read(p)
		if err != nil {
			return fmt.Errorf("image %s changed while the site was written: %w", p, err)
		}
		if err := emit(SiteFile{Path: p, Data: data}); err != nil {
			return err
		}
	}
	jobs := len(g.nodes) + len(siteAssets)
	workers := min(runtime.GOMAXPROCS(0), jobs/16+1)
	errs := make([]error, workers)
	var failed atomic.Bool
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < jobs && !failed.Load(); i += workers {
				// The assets first: the search index is the largest job.
				var files []SiteFile
				if i < len(siteAssets) {
					files = []SiteFile{g.asset(siteAssets[i])}
				} else {
					n := &g.nodes[i-len(siteAssets)]
					files = []SiteFile{{Path: n.page, Data: []byte(g.renderPage(i - len(siteAssets)))},
						{Path: MarkdownPath(n.page), Data: []byte(markdownCopy(n.doc))}}
				}
				for _, f := range files {
					if err := emit(f); err != nil {
						errs[w] = err
						failed.Store(true)
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}

func (g *siteGraph) paths(ids []int) []string {
	out := []string{}
	for _, id := range ids {
		out = append(out, g.nodes[id].doc.Path)
	}
	return out
}

func newSiteGraph(docs []Document, o SiteOptions) (*siteGraph, error) {
	g := &siteGraph{byPath: make(map[string]int, len(docs)), opts: o, images: &siteImages{root: o.Root, ok: map[string]bool{}}}
	for _, d := range docs {
		if d.Path == SiteAssetsDir || strings.HasPrefix(d.Path, SiteAssetsDir+"/") {
			return nil, contracts.Errorf(contracts.CodeUsage, "the tree has a directory %s, where the site keeps its own files", SiteAssetsDir)
		}
		g.byPath[d.Path] = len(g.nodes)
		if d.Index {
			g.byPath[path.Dir(d.Path)] = len(g.nodes)
		}
		page := PagePath(d.Path)
		g.nodes = append(g.nodes, node{doc: d, page: page, pageEsc: escapePath(page), parent: -1})
	}
	for i := range g.nodes {
		n := &g.nodes[i]
		n.parent = g.parentOf(n.doc)
		if n.parent >= 0 {
			g.nodes[n.parent].children = append(g.nodes[n.parent].children, i)
		}
		n.softOut = g.resolveSoftLinks(n.doc)
	}
	// Children are appended in node order, which is export order: tree
	// order with members/ last, as in every export.
	for i := range g.nodes {
		if g.nodes[i].parent < 0 {
			g.tops = append(g.tops, i)
		}
	}
	return g, nil
}

// parentOf is the node of the directory holding d (for an index, of the
// directory above its own), or of the nearest indexed directory above.
func (g *siteGraph) parentOf(d Document) int {
	if d.Path == tree.NodeFile {
		return -1
	}
	dir := path.Dir(d.Path)
	if d.Index {
		dir = path.Dir(dir)
	}
	for {
		if id, ok := g.byPath[dir]; ok && g.nodes[id].doc.Index {
			return id
		}
		if dir == "." {
			return -1
		}
		dir = path.Dir(dir)
	}
}

func (g *siteGraph) resolveSoftLinks(d Document) []int {
	var out []int
	for _, sl := range d.SoftLinks {
		p, v := tree.ResolveTarget(".", sl, true)
		if v != tree.TargetInside {
			continue
		}
		if id, ok := g.byPath[p]; ok && !slices.Contains(out, id) && g.nodes[id].doc.Path != d.Path {
			out = append(out, id)
		}
	}
	return out
}

// linkBack fills each node's backlinks from every soft link and Markdown
// link pointing at it.
func (g *siteGraph) linkBack() {
	for i := range g.nodes {
		for _, t := range append(slices.Clone(g.nodes[i].softOut), g.nodes[i].linksOut...) {
			if t != i {
				g.nodes[t].back = append(g.nodes[t].back, i)
			}
		}
	}
	for i := range g.nodes {
		b := g.nodes[i].back
		slices.Sort(b) // node ids are export order
		g.nodes[i].back = slices.Compact(b)
	}
}

// PagePath is the site path of a document's page: a directory's NODE.md
// becomes its index.html (so the directory's URL shows it on a web
// server), any other x.md becomes x.html.
func PagePath(doc string) string {
	if path.Base(doc) == tree.NodeFile {
		dir := path.Dir(doc)
		if dir == "." {
			return "index.html"
		}
		return dir + "/index.html"
	}
	return strings.TrimSuffix(doc, ".md") + ".html"
}

// MarkdownPath is the clean Markdown copy of a page, beside it: x.md
// next to x.html (index.md next to index.html), for agents and llms.txt.
func MarkdownPath(page string) string {
	return strings.TrimSuffix(page, ".html") + ".md"
}

// markdownCopy is a page's Markdown: its title as a heading, its
// description as a quote, its body without frontmatter (already redacted
// by Prepare).
func markdownCopy(d Document) string {
	var b strings.Builder
	b.WriteString("# " + d.Title + "\n\n")
	if d.Description != "" {
		b.WriteString("> " + d.Description + "\n\n")
	}
	b.WriteString(d.Body)
	return b.String()
}

// rootPrefix is the relative path from a site path's directory to the
// site's root ("" or "../…").
func rootPrefix(sitePath string) string {
	return strings.Repeat("../", strings.Count(sitePath, "/"))
}

// href links node id's page from the page at site path from, each
// segment escaped so any file name stays one link (and stays a path under
// file://).
func (g *siteGraph) href(from string, id int) string {
	return rootPrefix(from) + g.nodes[id].pageEsc
}

func escapePath(p string) string {
	segs := strings.Split(p, "/")
	for i, s := range segs {
		segs[i] = pathSegmentEscape(s)
	}
	return strings.Join(segs, "/")
}

// pathSegmentEscape is url.PathEscape, which also escapes ':' in the
// first segment's stead: a segment "a:b" would otherwise read as a scheme.
func pathSegmentEscape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("-._~!$&'()*+,;=@", c) >= 0 {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}
