package export

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/git-context-tree/git-context-tree/internal/tree"
)

// siteOf writes files (tree path → content) as a tree and renders its site.
func siteOf(t *testing.T, files map[string]string, o SiteOptions) *Site {
	t.Helper()
	if o.Title == "" {
		o.Title = "Handbook"
	}
	site, err := RenderSite(prepared(t, files), o)
	if err != nil {
		t.Fatal(err)
	}
	return site
}

// prepared writes files as a tree and prepares its documents.
func prepared(t *testing.T, files map[string]string) []Document {
	t.Helper()
	root := t.TempDir()
	for p, content := range files {
		name := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	entries, err := tree.Documents(root)
	if err != nil {
		t.Fatal(err)
	}
	docs, unreadable := Prepare(entries, nil)
	if len(unreadable) > 0 {
		t.Fatalf("unreadable: %+v", unreadable)
	}
	return docs
}

// files renders every file of a site.
func files(t *testing.T, s *Site) map[string]string {
	t.Helper()
	var mu sync.Mutex
	out := map[string]string{}
	err := s.Write(func(f SiteFile) error {
		mu.Lock()
		defer mu.Unlock()
		if _, ok := out[f.Path]; ok {
			t.Errorf("%s written twice", f.Path)
		}
		out[f.Path] = string(f.Data)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != len(s.Paths) {
		t.Errorf("%d files written, %d planned", len(out), len(s.Paths))
	}
	return out
}

func file(t *testing.T, s *Site, p string) string {
	t.Helper()
	f, ok := files(t, s)[p]
	if !ok {
		t.Fatalf("no file %s in the site", p)
	}
	return f
}

func doc(title, softLinks, body string) string {
	s := "---\ntitle: " + title + "\n"
	if softLinks != "" {
		s += "soft_links: [" + softLinks + "]\n"
	}
	return s + "---\n" + body
}

var basicTree = map[string]string{
	"NODE.md":          "---\nschemaVersion: 1\ntitle: Handbook\n---\n# Handbook\n\nSee [the layers](arch/layers.md#why-layers) and [arch](arch/).\n",
	"arch/NODE.md":     doc("Architecture", "", "# Architecture\n\n- [Layers](layers.md)\n"),
	"arch/layers.md":   doc("Layers", "arch/adapter.md, /work", "## Why layers\n\nText about layers.\n"),
	"arch/adapter.md":  doc("Adapter", "", "Back to [layers](./layers.md) and [root](../NODE.md).\n"),
	"work/NODE.md":     doc("Work", "arch/layers.md", "Work.\n"),
	"members/NODE.md":  doc("Members", "", "Members.\n"),
	"members/ada.md":   doc("Ada", "work", "Ada's notes.\n"),
	"arch/odd name.md": doc("Odd (name)", "", "An odd file name, linked from nowhere.\n"),
}

func TestSiteEscapesRawHTMLAndScripts(t *testing.T) {
	body := "# Danger\n\n<script>alert('block')</script>\n\nInline <img src=x onerror=alert(1)> and <b>bold</b>.\n\n" +
		"[js](javascript:alert(1)) [data](data:text/html,<script>x</script>) [vb](vbscript:x)\n\n" +
		"![remote](https://example.com/track.png) ![local](pic.png)\n\n" +
		"<div onclick=\"x()\">\nblock\n</div>\n"
	s := siteOf(t, map[string]string{"NODE.md": "---\nschemaVersion: 1\ntitle: Danger\n---\n" + body}, SiteOptions{})
	page := file(t, s, "index.html")
	_, bodyHTML, _ := strings.Cut(page, `<div class="body">`)
	bodyHTML, _, _ = strings.Cut(bodyHTML, "</article>")
	for _, bad := range []string{"<script", "<img", "<b>", "<div onclick", "javascript:", "vbscript:", "data:text", ` src="`} {
		if strings.Contains(bodyHTML, bad) {
			t.Errorf("the body contains %q:\n%s", bad, bodyHTML)
		}
	}
	for _, want := range []string{
		"&lt;script&gt;alert(&#39;block&#39;)&lt;/script&gt;",
		`<code class="raw-html">&lt;img src=x onerror=alert(1)&gt;</code>`,
		`<code class="raw-html">&lt;b&gt;</code>bold`,
		"&lt;div onclick=&#34;x()&#34;&gt;",
		"js data vb",
		`<a href="https://example.com/track.png" class="external" rel="noopener noreferrer"><span class="image-alt">[remote]</span></a>`,
		`<span class="image-alt">[local]</span>`,
	} {
		if !strings.Contains(bodyHTML, want) {
			t.Errorf("the body lacks %q:\n%s", want, bodyHTML)
		}
	}
	// The only scripts of any page are the site's own.
	if got := regexp.MustCompile(`<script[^>]*>`).FindAllString(page, -1); !cmp.Equal(got, []string{`<script src="_site/search.js" defer>`}) {
		t.Errorf("scripts: %q", got)
	}
}

func TestSiteRewritesLinks(t *testing.T) {
	files := map[string]string{
		"NODE.md": "---\nschemaVersion: 1\ntitle: Root\n---\n" +
			"[doc](a/b.md) [frag](a/b.md#part-two) [dir](a/) [dir index](a/NODE.md) [rooted](/a/b.md) [self](#top)\n\n" +
			"[escape](../outside.md) [far](../../etc/passwd) [missing](a/none.md) [asset](a/pic.png) [web](https://example.com/x?y=1&z=2) [mail](mailto:a@example.com)\n\n" +
			"<https://example.com/auto> www.example.org\n\n`[code](../outside.md)`\n",
		"a/NODE.md": doc("A", "", "[up](../NODE.md) [sibling](b.md) [spaced](c%20d.md)\n"),
		"a/b.md":    doc("B", "", "## Part two\n\ntext\n"),
		"a/c d.md":  doc("C D", "", "x\n"),
		"a/pic.png": "not a document",
	}
	s := siteOf(t, files, SiteOptions{})
	root := file(t, s, "index.html")
	for _, want := range []string{
		`<a href="a/b.html">doc</a>`, `<a href="a/b.html#part-two">frag</a>`, `<a href="a/index.html">dir</a>`,
		`<a href="a/index.html">dir index</a>`, `<a href="a/b.html">rooted</a>`, `<a href="#top">self</a>`,
		`<p>escape far missing asset <a href="https://example.com/x?y=1&amp;z=2" class="external" rel="noopener noreferrer">web</a>`,
		`<a href="mailto:a@example.com" class="external" rel="noopener noreferrer">mail</a>`,
		`<a href="https://example.com/auto" class="external" rel="noopener noreferrer">https://example.com/auto</a>`,
		`<a href="http://www.example.org" class="external" rel="noopener noreferrer">www.example.org</a>`,
		`<code>[code](../outside.md)</code>`,
	} {
		if !strings.Contains(root, want) {
			t.Errorf("index.html lacks %q", want)
		}
	}
	a := file(t, s, "a/index.html")
	for _, want := range []string{`<a href="../index.html">up</a>`, `<a href="../a/b.html">sibling</a>`, `<a href="../a/c%20d.html">spaced</a>`} {
		if !strings.Contains(a, want) {
			t.Errorf("a/index.html lacks %q", want)
		}
	}
	// The heading id the fragment names exists; the document's top
	// headings become h2, right below the page's h1.
	if b := file(t, s, "a/b.html"); !strings.Contains(b, `<h2 id="part-two">Part two</h2>`) {
		t.Errorf("a/b.html lacks the shifted heading:\n%s", b)
	}
}

func TestSitePagesAndBacklinks(t *testing.T) {
	s := siteOf(t, basicTree, SiteOptions{})
	got := s.Pages
	want := []SitePage{
		{Path: "NODE.md", Page: "index.html", Title: "Handbook", Class: "normal", SoftLinks: []string{}, Backlinks: []string{"arch/adapter.md"}},
		{Path: "arch/NODE.md", Page: "arch/index.html", Title: "Architecture", Class: "normal", SoftLinks: []string{}, Backlinks: []string{"NODE.md"}},
		{Path: "arch/adapter.md", Page: "arch/adapter.html", Title: "Adapter", Class: "normal", SoftLinks: []string{}, Backlinks: []string{"arch/layers.md"}},
		{Path: "arch/layers.md", Page: "arch/layers.html", Title: "Layers", Class: "normal", SoftLinks: []string{"arch/adapter.md", "work/NODE.md"},
			Backlinks: []string{"NODE.md", "arch/NODE.md", "arch/adapter.md", "work/NODE.md"}},
		{Path: "arch/odd name.md", Page: "arch/odd name.html", Title: "Odd (name)", Class: "normal", SoftLinks: []string{}, Backlinks: []string{}},
		{Path: "work/NODE.md", Page: "work/index.html", Title: "Work", Class: "normal", SoftLinks: []string{"arch/layers.md"}, Backlinks: []string{"arch/layers.md", "members/ada.md"}},
		{Path: "members/NODE.md", Page: "members/index.html", Title: "Members", Class: "member", SoftLinks: []string{}, Backlinks: []string{}},
		{Path: "members/ada.md", Page: "members/ada.html", Title: "Ada", Class: "member", SoftLinks: []string{"work/NODE.md"}, Backlinks: []string{}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("pages (-want +got):\n%s", diff)
	}
	layers := file(t, s, "arch/layers.html")
	_, back, _ := strings.Cut(layers, `<section class="backlinks">`)
	back, _, _ = strings.Cut(back, "</section>")
	for _, want := range []string{`href="../index.html">Handbook`, `href="../arch/index.html">Architecture`, `href="../arch/adapter.html">Adapter`, `href="../work/index.html">Work`} {
		if !strings.Contains(back, want) {
			t.Errorf("backlinks of layers lack %q:\n%s", want, back)
		}
	}
	// Breadcrumbs from the root, the current page marked.
	if !strings.Contains(layers, `<nav class="breadcrumbs" aria-label="Breadcrumb"><ol><li><a href="../index.html">Handbook</a></li><li><a href="../arch/index.html">Architecture</a></li><li><a href="../arch/layers.html" aria-current="page">Layers</a></li></ol></nav>`) {
		t.Errorf("breadcrumbs of layers:\n%s", layers)
	}
	// The title heading is not repeated; the page's only h1 is the title.
	if n := strings.Count(file(t, s, "arch/index.html"), "<h1"); n != 1 {
		t.Errorf("arch/index.html has %d h1", n)
	}
	// Member content is marked as such, in the navigation and on its page.
	ada := file(t, s, "members/ada.html")
	if !strings.Contains(ada, "member content</span>") || !strings.Contains(ada, `<li class="member"><a href="../members/index.html"`) {
		t.Errorf("members/ada.html does not mark member content:\n%s", ada)
	}
	// The neighbourhood map links its nodes' pages.
	if !strings.Contains(layers, `<svg class="neighbourhood-map"`) || !strings.Contains(layers, `<a href="../arch/adapter.html" aria-label="Adapter" class="node"`) {
		t.Errorf("layers has no neighbourhood map linking adapter")
	}
	if strings.Contains(file(t, s, "arch/odd name.html"), "neighbourhood-map") {
		t.Errorf("a page without links has a neighbourhood map")
	}
}

func TestSiteIsDeterministic(t *testing.T) {
	a := siteOf(t, basicTree, SiteOptions{Head: "0123456789abcdef0123456789abcdef01234567", GeneratedAt: "2026-12-01T10:00:00Z"})
	b := siteOf(t, basicTree, SiteOptions{Head: "0123456789abcdef0123456789abcdef01234567", GeneratedAt: "2026-12-02T11:11:11Z"})
	fa, fb := files(t, a), files(t, b)
	if !cmp.Equal(a.Paths, b.Paths) {
		t.Fatalf("paths differ:\n%s", cmp.Diff(a.Paths, b.Paths))
	}
	stamp := regexp.MustCompile(`<time datetime="[^"]*">[^<]*</time>`)
	for _, p := range a.Paths {
		na, nb := stamp.ReplaceAllString(fa[p], "<time>"), stamp.ReplaceAllString(fb[p], "<time>")
		if na != nb {
			t.Errorf("%s differs beyond its timestamp:\n%s", p, cmp.Diff(na, nb))
		}
	}
	if fa["index.html"] == fb["index.html"] {
		t.Errorf("the timestamp is not in the footer")
	}
	if !strings.Contains(file(t, a, "index.html"), `Exported at commit <code title="0123456789abcdef0123456789abcdef01234567">0123456789ab</code>, clean.`) {
		t.Errorf("the footer does not state the commit")
	}
	dirty := siteOf(t, basicTree, SiteOptions{Head: "0123456789abcdef0123456789abcdef01234567", Dirty: true})
	if !strings.Contains(file(t, dirty, "index.html"), "with uncommitted changes") {
		t.Errorf("the footer does not state the dirty state")
	}
}

func TestSiteSearchIndexAndAssets(t *testing.T) {
	s := siteOf(t, basicTree, SiteOptions{})
	index := file(t, s, "_site/search-index.js")
	if !strings.HasPrefix(index, "// Search index") || !strings.Contains(index, `["arch/layers.html","Layers","","Why layers","Why layers Text about layers.",""]`) {
		t.Errorf("search index:\n%s", index)
	}
	for _, p := range []string{SiteMarker, ".nojekyll", "_site/style.css", "_site/search.js", "_site/contents.html", "_site/map.html"} {
		file(t, s, p)
	}
	contents := file(t, s, "_site/contents.html")
	if !strings.Contains(contents, `<a href="../arch/odd%20name.html">Odd (name)</a>`) {
		t.Errorf("contents does not list every document:\n%s", contents)
	}
	m := file(t, s, "_site/map.html")
	for _, want := range []string{`<svg class="map"`, `aria-label="Architecture" class="node"`, `<title>Layers → Adapter</title>`} {
		if !strings.Contains(m, want) {
			t.Errorf("map lacks %q", want)
		}
	}
}

// A web of soft links too large to draw document by document is drawn
// between domains.
func TestSiteMapFallsBackToDomains(t *testing.T) {
	files := map[string]string{"NODE.md": "---\nschemaVersion: 1\ntitle: Big\n---\nBig.\n", "a/NODE.md": doc("A", "", "a\n"), "b/NODE.md": doc("B", "", "b\n")}
	for i := range maxMapDocs {
		files["a/doc"+strconv.Itoa(i)+".md"] = doc("A doc", "b", "x\n")
	}
	s := siteOf(t, files, SiteOptions{})
	m := file(t, s, "_site/map.html")
	if !strings.Contains(m, "drawn between domains") || !strings.Contains(m, "<title>400 soft links from A to B</title>") {
		t.Errorf("map of a large web:\n%.2000s", m)
	}
}

func TestSiteRefusesItsOwnDirectoryInTheTree(t *testing.T) {
	docs := []Document{
		{Path: "NODE.md", Index: true, Title: "R", Order: 0},
		{Path: "_site/NODE.md", Index: true, Title: "S", Order: 1},
	}
	if _, err := RenderSite(docs, SiteOptions{Title: "R"}); err == nil || !strings.Contains(err.Error(), "_site") {
		t.Errorf("err = %v", err)
	}
}

func TestPagePath(t *testing.T) {
	for doc, want := range map[string]string{"NODE.md": "index.html", "a/NODE.md": "a/index.html", "a/b.md": "a/b.html", "x.md": "x.html"} {
		if got := PagePath(doc); got != want {
			t.Errorf("PagePath(%q) = %q, want %q", doc, got, want)
		}
	}
}

func TestSitePageSources(t *testing.T) {
	docs := prepared(t, basicTree)
	for i := range docs {
		if docs[i].Path == "arch/layers.md" {
			docs[i].Sources = []Source{
				{Path: "src/<a>.go", Lines: "3-9", Commit: "0123456789abcdef0123456789abcdef01234567", Freshness: "changed", Changes: 2, URL: "https://github.com/a/b/blob/0123/src/%3Ca%3E.go#L3-L9"},
				{Path: "lib/x.go", Repository: "tools", Freshness: "unstamped"},
			}
		}
	}
	s, err := RenderSite(docs, SiteOptions{Title: "Handbook"})
	if err != nil {
		t.Fatal(err)
	}
	page := file(t, s, "arch/layers.html")
	for _, want := range []string{
		`<p class="badge stale" role="status">Cited code changed since this page was written</p>`,
		`<a href="https://github.com/a/b/blob/0123/src/%3Ca%3E.go#L3-L9"><code>src/&lt;a&gt;.go:3-9</code></a> at <code title="0123456789abcdef0123456789abcdef01234567">0123456789ab</code> <span class="freshness changed">changed (2 commits since)</span>`,
		`<li><code>tools:lib/x.go</code> <span class="freshness unstamped">unstamped</span></li>`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %s", want)
		}
	}
	if strings.Contains(file(t, s, "arch/adapter.html"), `class="sources"`) {
		t.Errorf("a page without sources lists some")
	}
	if !strings.Contains(file(t, s, "_site/search-index.js"), `"src/\u003ca\u003e.go\nlib/x.go"]`) {
		t.Errorf("the search index lacks the cited paths")
	}
}

func TestSiteImages(t *testing.T) {
	root := t.TempDir()
	png := "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89"
	fixture := map[string]string{
		"NODE.md":        "---\nschemaVersion: 1\ntitle: Root\n---\n\n![Diagram](img/arch.png \"Arch\") ![Vector](img/v.svg) ![Fake](img/fake.png) ![Far](../outside.png) ![Linked](img/link.png) ![Web](https://example.com/x.png) ![Hidden](.git/x.png)\n",
		"img/NODE.md":    "---\ntitle: Images\n---\n\nImages.\n",
		"img/arch.png":   png,
		"img/v.svg":      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"1\" height=\"1\"/>",
		"img/fake.png":   "just text",
		"docs/NODE.md":   "---\ntitle: Docs\n---\n\n![Up](../img/arch.png)\n",
		"../outside.png": png,
	}
	for p, content := range fixture {
		name := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(root, "img", "arch.png"), filepath.Join(root, "img", "link.png")); err != nil {
		t.Fatal(err)
	}
	entries, err := tree.Documents(root)
	if err != nil {
		t.Fatal(err)
	}
	docs, _ := Prepare(entries, nil)
	s, err := RenderSite(docs, SiteOptions{Title: "Root", Root: root})
	if err != nil {
		t.Fatal(err)
	}
	all := files(t, s)
	if all["img/arch.png"] != png || all["img/v.svg"] == "" {
		t.Errorf("images not copied: %v", s.Paths)
	}
	for _, p := range []string{"img/fake.png", "img/link.png", "outside.png", "../outside.png"} {
		if _, ok := all[p]; ok {
			t.Errorf("%s copied", p)
		}
	}
	index := all["index.html"]
	for _, want := range []string{`<img src="img/arch.png" alt="Diagram" loading="lazy" title="Arch">`, `<img src="img/v.svg" alt="Vector"`,
		`[Fake]`, `[Far]`, `[Linked]`} {
		if !strings.Contains(index, want) {
			t.Errorf("index.html lacks %s", want)
		}
	}
	if !strings.Contains(all["docs/index.html"], `<img src="../img/arch.png" alt="Up"`) {
		t.Errorf("docs page: %s", all["docs/index.html"])
	}
}
