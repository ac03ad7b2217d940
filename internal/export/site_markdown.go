package export

import (
	"bytes"
	"html"
	"net/url"
	"path"
	"runtime"
	"strings"
	"sync"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"

	"github.com/git-context-tree/git-context-tree/internal/export/gfm"
	"github.com/git-context-tree/git-context-tree/internal/tree"
)

// maxSearchText bounds the body text one document adds to the search
// index, so a huge document cannot make every page's search slow.
const maxSearchText = 8192

// renderedBody is a document's body as HTML, with what search indexes.
type renderedBody struct {
	html     string
	headings []string
	text     string
}

// renderBodies renders every node's body on every core, each worker with
// a Markdown converter of its own.
func (g *siteGraph) renderBodies() {
	workers := min(runtime.GOMAXPROCS(0), len(g.nodes)/16+1)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			md := newSiteMarkdown()
			for i := w; i < len(g.nodes); i += workers {
				g.nodes[i].body, g.nodes[i].linksOut = g.renderBody(md, i)
			}
		}()
	}
	wg.Wait()
}

// newSiteMarkdown is goldmark with GitHub's table, strikethrough, task
// list and bare-URL extensions (package gfm), heading ids for fragment links, and the
// site's own rendering of raw HTML, links and images (siteHTML).
func newSiteMarkdown() goldmark.Markdown {
	return goldmark.New(
		goldmark.WithExtensions(gfm.Extension{}),
		goldmark.WithParserOptions(parser.WithAutoHeadingID()),
		goldmark.WithRendererOptions(renderer.WithNodeRenderers(util.Prioritized(siteHTML{}, 100))),
	)
}

// renderBody parses one body, rewrites its links (linkRewriter), shifts
// its headings below the page's h1 and renders it.
func (g *siteGraph) renderBody(md goldmark.Markdown, id int) (renderedBody, []int) {
	n := &g.nodes[id]
	src := []byte(n.doc.Body)
	doc := md.Parser().Parse(text.NewReader(src))
	rw := linkRewriter{g: g, from: n.page, docDir: path.Dir(n.doc.Path)}
	var out renderedBody
	var texts strings.Builder
	dropTitleHeading(doc, src, n.doc.Title)
	shift := 2 - topHeadingLevel(doc)
	_ = ast.Walk(doc, func(x ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		if x.Type() == ast.TypeBlock {
			texts.WriteByte(' ') // words of two blocks stay apart
		}
		switch v := x.(type) {
		case *ast.Heading:
			out.headings = append(out.headings, plainText(v, src))
			v.Level = max(2, min(v.Level+shift, 6))
		case *ast.Link:
			v.Destination = rw.rewrite(string(v.Destination))
		case *ast.Image:
			if p := localImage(rw.docDir, string(v.Destination)); p != "" && g.images.use(p) {
				v.Destination = []byte(rootPrefix(n.page) + escapePath(p))
				v.SetAttributeString(localImageAttr, true)
			} else {
				v.Destination = rw.rewrite(string(v.Destination))
			}
		case *ast.Text:
			if texts.Len() < maxSearchText {
				texts.Write(v.Value(src))
				if v.SoftLineBreak() || v.HardLineBreak() {
					texts.WriteByte(' ')
				}
			}
		case *ast.FencedCodeBlock, *ast.CodeBlock:
			lines := x.Lines()
			for i := 0; i < lines.Len() && texts.Len() < maxSearchText; i++ {
				seg := lines.At(i)
				texts.Write(seg.Value(src))
			}
		}
		return ast.WalkContinue, nil
	})
	var buf bytes.Buffer
	if err := md.Renderer().Render(&buf, src, doc); err != nil {
		// Rendering writes to memory and cannot fail; say so on the page
		// rather than lose the document.
		buf.Reset()
		buf.WriteString("<p>This document could not be rendered.</p>\n")
	}
	out.html = buf.String()
	out.text = oneLine(texts.String())
	if len(out.text) > maxSearchText {
		out.text = truncateUTF8(out.text, maxSearchText)
	}
	return out, rw.targets
}

// topHeadingLevel is the level of a body's largest heading (2 when it
// has none). The page's title is its only h1, and the body's top headings
// become h2, so no level is skipped.
func topHeadingLevel(doc ast.Node) int {
	top := 7
	for c := doc.FirstChild(); c != nil; c = c.NextSibling() {
		if h, ok := c.(*ast.Heading); ok {
			top = min(top, h.Level)
		}
	}
	if top == 7 {
		return 2
	}
	return top
}

// dropTitleHeading removes a first heading that repeats the title: the
// page shows the title as its h1 already.
func dropTitleHeading(doc ast.Node, src []byte, title string) {
	first := doc.FirstChild()
	if h, ok := first.(*ast.Heading); ok && h.Level == 1 && oneLine(plainText(h, src)) == title {
		doc.RemoveChild(doc, h)
	}
}

// linkRewriter turns a document's link destinations into the site's: a
// document (or indexed directory) of the tree becomes its page, with the
// fragment kept; http(s) and mailto URLs stay; anything else (a path
// leaving the tree, an asset, a missing file, another scheme) becomes ""
// and is rendered as plain text.
type linkRewriter struct {
	g       *siteGraph
	from    string // the page's site path
	docDir  string
	targets []int
}

func (rw *linkRewriter) rewrite(dest string) []byte {
	if strings.HasPrefix(dest, "#") {
		return []byte(dest)
	}
	p, v := tree.ResolveTarget(rw.docDir, dest, false)
	switch v {
	case tree.TargetExternal:
		if isWebURL(dest) {
			return []byte(dest)
		}
		return nil
	case tree.TargetInside:
		id, ok := rw.g.byPath[p]
		if !ok {
			return nil
		}
		rw.targets = append(rw.targets, id)
		link := rw.g.href(rw.from, id)
		if _, frag, ok := strings.Cut(dest, "#"); ok && frag != "" {
			link += "#" + frag
		}
		return []byte(link)
	}
	return nil
}

// isWebURL reports an http, https or mailto URL: links a reader can follow
// out of the site on purpose. Other schemes (javascript:, data:, file:)
// are never links.
func isWebURL(dest string) bool {
	u, err := url.Parse(strings.TrimSpace(dest))
	if err != nil {
		return false
	}
	switch strings.ToLower(u.Scheme) {
	case "http", "https":
		return u.Host != ""
	case "mailto":
		return true
	}
	return false
}

// plainText is the text of a node's inline content.
func plainText(n ast.Node, src []byte) string {
	var b strings.Builder
	_ = ast.Walk(n, func(x ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch v := x.(type) {
		case *ast.Text:
			b.Write(v.Value(src))
			if v.SoftLineBreak() || v.HardLineBreak() {
				b.WriteByte(' ')
			}
		case *ast.String:
			b.Write(v.Value)
		case *ast.AutoLink:
			b.Write(v.Label(src))
		case *ast.RawHTML:
			for i := 0; i < v.Segments.Len(); i++ {
				s := v.Segments.At(i)
				b.Write(s.Value(src))
			}
		}
		return ast.WalkContinue, nil
	})
	return b.String()
}

func truncateUTF8(s string, n int) string {
	for n > 0 && n < len(s) && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n]
}

// localImageAttr marks an image the site copied from the tree.
const localImageAttr = "data-gct-local"

// siteHTML renders what the site treats differently from goldmark: raw
// HTML is shown as text (documents are written by agents and must not
// run in a reader's browser), links rewritten to "" are plain text, and
// images outside the site show their alt text, so no page loads anything
// from elsewhere.
type siteHTML struct{}

func (siteHTML) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(ast.KindHTMLBlock, renderHTMLBlock)
	reg.Register(ast.KindRawHTML, renderRawHTML)
	reg.Register(ast.KindLink, renderLink)
	reg.Register(ast.KindImage, renderImage)
	reg.Register(ast.KindAutoLink, renderAutoLink)
}

func renderHTMLBlock(w util.BufWriter, src []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	b := n.(*ast.HTMLBlock)
	_, _ = w.WriteString(`<pre class="raw-html"><code>`)
	lines := b.Lines()
	for i := 0; i < lines.Len(); i++ {
		s := lines.At(i)
		_, _ = w.WriteString(html.EscapeString(string(s.Value(src))))
	}
	if b.HasClosure() {
		_, _ = w.WriteString(html.EscapeString(string(b.ClosureLine.Value(src))))
	}
	_, _ = w.WriteString("</code></pre>\n")
	return ast.WalkContinue, nil
}

func renderRawHTML(w util.BufWriter, src []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkSkipChildren, nil
	}
	r := n.(*ast.RawHTML)
	_, _ = w.WriteString(`<code class="raw-html">`)
	for i := 0; i < r.Segments.Len(); i++ {
		s := r.Segments.At(i)
		_, _ = w.WriteString(html.EscapeString(string(s.Value(src))))
	}
	_, _ = w.WriteString("</code>")
	return ast.WalkSkipChildren, nil
}

func renderLink(w util.BufWriter, _ []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	l := n.(*ast.Link)
	if len(l.Destination) == 0 {
		return ast.WalkContinue, nil // its text, without the link
	}
	if !entering {
		_, _ = w.WriteString("</a>")
		return ast.WalkContinue, nil
	}
	writeAnchor(w, string(l.Destination), string(l.Title))
	return ast.WalkContinue, nil
}

func writeAnchor(w util.BufWriter, dest, title string) {
	_, _ = w.WriteString(`<a href="` + html.EscapeString(dest) + `"`)
	if title != "" {
		_, _ = w.WriteString(` title="` + html.EscapeString(title) + `"`)
	}
	if isWebURL(dest) {
		_, _ = w.WriteString(` class="external" rel="noopener noreferrer"`)
	}
	_, _ = w.WriteString(">")
}

func renderImage(w util.BufWriter, src []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	img := n.(*ast.Image)
	alt := html.EscapeString(oneLine(plainText(img, src)))
	dest := string(img.Destination)
	if _, local := img.AttributeString(localImageAttr); local {
		// An image of the tree, copied into the site.
		_, _ = w.WriteString(`<img src="` + html.EscapeString(dest) + `" alt="` + alt + `" loading="lazy"`)
		if len(img.Title) > 0 {
			_, _ = w.WriteString(` title="` + html.EscapeString(string(img.Title)) + `"`)
		}
		_, _ = w.WriteString(">")
		return ast.WalkSkipChildren, nil
	}
	// Only a page of the site could be an image here, and pages are not
	// images: every image shows its alt text, linked when it is a page or
	// a web URL. Nothing is loaded from outside the site.
	if alt == "" {
		alt = "image"
	}
	if dest == "" {
		_, _ = w.WriteString(`<span class="image-alt">[` + alt + `]</span>`)
		return ast.WalkSkipChildren, nil
	}
	writeAnchor(w, dest, string(img.Title))
	_, _ = w.WriteString(`<span class="image-alt">[` + alt + `]</span></a>`)
	return ast.WalkSkipChildren, nil
}

func renderAutoLink(w util.BufWriter, src []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	a := n.(*ast.AutoLink)
	label := html.EscapeString(string(a.Label(src)))
	dest := string(a.URL(src))
	if a.AutoLinkType == ast.AutoLinkEmail && !strings.HasPrefix(strings.ToLower(dest), "mailto:") {
		dest = "mailto:" + dest
	}
	if !isWebURL(dest) {
		_, _ = w.WriteString(label)
		return ast.WalkContinue, nil
	}
	writeAnchor(w, dest, "")
	_, _ = w.WriteString(label + "</a>")
	return ast.WalkContinue, nil
}
