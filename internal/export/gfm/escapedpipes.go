package gfm

import (
	gast "github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// escapedPipeCell is a table cell whose text held "\|" after a backtick:
// backslashes are the source offsets of those backslashes.
type escapedPipeCell struct {
	cell        *ast.TableCell
	backslashes []int
	done        bool
}

var escapedPipeCellsKey = parser.NewContextKey()

func escapedPipeCells(pc parser.Context) []*escapedPipeCell {
	cells, _ := pc.Get(escapedPipeCellsKey).([]*escapedPipeCell)
	return cells
}

// escapedPipes removes, inside code spans of table cells, the backslash
// of each "\|": the pipe was escaped only to stay in its cell, and a code
// span would otherwise show the backslash (GitHub shows "|").
type escapedPipes struct{}

func (escapedPipes) Transform(_ *gast.Document, _ text.Reader, pc parser.Context) {
	cells := escapedPipeCells(pc)
	if cells == nil {
		return
	}
	pc.Set(escapedPipeCellsKey, nil)
	for _, c := range cells {
		if c.done {
			continue
		}
		_ = gast.Walk(c.cell, func(n gast.Node, entering bool) (gast.WalkStatus, error) {
			if entering && n.Kind() == gast.KindCodeSpan {
				dropBackslashes(n, cells)
			}
			return gast.WalkContinue, nil
		})
	}
}

// dropBackslashes splits the code span's texts around every recorded
// backslash, leaving it out.
func dropBackslashes(span gast.Node, cells []*escapedPipeCell) {
	for child := span.FirstChild(); child != nil; {
		next := child.NextSibling()
		t, ok := child.(*gast.Text)
		if !ok {
			child = next
			continue
		}
		current := gast.Node(t)
		from, to := t.Segment.Start, t.Segment.Stop
		for _, c := range cells {
			for _, at := range c.backslashes {
				if at < from || at >= to {
					continue
				}
				seg := current.(*gast.Text).Segment
				before := gast.NewRawTextSegment(seg.WithStop(at))
				after := gast.NewRawTextSegment(seg.WithStart(at + 1))
				span.InsertAfter(span, current, before)
				span.InsertAfter(span, before, after)
				span.RemoveChild(span, current)
				current = after
				c.done = true
			}
		}
		child = next
	}
}
