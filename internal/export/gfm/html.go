package gfm

import (
	gast "github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/util"
)

// htmlRenderer writes the extensions' nodes as goldmark's extension does
// by default (HTML5, cell alignment as a style; the site sets no
// attributes on these nodes). Bare-URL links are core AutoLink nodes,
// which the core renderer (or the site's) writes.
type htmlRenderer struct{}

func (htmlRenderer) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(ast.KindStrikethrough, renderStrikethrough)
	reg.Register(ast.KindTaskCheckBox, renderTaskCheckBox)
	reg.Register(ast.KindTable, renderTable)
	reg.Register(ast.KindTableHeader, renderTableHeader)
	reg.Register(ast.KindTableRow, renderTableRow)
	reg.Register(ast.KindTableCell, renderTableCell)
}

func write(w util.BufWriter, s string) { _, _ = w.WriteString(s) }

func renderStrikethrough(w util.BufWriter, _ []byte, _ gast.Node, entering bool) (gast.WalkStatus, error) {
	if entering {
		write(w, "<del>")
	} else {
		write(w, "</del>")
	}
	return gast.WalkContinue, nil
}

func renderTaskCheckBox(w util.BufWriter, _ []byte, n gast.Node, entering bool) (gast.WalkStatus, error) {
	if !entering {
		return gast.WalkContinue, nil
	}
	if n.(*ast.TaskCheckBox).IsChecked {
		write(w, `<input checked="" disabled="" type="checkbox"> `)
	} else {
		write(w, `<input disabled="" type="checkbox"> `)
	}
	return gast.WalkContinue, nil
}

func renderTable(w util.BufWriter, _ []byte, _ gast.Node, entering bool) (gast.WalkStatus, error) {
	if entering {
		write(w, "<table>\n")
	} else {
		write(w, "</table>\n")
	}
	return gast.WalkContinue, nil
}

// renderTableHeader writes the header row's <tr> itself (the header has
// no row node of its own) and opens the body when rows follow.
func renderTableHeader(w util.BufWriter, _ []byte, n gast.Node, entering bool) (gast.WalkStatus, error) {
	if entering {
		write(w, "<thead>\n<tr>\n")
		return gast.WalkContinue, nil
	}
	write(w, "</tr>\n</thead>\n")
	if n.NextSibling() != nil {
		write(w, "<tbody>\n")
	}
	return gast.WalkContinue, nil
}

func renderTableRow(w util.BufWriter, _ []byte, n gast.Node, entering bool) (gast.WalkStatus, error) {
	if entering {
		write(w, "<tr>\n")
		return gast.WalkContinue, nil
	}
	write(w, "</tr>\n")
	if n.Parent().LastChild() == n {
		write(w, "</tbody>\n")
	}
	return gast.WalkContinue, nil
}

func renderTableCell(w util.BufWriter, _ []byte, node gast.Node, entering bool) (gast.WalkStatus, error) {
	n := node.(*ast.TableCell)
	tag := "td"
	if n.Parent().Kind() == ast.KindTableHeader {
		tag = "th"
	}
	if !entering {
		write(w, "</"+tag+">\n")
		return gast.WalkContinue, nil
	}
	write(w, "<"+tag)
	if n.Alignment != ast.AlignNone {
		write(w, ` style="text-align:`+n.Alignment.String()+`"`)
	}
	write(w, ">")
	return gast.WalkContinue, nil
}
