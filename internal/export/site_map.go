package export

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// maxMapDocs caps the documents the overview map draws one by one; a
// larger web of soft links is drawn between domains, with counts.
const maxMapDocs = 400

// maxLabelledDocs: up to this many drawn documents, each has a label.
const maxLabelledDocs = 80

// maxNeighbours caps the neighbourhood map of a page.
const maxNeighbours = 10

type point struct{ x, y float64 }

func (p point) String() string { return fmt.Sprintf("%.1f,%.1f", p.x, p.y) }

// svgNum keeps coordinates short and the same on every run.
func svgNum(f float64) string { return strconv.FormatFloat(f, 'f', 1, 64) }

// domainOf is the top-level directory's node a node lies under (a top
// node is its own domain).
func (g *siteGraph) domainOf(id int) int {
	for {
		p := g.nodes[id].parent
		switch {
		case p < 0:
			return id // a top: its own domain
		case g.nodes[p].parent >= 0:
			id = p
		case g.nodes[id].doc.Index:
			return id // a top-level directory
		default:
			return p // a document beside the root's NODE.md
		}
	}
}

// mapLayout places the overview's nodes: the root at the centre, each
// domain on a ring around it in export order, and each drawn document on
// small rings around its domain. Everything derives from the order of
// the documents, so the same tree draws the same picture.
type mapLayout struct {
	pos     map[int]point
	domains []int
	drawn   []int // documents drawn individually, export order
	radius  float64
	extent  float64
	labels  bool // documents are labelled
	step    float64
}

func (g *siteGraph) layoutMap() mapLayout {
	l := mapLayout{pos: map[int]point{}}
	linked := map[int]bool{}
	for i := range g.nodes {
		for _, t := range g.nodes[i].softOut {
			linked[i], linked[t] = true, true
		}
	}
	members := map[int][]int{} // domain → drawn documents
	isDomain := map[int]bool{}
	for i := range g.nodes {
		if d := g.domainOf(i); d == i {
			l.domains = append(l.domains, i)
			isDomain[i] = true
		}
	}
	if len(linked) <= maxMapDocs {
		for i := range g.nodes {
			if linked[i] && !isDomain[i] {
				l.drawn = append(l.drawn, i)
				d := g.domainOf(i)
				members[d] = append(members[d], i)
			}
		}
	}
	l.labels = len(l.drawn) <= maxLabelledDocs
	l.step = 30
	if l.labels {
		l.step = 48
	}
	// Tops are the centre (several only in a tree without a root).
	centre := []int{}
	ring := []int{}
	for _, d := range l.domains {
		if g.nodes[d].parent < 0 {
			centre = append(centre, d)
		} else {
			ring = append(ring, d)
		}
	}
	clusterRadius := func(n int) float64 { return 26 + l.step*float64(ringsFor(n)) }
	maxCR, circumference := 0.0, 0.0
	for _, d := range ring {
		cr := clusterRadius(len(members[d]))
		maxCR = math.Max(maxCR, cr)
		circumference += 2*cr + 40
	}
	centreCR := clusterRadius(len(members[centreOf(centre)]))
	r := math.Max(circumference/(2*math.Pi), centreCR+maxCR+60)
	if len(ring) == 0 {
		r = 0
	}
	l.radius = r
	l.extent = math.Max(r+math.Max(maxCR, centreCR)+70, 260)
	for i, c := range centre {
		l.pos[c] = point{float64(i) * 40, 0}
	}
	for i, d := range ring {
		a := 2*math.Pi*float64(i)/float64(len(ring)) - math.Pi/2
		l.pos[d] = point{r * math.Cos(a), r * math.Sin(a)}
	}
	for d, docs := range members {
		placeAround(l.pos, l.pos[d], docs, l.step)
	}
	return l
}

func centreOf(centre []int) int {
	if len(centre) == 0 {
		return -1
	}
	return centre[0]
}

// ringsFor is how many rings around a domain n documents take; ring k
// holds 8k of them.
func ringsFor(n int) int {
	rings := 0
	for held := 0; held < n; {
		rings++
		held += 8 * rings
	}
	return rings
}

func placeAround(pos map[int]point, c point, docs []int, step float64) {
	k, slot := 1, 0
	for _, id := range docs {
		if slot == 8*k {
			k, slot = k+1, 0
		}
		a := 2*math.Pi*float64(slot)/float64(8*k) - math.Pi/2 + float64(k)*0.3
		r := 26 + step*float64(k)
		pos[id] = point{c.x + r*math.Cos(a), c.y + r*math.Sin(a)}
		slot++
	}
}

// mapPage is the overview: domains and soft links as one SVG.
func (g *siteGraph) mapPage() string {
	p := SiteAssetsDir + "/map.html"
	var b strings.Builder
	g.writeHead(&b, pageFrame{sitePath: p, title: "Soft-link map", current: -1})
	l := g.layoutMap()
	b.WriteString("<main id=\"main\" class=\"map-page\">\n<h1>Soft-link map</h1>\n")
	links := 0
	for i := range g.nodes {
		links += len(g.nodes[i].softOut)
	}
	fmt.Fprintf(&b, "<p>%s and %s, %s between them. Large circles are domains (top-level directories); small ones are documents with soft links; lines are soft links, pointing at their targets.",
		plural(len(l.domains), "domain"), plural(len(g.nodes), "document"), plural(links, "soft link"))
	if len(l.drawn) == 0 && links > 0 {
		fmt.Fprintf(&b, " With more than %d linked documents, soft links are drawn between domains; a line's width grows with its count.", maxMapDocs)
	}
	b.WriteString(" Select a circle to open its page.</p>\n")
	b.WriteString(g.overviewSVG(p, l))
	b.WriteString("</main>\n")
	g.writeFoot(&b)
	return b.String()
}

func (g *siteGraph) overviewSVG(from string, l mapLayout) string {
	var b strings.Builder
	e := l.extent
	size := svgNum(2 * e)
	fmt.Fprintf(&b, "<svg class=\"map\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"%s %s %s %s\" width=\"%s\" height=\"%s\" aria-labelledby=\"map-title\">\n",
		svgNum(-e), svgNum(-e), size, size, size, size)
	b.WriteString("<title id=\"map-title\">Soft-link map of " + esc(g.opts.Title) + "</title>\n")
	b.WriteString(arrowDefs)
	// Hierarchy: each domain hangs from the root.
	for _, d := range l.domains {
		if p := g.nodes[d].parent; p >= 0 {
			line(&b, "tree-edge", l.pos[p], l.pos[d], "")
		}
	}
	for _, id := range l.drawn {
		line(&b, "tree-edge faint", l.pos[g.domainOf(id)], l.pos[id], "")
	}
	if len(l.drawn) > 0 || g.allLinksDrawable(l) {
		for i := range g.nodes {
			for _, t := range g.nodes[i].softOut {
				from, ok1 := l.pos[i]
				to, ok2 := l.pos[t]
				if ok1 && ok2 {
					off := 0.0
					if slices.Contains(g.nodes[t].softOut, i) {
						off = 3 // both ways: side by side
					}
					from, to = beside(from, to, off)
					line(&b, "soft", from, shorten(from, to, 9), g.nodes[i].doc.Title+" → "+g.nodes[t].doc.Title)
				}
			}
		}
	} else {
		g.domainEdges(&b, l)
	}
	for _, d := range l.domains {
		g.mapNode(&b, from, d, l.pos[d], 16, "domain", true, true)
	}
	for _, id := range l.drawn {
		g.mapNode(&b, from, id, l.pos[id], 6, "doc", l.labels, true)
	}
	b.WriteString("</svg>\n")
	return b.String()
}

// allLinksDrawable: every soft link joins domains (no document drawn,
// none needed).
func (g *siteGraph) allLinksDrawable(l mapLayout) bool {
	for i := range g.nodes {
		for _, t := range g.nodes[i].softOut {
			if _, ok := l.pos[i]; !ok {
				return false
			}
			if _, ok := l.pos[t]; !ok {
				return false
			}
		}
	}
	return true
}

// domainEdges draws soft links between domains, one line per ordered pair.
func (g *siteGraph) domainEdges(b *strings.Builder, l mapLayout) {
	type pair struct{ a, b int }
	counts := map[pair]int{}
	var pairs []pair
	for i := range g.nodes {
		for _, t := range g.nodes[i].softOut {
			p := pair{g.domainOf(i), g.domainOf(t)}
			if p.a == p.b {
				continue
			}
			if counts[p] == 0 {
				pairs = append(pairs, p)
			}
			counts[p]++
		}
	}
	slices.SortFunc(pairs, func(x, y pair) int {
		if x.a != y.a {
			return x.a - y.a
		}
		return x.b - y.b
	})
	for _, p := range pairs {
		n := counts[p]
		from, to := l.pos[p.a], l.pos[p.b]
		w := 1 + math.Log2(float64(n))
		fmt.Fprintf(b, "<line class=\"soft\" x1=\"%s\" y1=\"%s\" x2=\"%s\" y2=\"%s\" stroke-width=\"%s\" marker-end=\"url(#arrow)\"><title>%s</title></line>\n",
			svgNum(from.x), svgNum(from.y), svgNum(shorten(from, to, 19).x), svgNum(shorten(from, to, 19).y), svgNum(w),
			esc(fmt.Sprintf("%s from %s to %s", plural(n, "soft link"), g.nodes[p.a].doc.Title, g.nodes[p.b].doc.Title)))
	}
}

const arrowDefs = "<defs><marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"7\" markerHeight=\"7\" orient=\"auto-start-reverse\"><path d=\"M0,0L10,5L0,10z\" class=\"arrowhead\"/></marker>" +
	"<marker id=\"arrow-back\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"7\" markerHeight=\"7\" orient=\"auto-start-reverse\"><path d=\"M0,0L10,5L0,10z\" class=\"arrowhead-back\"/></marker></defs>\n"

func line(b *strings.Builder, class string, from, to point, title string) {
	b.WriteString("<line class=\"" + class + "\" x1=\"" + svgNum(from.x) + "\" y1=\"" + svgNum(from.y) + "\" x2=\"" + svgNum(to.x) + "\" y2=\"" + svgNum(to.y) + "\"")
	switch {
	case strings.HasPrefix(class, "soft"):
		b.WriteString(" marker-end=\"url(#arrow)\"")
	case strings.HasPrefix(class, "back"):
		b.WriteString(" marker-end=\"url(#arrow-back)\"")
	}
	if title != "" {
		b.WriteString("><title>" + esc(title) + "</title></line>\n")
		return
	}
	b.WriteString("/>\n")
}

// beside moves a line sideways by off (to its right).
func beside(from, to point, off float64) (point, point) {
	dx, dy := to.x-from.x, to.y-from.y
	d := math.Hypot(dx, dy)
	if d == 0 || off == 0 {
		return from, to
	}
	ox, oy := -dy/d*off, dx/d*off
	return point{from.x + ox, from.y + oy}, point{to.x + ox, to.y + oy}
}

// shorten ends a line before a node's circle, so its arrow shows.
func shorten(from, to point, by float64) point {
	dx, dy := to.x-from.x, to.y-from.y
	d := math.Hypot(dx, dy)
	if d <= by {
		return to
	}
	return point{to.x - dx/d*by, to.y - dy/d*by}
}

// mapNode is a linked circle with an accessible name and, when label is
// set, a visible label. The overview's nodes (detailed) also carry their
// description as a tooltip and their path (for tests and scripts).
func (g *siteGraph) mapNode(b *strings.Builder, from string, id int, p point, r float64, class string, label, detailed bool) {
	n := &g.nodes[id]
	if n.doc.Member() {
		class += " member"
	}
	name := n.doc.Title
	b.WriteString("<a href=\"" + g.href(from, id) + "\" aria-label=\"" + esc(name) + "\" class=\"node\"")
	if detailed {
		b.WriteString(" data-path=\"" + esc(n.doc.Path) + "\"")
		if n.doc.Description != "" {
			name += ": " + n.doc.Description
		}
	}
	b.WriteString("><circle class=\"" + class + "\" cx=\"" + svgNum(p.x) + "\" cy=\"" + svgNum(p.y) + "\" r=\"" + svgNum(r) + "\"><title>" + esc(name) + "</title></circle>")
	if label {
		b.WriteString("<text x=\"" + svgNum(p.x) + "\" y=\"" + svgNum(p.y+r+14) + "\" text-anchor=\"middle\" aria-hidden=\"true\">" + esc(shortLabel(n.doc.Title)) + "</text>")
	}
	b.WriteString("</a>\n")
}

func shortLabel(s string) string {
	if utf8.RuneCountInString(s) <= 22 {
		return s
	}
	r := []rune(s)
	return string(r[:21]) + "…"
}

// neighbourhoodSVG draws a page's soft links (arrows out) and backlinks
// (arrows in) around it; "" when it has neither.
func (g *siteGraph) neighbourhoodSVG(id int) string {
	n := &g.nodes[id]
	type neighbour struct {
		id       int
		out, in  bool
		position point
	}
	var ns []neighbour
	index := map[int]int{}
	add := func(t int, out bool) {
		if k, ok := index[t]; ok {
			ns[k].out = ns[k].out || out
			ns[k].in = ns[k].in || !out
			return
		}
		if len(ns) == maxNeighbours {
			return
		}
		index[t] = len(ns)
		ns = append(ns, neighbour{id: t, out: out, in: !out})
	}
	for _, t := range n.softOut {
		add(t, true)
	}
	for _, t := range n.back {
		add(t, false)
	}
	if len(ns) == 0 {
		return ""
	}
	const w, h, rx, ry = 320.0, 250.0, 115.0, 85.0
	centre := point{w / 2, h/2 - 5}
	var b strings.Builder
	fmt.Fprintf(&b, "<svg class=\"neighbourhood-map\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %s %s\" width=\"%s\" height=\"%s\" aria-labelledby=\"nb-title\">\n", svgNum(w), svgNum(h), svgNum(w), svgNum(h))
	b.WriteString("<title id=\"nb-title\">Soft links and backlinks of " + esc(n.doc.Title) + "</title>\n")
	b.WriteString(arrowDefs)
	for k := range ns {
		a := 2*math.Pi*float64(k)/float64(len(ns)) - math.Pi/2
		ns[k].position = point{centre.x + rx*math.Cos(a), centre.y + ry*math.Sin(a)}
	}
	for _, nb := range ns {
		// Both ways: two lines side by side, not one over the other.
		off := 0.0
		if nb.out && nb.in {
			off = 3
		}
		if nb.out {
			a, z := beside(centre, nb.position, off)
			line(&b, "soft", a, shorten(a, z, 9), "")
		}
		if nb.in {
			a, z := beside(nb.position, centre, off)
			line(&b, "back", a, shorten(a, z, 11), "")
		}
	}
	g.mapNode(&b, n.page, id, centre, 9, "doc current", true, false)
	for _, nb := range ns {
		g.mapNode(&b, n.page, nb.id, nb.position, 6, "doc", true, false)
	}
	b.WriteString("</svg>\n")
	return b.String()
}
