package operations

import (
	"fmt"
	"strings"

	"github.com/sergi/go-diff/diffmatchpatch"
)

// diffContext is how many unchanged lines surround a change, as in git.
const diffContext = 3

// diffLine is one line of a line diff: ' ' kept, '-' removed, '+' added.
type diffLine struct {
	op   byte
	text string // with its line terminator, if it has one
}

// unifiedDiff renders the change of one file as a unified diff that patch
// and git apply accept: a/<name> and b/<name>, /dev/null for a new file.
func unifiedDiff(name string, old, new []byte, create bool) string {
	lines := lineDiff(string(old), string(new))
	var b strings.Builder
	if create {
		fmt.Fprintf(&b, "--- /dev/null\n+++ b/%s\n", name)
	} else {
		fmt.Fprintf(&b, "--- a/%s\n+++ b/%s\n", name, name)
	}
	oldLine, newLine := 1, 1 // line numbers at lines[i]
	for i := 0; i < len(lines); {
		if lines[i].op == ' ' {
			oldLine, newLine, i = oldLine+1, newLine+1, i+1
			continue
		}
		start := max(0, i-diffContext)
		end := hunkEnd(lines, i)
		// Line numbers at start: back off over the leading context.
		os, ns := oldLine-(i-start), newLine-(i-start)
		var ol, nl int
		var body strings.Builder
		for _, l := range lines[start:end] {
			if l.op != '+' {
				ol++
			}
			if l.op != '-' {
				nl++
			}
			body.WriteByte(l.op)
			body.WriteString(l.text)
			if !strings.HasSuffix(l.text, "\n") {
				body.WriteString("\n\\ No newline at end of file\n")
			}
		}
		fmt.Fprintf(&b, "@@ -%s +%s @@\n%s", hunkRange(os, ol), hunkRange(ns, nl), body.String())
		for _, l := range lines[i:end] {
			if l.op != '+' {
				oldLine++
			}
			if l.op != '-' {
				newLine++
			}
		}
		i = end
	}
	return b.String()
}

// hunkEnd is where the hunk holding the change at i ends: changes closer
// than twice the context share one hunk.
func hunkEnd(lines []diffLine, i int) int {
	last := i
	for j := i; j < len(lines) && j <= last+2*diffContext; j++ {
		if lines[j].op != ' ' {
			last = j
		}
	}
	return min(len(lines), last+1+diffContext)
}

// hunkRange is "start,count" as unified diffs write it: an empty range
// names the line before it.
func hunkRange(start, count int) string {
	if count == 0 {
		start--
	}
	if count == 1 {
		return fmt.Sprint(start)
	}
	return fmt.Sprintf("%d,%d", start, count)
}

// lineDiff diffs two texts line by line.
func lineDiff(old, new string) []diffLine {
	dmp := diffmatchpatch.New()
	a, b, table := dmp.DiffLinesToChars(old, new)
	diffs := dmp.DiffCharsToLines(dmp.DiffMain(a, b, false), table)
	var lines []diffLine
	for _, d := range diffs {
		op := byte(' ')
		switch d.Type {
		case diffmatchpatch.DiffDelete:
			op = '-'
		case diffmatchpatch.DiffInsert:
			op = '+'
		}
		for t := d.Text; t != ""; {
			i := strings.IndexByte(t, '\n') + 1
			if i == 0 {
				i = len(t)
			}
			lines = append(lines, diffLine{op: op, text: t[:i]})
			t = t[i:]
		}
	}
	return lines
}
