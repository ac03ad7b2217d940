package tree

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"unicode"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
)

// Anchors and wikilinks, for verify --links (issue 32): the ids a
// document's headings get on GitHub (its slug rules, a repeated heading
// suffixed -1, -2, …; an explicit {#id} wins), the ids and names of its
// HTML elements, and the [[wikilinks]] written outside code.

// Slug is GitHub's id of a heading: lowercase, characters other than
// letters, marks, numbers, '_', '-' and spaces removed, spaces turned
// into '-'.
func Slug(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(heading)) {
		switch {
		case unicode.IsLetter(r) || unicode.IsMark(r) || unicode.IsNumber(r) || r == '_' || r == '-':
			b.WriteRune(r)
		case r == ' ':
			b.WriteByte('-')
		}
	}
	return b.String()
}

var (
	explicitID = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\s*\{#([^\s}]+)\}\s*$`) })
	htmlAnchor = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)<[a-z][a-z0-9]*\s[^>]*?\b(?:id|name)\s*=\s*["']([^"']+)["']`)
	})
	wikilink = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\[\[([^\[\]\n|]+?)(?:\|([^\[\]\n]*))?\]\]`) })
)

// Wikilink is one [[target#heading|label]] of a body.
type Wikilink struct {
	Target     string // page title or file name, as written
	Heading    string // after '#', "" for none
	Label      string // after '|', "" for none
	Line       int    // 1-based line within the body
	Text       string // the whole link as written
	Start, End int    // its byte offsets in the body
}

// BodyAnchors returns the anchors of a document body and its wikilinks.
func (x *LinkExtractor) BodyAnchors(src []byte) (anchors []string, wikilinks []Wikilink) {
	doc := x.parser.Parse(text.NewReader(src))
	seen := map[string]int{}
	masked := bytes.Clone(src)
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch v := n.(type) {
		case *ast.Heading:
			title := headingText(v, src)
			if m := explicitID().FindStringSubmatch(title); m != nil {
				anchors = append(anchors, m[1])
				title = title[:len(title)-len(m[0])]
			}
			slug := Slug(title)
			if k := seen[slug]; k > 0 {
				anchors = append(anchors, fmt.Sprintf("%s-%d", slug, k))
			} else {
				anchors = append(anchors, slug)
			}
			seen[slug]++
		case *ast.FencedCodeBlock, *ast.CodeBlock:
			lines := n.Lines()
			for i := 0; i < lines.Len(); i++ {
				blank(masked, lines.At(i).Start, lines.At(i).Stop)
			}
		case *ast.CodeSpan:
			for c := v.FirstChild(); c != nil; c = c.NextSibling() {
				if t, ok := c.(*ast.Text); ok {
					blank(masked, t.Segment.Start, t.Segment.Stop)
				}
			}
		}
		return ast.WalkContinue, nil
	})
	for _, m := range htmlAnchor().FindAllSubmatch(masked, -1) {
		anchors = append(anchors, string(m[1]))
	}
	for _, loc := range wikilink().FindAllSubmatchIndex(masked, -1) {
		target := strings.TrimSpace(string(masked[loc[2]:loc[3]]))
		w := Wikilink{Line: lineAt(src, loc[0]), Text: string(src[loc[0]:loc[1]]), Start: loc[0], End: loc[1]}
		if loc[4] >= 0 {
			w.Label = strings.TrimSpace(string(src[loc[4]:loc[5]]))
		}
		w.Target, w.Heading, _ = strings.Cut(target, "#")
		w.Target, w.Heading = strings.TrimSpace(w.Target), strings.TrimSpace(w.Heading)
		wikilinks = append(wikilinks, w)
	}
	return anchors, wikilinks
}

// headingText is a heading's text as a reader sees it (code spans and
// emphasis reduced to their text).
func headingText(h *ast.Heading, src []byte) string {
	var b strings.Builder
	_ = ast.Walk(h, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if entering {
			switch v := n.(type) {
			case *ast.Text:
				b.Write(v.Segment.Value(src))
			case *ast.String:
				b.Write(v.Value)
			}
		}
		return ast.WalkContinue, nil
	})
	return b.String()
}

func blank(b []byte, from, to int) {
	for i := from; i < to && i < len(b); i++ {
		if b[i] != '\n' {
			b[i] = ' '
		}
	}
}
