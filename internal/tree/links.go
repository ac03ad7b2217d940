package tree

import (
	"bytes"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// Link is a Markdown link, image or reference definition destination.
type Link struct {
	// Destination is the destination as CommonMark reads it: backslash
	// escapes and entity references resolved ("\.\./x" and "&#46;&#46;/x"
	// are both "../x"), percent-encoding left for ResolveTarget.
	Destination string
	Line        int // 1-based line within the parsed text, 0 when unknown
}

// LinkExtractor finds link destinations with a CommonMark parser, so links
// in code spans and code blocks are not links. One extractor must not be
// used by two goroutines at once.
type LinkExtractor struct {
	parser parser.Parser
}

// NewLinkExtractor returns an extractor with goldmark's CommonMark parser,
// whose autolinks record where they start.
func NewLinkExtractor() *LinkExtractor {
	inlines := parser.DefaultInlineParsers()
	for i, p := range inlines {
		if p.Value == parser.NewAutoLinkParser() {
			inlines[i].Value = positionedAutoLinks{p.Value.(parser.InlineParser)}
		}
	}
	return &LinkExtractor{parser: parser.NewParser(
		parser.WithBlockParsers(parser.DefaultBlockParsers()...),
		parser.WithInlineParsers(inlines...),
		parser.WithParagraphTransformers(parser.DefaultParagraphTransformers()...),
	)}
}

// positionedAutoLinks is goldmark's autolink parser, also setting the
// node's position, which goldmark leaves unset for autolinks.
type positionedAutoLinks struct{ parser.InlineParser }

func (p positionedAutoLinks) Parse(parent ast.Node, block text.Reader, pc parser.Context) ast.Node {
	_, seg := block.Position()
	n := p.InlineParser.Parse(parent, block, pc)
	if n != nil {
		n.SetPos(seg.Start)
	}
	return n
}

// Extract returns every inline link, image, reference definition and URL
// autolink ("<scheme:...>") in src. Links that use a reference definition
// are reported once, at the definition. An autolink's destination is its
// text as written: CommonMark resolves no escapes or entities in it.
func (x *LinkExtractor) Extract(src []byte) []Link {
	doc := x.parser.Parse(text.NewReader(src))
	var links []Link
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch v := n.(type) {
		case *ast.Link:
			if v.Reference == nil {
				links = append(links, newLink(src, v.Destination, v.Pos()))
			}
		case *ast.Image:
			if v.Reference == nil {
				links = append(links, newLink(src, v.Destination, v.Pos()))
			}
		case *ast.LinkReferenceDefinition:
			links = append(links, newLink(src, v.Destination, v.Pos()))
		case *ast.AutoLink:
			if v.AutoLinkType == ast.AutoLinkURL {
				links = append(links, Link{Destination: string(v.URL(src)), Line: lineAt(src, v.Pos())})
			}
		}
		return ast.WalkContinue, nil
	})
	return links
}

func newLink(src, dest []byte, pos int) Link {
	d := util.UnescapePunctuations(dest)
	d = util.ResolveNumericReferences(d)
	d = util.ResolveEntityNames(d)
	return Link{Destination: string(d), Line: lineAt(src, pos)}
}

func lineAt(src []byte, pos int) int {
	if pos < 0 || pos > len(src) {
		return 0
	}
	return bytes.Count(src[:pos], []byte("\n")) + 1
}
