package gfm

import (
	gast "github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// strikethroughParser reads ~text~ and ~~text~~: runs of one or two
// tildes are delimiters paired like emphasis; longer runs are text.
type strikethroughParser struct{}

func (strikethroughParser) Trigger() []byte { return []byte{'~'} }

func (strikethroughParser) Parse(_ gast.Node, block text.Reader, pc parser.Context) gast.Node {
	before := block.PrecendingCharacter()
	line, segment := block.PeekLine()
	d := parser.ScanDelimiter(line, before, 1, tildes{})
	if d == nil || d.OriginalLength > 2 || before == '~' {
		return nil
	}
	d.Segment = segment.WithStop(segment.Start + d.OriginalLength)
	block.Advance(d.OriginalLength)
	pc.PushDelimiter(d)
	return d
}

func (strikethroughParser) CloseBlock(gast.Node, parser.Context) {}

// tildes pairs tilde delimiters into strikethrough nodes.
type tildes struct{}

func (tildes) IsDelimiter(b byte) bool { return b == '~' }

func (tildes) CanOpenCloser(opener, closer *parser.Delimiter) bool {
	return opener.Char == closer.Char
}

func (tildes) OnMatch(int) gast.Node { return ast.NewStrikethrough() }
