package cli

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// table prints rows of cells: on a terminal, aligned columns under a
// header; in a pipe, one tab-separated line per row and no header, the
// stable form scripts read (cells never hold tabs or newlines: they are
// quoted first).
type table struct {
	w      io.Writer
	header []string
	rows   [][]string
}

func (c *Context) newTable(header ...string) *table {
	return &table{w: c.Stdout, header: header}
}

func (t *table) add(cells ...string) { t.rows = append(t.rows, cells) }

func (t *table) print() {
	if !isTerminal(t.w) {
		for _, r := range t.rows {
			fmt.Fprintln(t.w, strings.Join(r, "\t"))
		}
		return
	}
	if len(t.rows) == 0 {
		return
	}
	tw := tabwriter.NewWriter(t.w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, strings.Join(t.header, "\t"))
	for _, r := range t.rows {
		fmt.Fprintln(tw, strings.Join(r, "\t"))
	}
	tw.Flush()
}
