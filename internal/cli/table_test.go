package cli

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

// A table wider than the terminal is shortened to fit, its widest columns
// first, each long cell keeping its beginning and its end; one that fits
// is left whole, and one that cannot fit stops at minCellWidth.
func TestFitRows(t *testing.T) {
	snap := "/home/someone/.context-tree/snapshots/acme/handbook/71faace0a944369e80528ca395b4c6dce4777c77/teams/platform"
	exact := "https://github.com/acme/handbook/tree/main/teams/platform"
	rows := [][]string{
		{"TREE", "SYNC", "TREE ROOT"},
		{exact, "unchanged 71faace", snap},
	}
	if got := fitRows(rows, 300, 2); !cmp.Equal(got, rows) {
		t.Errorf("a table that fits was changed: %q", got)
	}
	got := fitRows(rows, 100, 2)
	width := 2 * 2
	for i := range got[1] {
		n := 0
		for _, r := range got {
			n = max(n, utf8.RuneCountInString(r[i]))
		}
		width += n
	}
	if width > 100 {
		t.Errorf("fitted to 100 columns, the table is %d wide: %q", width, got)
	}
	if got[1][1] != "unchanged 71faace" || got[0][2] != "TREE ROOT" {
		t.Errorf("short cells were shortened: %q", got)
	}
	for i, cell := range got[1] {
		whole := rows[1][i]
		before, after, ok := strings.Cut(cell, "…")
		if cell == whole {
			continue
		}
		if !ok || !strings.HasPrefix(whole, before) || !strings.HasSuffix(whole, after) || len(after) < len(before) {
			t.Errorf("cell %q shortened to %q", whole, cell)
		}
	}
	if !strings.HasSuffix(got[1][2], "/teams/platform") {
		t.Errorf("the path lost its end: %q", got[1][2])
	}
	narrow := fitRows(rows, 10, 2)
	for _, cell := range narrow[1] {
		if n := utf8.RuneCountInString(cell); n < minCellWidth && n != len("unchanged 71faace") {
			t.Errorf("cell %q narrower than %d", cell, minCellWidth)
		}
	}
}

func TestElide(t *testing.T) {
	for _, c := range []struct {
		in   string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{"abcdefghijklmnopqrstuvwxyz", 10, "abc…uvwxyz"},
		{"ééééééééééüü", 7, "éé…ééüü"},
	} {
		if got := elide(c.in, c.n); got != c.want || utf8.RuneCountInString(got) > c.n {
			t.Errorf("elide(%q, %d) = %q, want %q", c.in, c.n, got, c.want)
		}
	}
}
