package cli

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"unicode/utf8"

	"golang.org/x/term"

	"github.com/git-context-tree/git-context-tree/internal/redact"
)

// table prints rows of cells: on a terminal, aligned columns under a
// header, long cells shortened to fit the terminal's width (fitRows); in a
// pipe, one tab-separated line per row and no header, the
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
	rows := append([][]string{t.header}, t.rows...)
	if width := terminalWidth(t.w); width > 0 {
		rows = fitRows(rows, width, tableGap)
	}
	tw := tabwriter.NewWriter(t.w, 0, 0, tableGap, ' ', 0)
	for _, r := range rows {
		fmt.Fprintln(tw, strings.Join(r, "\t"))
	}
	tw.Flush()
}

// tableGap is the spaces between a terminal table's columns.
const tableGap = 2

// terminalWidth is the width of the terminal w writes to (0: unknown).
func terminalWidth(w io.Writer) int {
	f, ok := redact.Raw(w).(interface{ Fd() uintptr })
	if !ok {
		return 0
	}
	width, _, err := term.GetSize(int(f.Fd()))
	if err != nil {
		return 0
	}
	return width
}

// minCellWidth is how narrow fitRows makes a column before it gives up
// (a table that cannot fit then wraps, as it did before).
const minCellWidth = 16

// fitRows shortens cells so that the rows, aligned with gap spaces between
// columns, fit in width: the widest column is narrowed first, a column to
// no less than minCellWidth, and a cell too long for its column keeps its
// beginning and, longer, its end (a path's last segments, a selector's
// branch and subtree) around "…". Only what a person sees on a terminal is
// shortened: pipes and --json keep every cell whole.
func fitRows(rows [][]string, width, gap int) [][]string {
	var limit []int
	for _, r := range rows {
		for i, cell := range r {
			if i == len(limit) {
				limit = append(limit, 0)
			}
			limit[i] = max(limit[i], utf8.RuneCountInString(cell))
		}
	}
	total := gap * max(len(limit)-1, 0)
	for _, l := range limit {
		total += l
	}
	for total > width {
		widest := -1
		for i, l := range limit {
			if l > minCellWidth && (widest < 0 || l > limit[widest]) {
				widest = i
			}
		}
		if widest < 0 {
			break
		}
		limit[widest]--
		total--
	}
	out := make([][]string, len(rows))
	for j, r := range rows {
		out[j] = make([]string, len(r))
		for i, cell := range r {
			out[j][i] = elide(cell, limit[i])
		}
	}
	return out
}

// elide shortens s to n characters, keeping a third of what stays from its
// beginning and the rest from its end around "…".
func elide(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	head := (n - 1) / 3
	tail := n - 1 - head
	return string(r[:head]) + "…" + string(r[len(r)-tail:])
}
