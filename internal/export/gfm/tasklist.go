package gfm

import (
	gast "github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// taskCheckBoxParser reads "[ ]" or "[x]" opening a list item's first
// paragraph as a check box.
type taskCheckBoxParser struct{}

func (taskCheckBoxParser) Trigger() []byte { return []byte{'['} }

func (taskCheckBoxParser) Parse(parent gast.Node, block text.Reader, _ parser.Context) gast.Node {
	item := parent.Parent()
	if item == nil || item.FirstChild() != parent || parent.HasChildren() {
		return nil
	}
	if _, ok := item.(*gast.ListItem); !ok {
		return nil
	}
	line, _ := block.PeekLine()
	if len(line) < 3 || line[0] != '[' || line[2] != ']' {
		return nil
	}
	mark := line[1]
	if mark != 'x' && mark != 'X' && !isRegexpSpace(mark) {
		return nil
	}
	n := 3
	for n < len(line) && isRegexpSpace(line[n]) {
		n++
	}
	block.Advance(n)
	return ast.NewTaskCheckBox(mark == 'x' || mark == 'X')
}

func (taskCheckBoxParser) CloseBlock(gast.Node, parser.Context) {}

// isRegexpSpace is Go regexp's \s: tab, newline, form feed, carriage
// return and space (not vertical tab), what goldmark's task list accepts.
func isRegexpSpace(b byte) bool {
	return b == ' ' || b == '\t' || b == '\n' || b == '\f' || b == '\r'
}
