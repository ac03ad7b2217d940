// Package gfm is GitHub's Markdown extensions for goldmark, as the site
// export renders them: tables, strikethrough, task lists and bare URLs
// and e-mail addresses made links.
//
// goldmark ships these in its extension package, whose package variables
// compile its bare-URL patterns (a repetition of 256) when any program that
// links it starts: 3 ms and about 200 page faults, a sixth of every
// git-context-tree process's start, commands that never export a site
// included. This package builds the same nodes (goldmark's extension/ast
// types) and the same HTML with no work at start; its tests hold it to
// goldmark's extension package, which only the tests link.
package gfm

import (
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/util"
)

// Extension adds the four extensions to a goldmark.Markdown, with the
// priorities goldmark's own give them, so they interleave with the core
// parsers the same way.
type Extension struct{}

func (Extension) Extend(m goldmark.Markdown) {
	m.Parser().AddOptions(
		parser.WithParagraphTransformers(util.Prioritized(tableParagraphs{}, 200)),
		parser.WithASTTransformers(util.Prioritized(escapedPipes{}, 0)),
		parser.WithInlineParsers(
			util.Prioritized(strikethroughParser{}, 500),
			util.Prioritized(taskCheckBoxParser{}, 0),
			util.Prioritized(linkifyParser{}, 999),
		),
	)
	m.Renderer().AddOptions(renderer.WithNodeRenderers(util.Prioritized(htmlRenderer{}, 500)))
}
