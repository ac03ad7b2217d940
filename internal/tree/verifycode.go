package tree

import "bytes"

// outsideCodeMayEscape is linksMayEscape's second look at a body some line
// of which may escape: it checks with lineMayEscape only the text that
// CommonMark might read a link destination from, skipping what its block
// structure provably makes code or plain text:
//
//   - the lines of a fenced code block opened at the start of a line;
//   - the lines of an indented code block (after a blank line, an ATX
//     heading or another code block, outside any list);
//   - in a paragraph of plain lines, the text before its first ']' outside
//     code spans: a destination follows "](", a reference definition
//     starts its paragraph and an autolink starts with '<'.
//
// The scan models only what it needs and proves nothing past a line it
// does not model (a block quote, an HTML block, any indentation of one to
// three spaces, a control character): from there every line is checked.
// It is held to the link extractor by the same differential tests as
// linksMayEscape.
func outsideCodeMayEscape(body []byte, depth int) bool {
	for _, c := range body {
		// Tabs, carriage returns and form feeds change what is indented,
		// blank or a line for goldmark: not modelled.
		if c < ' ' && c != '\n' || c == 0x7f {
			return true
		}
	}
	const (
		normal = iota
		fenced
		indented
	)
	mode := normal
	var fenceChar byte
	fenceLen := 0
	// boundary: the line before ended a block, so a line at the margin
	// starts a new one (no paragraph or list item continues lazily);
	// listOpen: a list item may be open, which would take an indented line.
	boundary, listOpen := true, false
	for pos := 0; pos < len(body); {
		line, next := body[pos:], len(body)
		if k := bytes.IndexByte(line, '\n'); k >= 0 {
			line, next = line[:k], pos+k+1
		}
		indent := 0
		for indent < len(line) && line[indent] == ' ' {
			indent++
		}
		blank := indent == len(line)
		switch mode {
		case fenced:
			if indent <= 3 && !blank && closesFence(line[indent:], fenceChar, fenceLen) {
				mode, boundary = normal, true
			}
			pos = next
			continue
		case indented:
			if blank || indent >= 4 {
				pos = next
				continue
			}
			mode = normal // boundary is still true
		}
		if blank {
			boundary = true
			pos = next
			continue
		}
		rest := line[indent:]
		c := rest[0]
		switch {
		case indent >= 4:
			if boundary && !listOpen {
				mode = indented
				pos = next
				continue
			}
			// A paragraph's or a list item's continuation.
		case indent > 0 || c == '>' || c == '<':
			return anyLineMayEscape(body[pos:], depth)
		case (c == '`' || c == '~') && runOf(rest, c) >= 3 && !opensFence(rest, c):
			return anyLineMayEscape(body[pos:], depth) // "```a`": left to goldmark
		case (c == '`' || c == '~') && opensFence(rest, c):
			// At the margin a fence is never a paragraph's lazy
			// continuation: it closes every open list item.
			mode, fenceChar, fenceLen, listOpen = fenced, c, runOf(rest, c), false
			pos = next
			continue
		case c == '#' && atxHeading(rest):
			if lineMayEscape(line, depth) {
				return true
			}
			boundary, listOpen = true, false
			pos = next
			continue
		case boundary && !blockMarker(c) && c != '[':
			// A paragraph at the margin: any list is closed.
			listOpen = false
			if end, plain := plainParagraph(body, pos); plain {
				if paragraphMayEscape(body[pos:end], depth) {
					return true
				}
				pos = end // a blank line or the end
				continue
			}
		case c == '-' || c == '*' || c == '+' || c >= '0' && c <= '9':
			listOpen = true // or a thematic break or setext underline
		}
		if lineMayEscape(line, depth) {
			return true
		}
		boundary = false
		pos = next
	}
	return false
}

// blockMarker reports a character that may start a block other than a
// paragraph, or interrupt one, as a line's first non-space character.
func blockMarker(c byte) bool {
	switch c {
	case '#', '>', '<', '-', '*', '+', '_', '=', '`', '~':
		return true
	}
	return c >= '0' && c <= '9'
}

// runOf is the length of the run of c that starts s.
func runOf(s []byte, c byte) int {
	n := 0
	for n < len(s) && s[n] == c {
		n++
	}
	return n
}

// opensFence reports a fenced code block's opening line (s at the margin,
// starting with c).
func opensFence(s []byte, c byte) bool {
	n := runOf(s, c)
	return n >= 3 && (c == '~' || bytes.IndexByte(s[n:], '`') < 0)
}

// closesFence reports the closing line of a fence of n c's (s after at
// most three spaces).
func closesFence(s []byte, c byte, n int) bool {
	m := runOf(s, c)
	return m >= n && isBlank(s[m:])
}

// atxHeading reports an ATX heading line (s at the margin).
func atxHeading(s []byte) bool {
	n := runOf(s, '#')
	return n <= 6 && (n == len(s) || s[n] == ' ')
}

// plainParagraph finds the end of the paragraph whose first line starts at
// body[pos] (at the margin, after a block's end, not a block marker): the
// start of the next blank line, or the end of body. plain reports that no
// line of it may start or interrupt a block or holds '<' or '\\', so that
// CommonMark reads its inline content from exactly these lines, with no
// raw HTML, autolink or escaped backtick.
func plainParagraph(body []byte, pos int) (end int, plain bool) {
	first := true
	for pos < len(body) {
		line, next := body[pos:], len(body)
		if k := bytes.IndexByte(line, '\n'); k >= 0 {
			line, next = line[:k], pos+k+1
		}
		t := bytes.TrimLeft(line, " ")
		if len(t) == 0 {
			return pos, true
		}
		if !first && blockMarker(t[0]) || bytes.IndexByte(line, '<') >= 0 || bytes.IndexByte(line, '\\') >= 0 {
			return pos, false
		}
		first = false
		pos = next
	}
	return pos, true
}

// paragraphMayEscape checks a plain paragraph (plainParagraph): no link
// destination starts before its first ']' outside code spans, so only the
// text from there is checked.
func paragraphMayEscape(para []byte, depth int) bool {
	i := 0
	for {
		k := bytes.IndexAny(para[i:], "`]")
		if k < 0 {
			return false // no link at all
		}
		i += k
		if para[i] == ']' {
			break
		}
		// A code span runs to the next run of as many backticks; an
		// opening run with none is literal.
		n := runOf(para[i:], '`')
		j := i + n
		i = j
		for {
			k := bytes.IndexByte(para[j:], '`')
			if k < 0 {
				break
			}
			j += k
			m := runOf(para[j:], '`')
			j += m
			if m == n {
				i = j
				break
			}
		}
	}
	// Check the rest of the line from the ']' (lineMayEscape reads a cut
	// line as if a destination might start at its cut), then every
	// following line.
	for rest := para[i:]; len(rest) > 0; {
		line := rest
		rest = nil
		if k := bytes.IndexByte(line, '\n'); k >= 0 {
			line, rest = line[:k], line[k+1:]
		}
		if lineMayEscape(line, depth) {
			return true
		}
	}
	return false
}
