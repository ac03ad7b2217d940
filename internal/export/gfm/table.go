package gfm

import (
	"bytes"

	gast "github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// tableParagraphs turns a paragraph into a table from its first line
// that is a delimiter row ("| --- | :-: |") under a header row with as
// many cells; the lines before the header stay a paragraph.
type tableParagraphs struct{}

func (tableParagraphs) Transform(node *gast.Paragraph, reader text.Reader, pc parser.Context) {
	lines := node.Lines()
	for i := 1; i < lines.Len(); i++ {
		seg := lines.At(i)
		alignments := delimiterRow(seg.Value(reader.Source()))
		if alignments == nil {
			continue
		}
		header := tableRow(lines.At(i-1), alignments, true, reader, pc)
		if header == nil || header.ChildCount() != len(alignments) {
			return
		}
		table := ast.NewTable()
		table.Alignments = alignments
		table.SetPos(node.Pos())
		table.AppendChild(table, ast.NewTableHeader(header))
		for j := i + 1; j < lines.Len(); j++ {
			table.AppendChild(table, tableRow(lines.At(j), alignments, false, reader, pc))
		}
		lines.SetSliced(0, i-1)
		node.Parent().InsertAfter(node.Parent(), node, table)
		if lines.Len() == 0 {
			node.Parent().RemoveChild(node.Parent(), node)
			return
		}
		last := lines.At(i - 2)
		last.Stop-- // the paragraph's last line loses its newline
		lines.Set(i-2, last)
		return
	}
}

// delimiterRow is the alignments of a delimiter row, or nil when line is
// not one: at most three spaces of indent, only spaces, '-', '|' and
// ':', not only '-', and every cell dashes with optional colons.
func delimiterRow(line []byte) []ast.Alignment {
	if w, _ := util.IndentWidth(line, 0); w > 3 {
		return nil
	}
	onlyDashes := true
	for _, b := range line {
		if b != '-' {
			onlyDashes = false
		}
		if !util.IsSpace(b) && b != '-' && b != '|' && b != ':' {
			return nil
		}
	}
	if onlyDashes {
		return nil
	}
	cells := bytes.Split(line, []byte{'|'})
	if util.IsBlank(cells[0]) {
		cells = cells[1:]
	}
	if len(cells) > 0 && util.IsBlank(cells[len(cells)-1]) {
		cells = cells[:len(cells)-1]
	}
	var alignments []ast.Alignment
	for _, cell := range cells {
		a, ok := cellAlignment(cell)
		if !ok {
			return nil
		}
		alignments = append(alignments, a)
	}
	return alignments
}

// cellAlignment reads one delimiter cell: spaces, an optional colon, at
// least one dash, an optional colon, spaces.
func cellAlignment(cell []byte) (ast.Alignment, bool) {
	c := bytes.TrimFunc(cell, func(r rune) bool { return r < 0x80 && isRegexpSpace(byte(r)) })
	left := len(c) > 0 && c[0] == ':'
	if left {
		c = c[1:]
	}
	right := len(c) > 0 && c[len(c)-1] == ':'
	if right {
		c = c[:len(c)-1]
	}
	if len(c) == 0 || len(bytes.Trim(c, "-")) != 0 {
		return ast.AlignNone, false
	}
	switch {
	case left && right:
		return ast.AlignCenter, true
	case left:
		return ast.AlignLeft, true
	case right:
		return ast.AlignRight, true
	}
	return ast.AlignNone, true
}

// tableRow splits a row into cells at pipes a backslash does not escape.
// A body row's cells beyond the header's are dropped and missing ones
// added empty; a header keeps them all (and the caller refuses it).
// Escaped pipes in a cell that has a backtick before them are recorded
// for escapedPipes, since a code span keeps its backslashes.
func tableRow(segment text.Segment, alignments []ast.Alignment, header bool, reader text.Reader, pc parser.Context) *ast.TableRow {
	source := reader.Source()
	whole := segment
	segment = segment.TrimLeftSpace(source)
	segment = segment.TrimRightSpace(source)
	line := segment.Value(source)
	row := ast.NewTableRow(alignments)
	row.SetPos(whole.Start)
	pos, limit := 0, len(line)
	if limit > 0 && line[0] == '|' {
		pos++
	}
	if limit > 0 && line[limit-1] == '|' {
		limit--
	}
	i := 0
	for ; pos < limit; i++ {
		alignment := ast.AlignNone
		if i < len(alignments) {
			alignment = alignments[i]
		} else if !header {
			return row
		}
		cell := ast.NewTableCell()
		cell.SetPos(whole.Start + pos - whole.Padding) // as goldmark: pos counts from the trimmed line
		cell.Alignment = alignment
		var escaped *escapedPipeCell
		backtick := false
		end := pos
		for ; end < limit; end++ {
			if line[end] == '`' {
				backtick = true
			}
			if line[end] != '|' {
				continue
			}
			if end == 0 || line[end-1] != '\\' {
				break
			}
			if backtick {
				if escaped == nil {
					escaped = &escapedPipeCell{cell: cell}
					pc.Set(escapedPipeCellsKey, append(escapedPipeCells(pc), escaped))
				}
				escaped.backslashes = append(escaped.backslashes, segment.Start+end-1)
			}
		}
		content := text.NewSegment(segment.Start+pos, segment.Start+end)
		content = content.TrimLeftSpace(source)
		content = content.TrimRightSpace(source)
		cell.Lines().Append(content)
		row.AppendChild(row, cell)
		pos = end + 1
	}
	for ; i < len(alignments); i++ {
		row.AppendChild(row, ast.NewTableCell())
	}
	return row
}
