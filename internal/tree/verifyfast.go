package tree

// Fast paths for Verify. Each one decides only the cases it can prove and
// hands every other document to ParseDocument and the CommonMark link
// extractor, so Verify's findings are the same either way; the fast paths
// only decide how much work a clean, ordinary document costs.
// verifyfast_test.go compares both paths on generated and mutated documents.

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"unicode/utf8"
)

// linksMayEscape reports whether some Markdown link, image, reference
// definition or autolink in body might have a destination that leaves the
// tree, for a document whose directory is depth levels below the root.
// false proves that none does, so the body need not be parsed at all.
//
// The proof rests on how destinations are read: a CommonMark destination
// lies within one line, starts after "(", ":" (a reference definition), "<"
// or whitespace, and is the source text itself unless the line holds a
// backslash escape or an entity reference; ResolveTarget then trims
// whitespace (ASCII, or Unicode, whose UTF-8 bytes are all >= 0x80), cuts
// the path at '?' or '#' and percent-decodes. On a line without '\\', '&'
// or '%', a destination can therefore only escape by being a file: URL
// (an autolink "<file:...>" included), through a drive letter ("C:",
// "/C:") or through ".." segments that climb above the root (a rooted
// "/..." path) or above the document's directory (a relative path).
// lineMayEscape tries every place a destination may start, reading all of
// the rest of the line as the path: a destination is a prefix of it, and a
// climb within a prefix is a climb of the whole.
func linksMayEscape(body []byte, depth int) bool {
	return markersMayEscape(body, depth) && anyLineMayEscape(body, depth) && outsideCodeMayEscape(body, depth)
}

// markersMayEscape is linksMayEscape's first look, which reads only where
// a destination the link extractor reports can lie: right after "](" (an
// inline link or image), after "]:" (a reference definition), each past
// optional spaces or tabs, or from a "<" (an autolink, or a destination
// written "<...>"); CommonMark has no other. On a body without '\', '&'
// or '%' the destination is its source text, which ends before the first
// space, tab or line end, or at the '>' of the "<...>" form, so
// lineMayEscape of that stretch decides it. A destination that may start
// on the next line (nothing follows the marker on its own) is left to the
// later looks, as is every body holding one of those three bytes. Prose,
// however many colons and dots it holds, is never read byte by byte.
func markersMayEscape(body []byte, depth int) bool {
	if bytes.IndexByte(body, '\\') >= 0 || bytes.IndexByte(body, '&') >= 0 || bytes.IndexByte(body, '%') >= 0 {
		return true
	}
	for i := bytes.IndexByte(body, ']'); i >= 0 && i+1 < len(body); {
		if c := body[i+1]; (c == '(' || c == ':') && destinationMayEscape(body[i+2:], depth) {
			return true
		}
		k := bytes.IndexByte(body[i+1:], ']')
		if k < 0 {
			break
		}
		i += 1 + k
	}
	for i := bytes.IndexByte(body, '<'); i >= 0; {
		if destinationMayEscape(body[i:], depth) {
			return true
		}
		k := bytes.IndexByte(body[i+1:], '<')
		if k < 0 {
			break
		}
		i += 1 + k
	}
	return false
}

// destinationMayEscape decides the destination that may start at rest,
// after optional spaces and tabs: the stretch to the first space, tab or
// line end, or for the "<...>" form to its '>' or the line end. Nothing
// before the line end: the destination may be on the next line, so it
// answers true.
func destinationMayEscape(rest []byte, depth int) bool {
	j := 0
	for j < len(rest) && (rest[j] == ' ' || rest[j] == '\t') {
		j++
	}
	if j == len(rest) || rest[j] == '\n' || rest[j] == '\r' {
		return true
	}
	rest = rest[j:]
	end := 1
	if rest[0] == '<' {
		for end < len(rest) && rest[end] != '>' && rest[end] != '\n' && rest[end] != '\r' {
			end++
		}
	} else {
		for end < len(rest) && !endsPlainDestination[rest[end]] {
			end++
		}
	}
	// lineMayEscape without its search for '\\', '&' and '%', which the
	// body has none of; the dots are read from every start, as on a line
	// with '<' (the "<...>" form may hold spaces; the plain one has none).
	d := rest[:end]
	for i := bytes.IndexByte(d, ':'); i >= 0; {
		if colonMayEscape(d, i) {
			return true
		}
		k := bytes.IndexByte(d[i+1:], ':')
		if k < 0 {
			break
		}
		i += 1 + k
	}
	// Most destinations hold no "..": one short search settles them.
	return bytes.Contains(d, []byte("..")) && dotsMayEscapeIn(d, depth)
}

// endsPlainDestination is the bytes a destination not written "<...>"
// ends before: space, tab and line ends.
var endsPlainDestination = [256]bool{' ': true, '\t': true, '\n': true, '\r': true}

// anyLineMayEscape reports whether lineMayEscape holds for some line of
// body, searching the whole body for the bytes that matter rather than
// each line for each of them (most lines hold none).
func anyLineMayEscape(body []byte, depth int) bool {
	if bytes.IndexByte(body, '\\') >= 0 || bytes.IndexByte(body, '&') >= 0 || bytes.IndexByte(body, '%') >= 0 {
		return true
	}
	ls, seen := 0, 0 // the start of the line holding the colon; body[:seen] is searched for it
	for i := bytes.IndexByte(body, ':'); i >= 0; {
		if k := bytes.LastIndexByte(body[seen:i], '\n'); k >= 0 {
			ls = seen + k + 1
		}
		seen = i
		if colonMayEscape(body[ls:], i-ls) {
			return true
		}
		k := bytes.IndexByte(body[i+1:], ':')
		if k < 0 {
			break
		}
		i += 1 + k
	}
	for i := bytes.Index(body, []byte("..")); i >= 0; {
		ls := bytes.LastIndexByte(body[:i], '\n') + 1
		le := len(body)
		if k := bytes.IndexByte(body[i:], '\n'); k >= 0 {
			le = i + k
		}
		if dotsMayEscape(body[ls:le], depth) {
			return true
		}
		if le == len(body) {
			break
		}
		k := bytes.Index(body[le+1:], []byte(".."))
		if k < 0 {
			break
		}
		i = le + 1 + k
	}
	return false
}

// startsDestination reports whether a destination, once ResolveTarget has
// trimmed it, may start right after byte c.
func startsDestination(c byte) bool { return destinationStarts[c] }

var destinationStarts = func() (t [256]bool) {
	for c := range t {
		t[c] = c <= ' ' || c == '(' || c == ':' || c == '<' || c >= 0x80
	}
	return t
}()

// lineMayEscape decides one line. Most lines are settled by a few fast
// searches; a line with ".." is scanned from right to left, so that for the
// segment under the cursor the scan knows cont, the least level
// (directories below the root) a path must be at when it passes the next
// '/' so as never to climb above the root afterwards. A rooted path, from
// a '/' where a destination may start, is at level 0 there, whatever the
// slashes that follow.
func lineMayEscape(line []byte, depth int) bool {
	if bytes.IndexByte(line, '\\') >= 0 || bytes.IndexByte(line, '&') >= 0 || bytes.IndexByte(line, '%') >= 0 {
		return true
	}
	for i := bytes.IndexByte(line, ':'); i >= 0; {
		if colonMayEscape(line, i) {
			return true
		}
		k := bytes.IndexByte(line[i+1:], ':')
		if k < 0 {
			break
		}
		i += 1 + k
	}
	return dotsMayEscape(line, depth)
}

// colonMayEscape reports whether the colon at line[i] may end a drive
// letter, "C:" or "/C:", or the scheme of a file: URL (any case), where a
// destination may start. It reads only line[:i+1].
func colonMayEscape(line []byte, i int) bool {
	if i >= 4 && bytes.EqualFold(line[i-4:i], []byte("file")) && (i == 4 || startsDestination(line[i-5])) {
		return true
	}
	if i >= 1 && isAlpha(line[i-1]) {
		j := i - 2
		for j >= 0 && line[j] == '/' {
			j--
		}
		if j < 0 || startsDestination(line[j]) {
			return true
		}
	}
	return false
}

// dotsMayEscape reports whether ".." segments on line may climb above the
// root from a document depth levels below it. A destination holds no space
// unless written in "<...>", so on a line without '<' each word holding
// ".." is scanned on its own (dotsMayEscapeIn), not the line up to its
// last "..": prose between links is not read byte by byte.
func dotsMayEscape(line []byte, depth int) bool {
	if bytes.IndexByte(line, '<') >= 0 {
		return dotsMayEscapeIn(line, depth)
	}
	for i := bytes.Index(line, []byte("..")); i >= 0; {
		start := bytes.LastIndexByte(line[:i], ' ') + 1
		end := len(line)
		if k := bytes.IndexByte(line[i:], ' '); k >= 0 {
			end = i + k
		}
		if dotsMayEscapeIn(line[start:end], depth) {
			return true
		}
		k := bytes.Index(line[end:], []byte(".."))
		if k < 0 {
			break
		}
		i = end + k
	}
	return false
}

// dotsMayEscapeIn is dotsMayEscape reading all of the rest of line from
// any place a destination may start (the start of line included) as its
// path.
func dotsMayEscapeIn(line []byte, depth int) bool {
	// No path starting after the last ".." needs any level, so the scan
	// starts there, with a path cut short at it: a path that ends earlier
	// can only need more.
	last := lastDots(line)
	if last < 0 {
		return false
	}
	line = line[:last+2]
	end := len(line) // of the segment under the cursor: the next '/', '?', '#' or the line end
	cont := 0        // the level needed after the '/' at end; 0 after '?', '#' or the line end
	for p := len(line) - 1; p >= 0; p-- {
		switch line[p] {
		case '/':
			cont = levelNeeded(line[p+1:end], cont)
			end = p
		case '?', '#':
			cont, end = 0, p
		}
		if p > 0 && !startsDestination(line[p-1]) {
			continue
		}
		if line[p] == '/' && cont > 0 || line[p] != '/' && levelNeeded(line[p:end], cont) > depth {
			return true
		}
	}
	return false
}

// lastDots is bytes.LastIndex(line, ".."), which for a two-byte pattern
// hashes every byte (Rabin-Karp); dots are sparse enough to jump between.
func lastDots(line []byte) int {
	for i := len(line); ; {
		i = bytes.LastIndexByte(line[:i], '.')
		if i <= 0 {
			return -1
		}
		if line[i-1] == '.' {
			return i - 1
		}
		i--
	}
}

// levelNeeded is the least level a path must start at so that, reading the
// segment seg and then a path that needs level cont, it never climbs above
// the root; seg may also be where the path ends.
func levelNeeded(seg []byte, cont int) int {
	switch {
	case len(seg) >= 2 && seg[0] == '.' && seg[1] == '.':
		if len(seg) == 2 {
			return cont + 1
		}
		return max(1, cont-1) // ".." if the destination ends there
	case len(seg) == 0 || len(seg) == 1 && seg[0] == '.':
		return cont
	}
	return max(0, cont-1)
}

// quickMeta is quickRead for read's child summaries: the document's title
// and description as ParseDocument reads them, when quickRead accepts it
// and neither is a block scalar (whose folding it does not do).
func quickMeta(rel string, data []byte) (Meta, bool) {
	d, known, ok := quickRead(rel, data, false, true)
	if !ok || !known {
		return Meta{}, false
	}
	return d.Meta, true
}

// quickRead parses a document whose frontmatter is plain, common YAML that
// ParseDocument would accept without any finding: a mapping of simple keys
// whose values are one-line scalars, block scalars, one-line flow lists of
// words, block lists of one-line scalars or (for keys other than title,
// description and soft_links) mappings of simple keys to one-line scalars,
// with a non-empty string title, an optional non-empty string description
// and an optional non-empty soft_links list of non-empty strings, its lines
// ended by LF or CRLF. It returns the document's Body, BodyLine and
// Meta.SoftLinks (all Verify needs) and ok, or not ok for anything else (the
// root, a BOM, a lone CR, comments, tabs, anchors, deeper nesting, escapes,
// any doubt), which ParseDocument must then parse. With meta it also reads
// the title and description, and metaKnown says it did (unless one is a
// block scalar); without, they are not copied out of data (verify needs
// neither) and metaKnown is false.
func quickRead(rel string, data []byte, root, meta bool) (doc Document, metaKnown, ok bool) {
	return quickReadWith(rel, data, root, meta, nil)
}

// quickScratch is memory a caller lends quickReadWith, which appends the
// soft links to links (from its start) and lays their values in arena:
// the Document's SoftLinks then share links, valid until the next call.
type quickScratch struct {
	links []SoftLink
	block [][]byte // a block scalar's lines
	arena stringArena
}

// quickReadWith is quickRead with scratch memory (nil: none).
func quickReadWith(rel string, data []byte, root, meta bool, sc *quickScratch) (doc Document, metaKnown, ok bool) {
	if root {
		return Document{}, false, false
	}
	first, rest, _ := cutLine(data)
	if !isDelimiter(first) {
		return Document{}, false, false
	}
	h := quickHeader{meta: meta}
	if sc != nil {
		h.softLinks, h.block, h.arena = sc.links[:0], sc.block[:0], &sc.arena
	}
	for line := 2; len(rest) > 0; line++ {
		l, next, _ := cutLine(rest)
		l = bytes.TrimSuffix(l, []byte("\r")) // CRLF, as YAML reads it
		if string(l) == "---" {
			if !h.finish() || !h.hasTitle || !utf8.Valid(next) {
				return Document{}, false, false
			}
			if sc != nil {
				sc.links, sc.block = h.softLinks[:0], h.block[:0] // keep what append grew
			}
			if len(h.softLinks) == 0 {
				h.softLinks = nil
			}
			m := Meta{Title: h.title, Description: h.description, SoftLinks: h.softLinks}
			return Document{Path: rel, Body: next, BodyLine: line + 1, Meta: m}, meta && !h.blockMeta, true
		}
		if !h.line(l, line) {
			return Document{}, false, false
		}
		rest = next
	}
	return Document{}, false, false
}

// quickHeader is the state of quickRead's line-by-line header reading.
type quickHeader struct {
	meta      bool   // copy out the title and description
	keys      keySet // top-level keys
	inner     keySet // keys of the mapping under key
	key       []byte // the top-level key whose value may go on below
	mode      int
	indent    int  // of the list items, mapping keys or block scalar lines; -1 before the first
	content   bool // the block scalar has a line with a letter or digit
	hasTitle  bool
	softLinks []SoftLink
	arena     *stringArena // where soft links' values go (nil: allocated)
	// title and description are their values; blockMeta says one of them
	// is a block scalar this reader does not fold, left unread.
	title, description string
	blockMeta          bool
	// block holds the lines of a title or description block scalar, and
	// style its indicator ("|", "|-", ">" or ">-"), while blockOK says
	// every line so far is one it folds: same indent, no trailing space.
	block   [][]byte
	style   string
	blockOK bool
}

const (
	modeTop     = iota // only top-level keys may follow
	modePending        // after "key:": a block list or mapping may follow
	modeList           // in a block list
	modeMap            // in a mapping under a top-level key
	modeBlock          // in a block scalar
)

// keySet is the keys of one mapping, to refuse duplicates.
type keySet struct {
	keys [16][]byte
	n    int
}

func (k *keySet) add(key []byte) bool {
	if k.n == len(k.keys) {
		return false
	}
	for _, seen := range k.keys[:k.n] {
		if bytes.Equal(seen, key) {
			return false
		}
	}
	k.keys[k.n] = key
	k.n++
	return true
}

// line reads one header line (file line n).
func (h *quickHeader) line(l []byte, n int) bool {
	if !yamlPlainText(l) {
		return false
	}
	if len(l) == 0 {
		if h.mode == modeBlock {
			h.blockOK = false // blank lines fold in ways not read here
			return true
		}
		return h.finish()
	}
	indent := 0
	for indent < len(l) && l[indent] == ' ' {
		indent++
	}
	if indent == len(l) {
		return false // only spaces
	}
	switch {
	case h.mode == modeBlock && indent > 0:
		if h.indent >= 0 && indent < h.indent {
			return false
		}
		if h.indent < 0 {
			h.indent = indent
		}
		h.content = h.content || hasAlnum(l)
		if indent != h.indent || l[len(l)-1] == ' ' {
			h.blockOK = false
		}
		h.block = append(h.block, l[indent:])
		return true
	case (h.mode == modePending || h.mode == modeList) && indent+1 < len(l) && l[indent] == '-' && l[indent+1] == ' ':
		if h.mode == modeList && indent != h.indent {
			return false
		}
		h.mode, h.indent = modeList, indent
		return h.item(l[indent+2:], n)
	case h.mode == modePending && indent > 0 || h.mode == modeMap && indent == h.indent:
		if h.mode == modePending && isKnownKey(h.key) {
			return false
		}
		h.mode, h.indent = modeMap, indent
		key, v, ok := keyValue(l[indent:])
		if !ok || !h.inner.add(key) || len(v) == 0 || v[0] == '>' || v[0] == '|' {
			return false
		}
		if v[0] == '[' {
			return flowWords(v)
		}
		_, _, ok = scalar(v)
		return ok
	case indent > 0:
		return false
	}
	if !h.finish() {
		return false
	}
	return h.keyLine(l)
}

// keyValue splits "key: value" (or "key:") with a simple key.
func keyValue(l []byte) (key, v []byte, ok bool) {
	i := 0
	for i < len(l) && (isAlpha(l[i]) || l[i] == '_' || i > 0 && (l[i] == '-' || l[i] >= '0' && l[i] <= '9')) {
		i++
	}
	if i == 0 || i > 64 || i == len(l) || l[i] != ':' || i+1 < len(l) && l[i+1] != ' ' {
		return nil, nil, false
	}
	return l[:i], bytes.TrimLeft(l[i+1:], " "), true
}

func isKnownKey(key []byte) bool {
	switch string(key) {
	case "title", "description", "soft_links":
		return true
	}
	return false
}

// keyLine reads a top-level "key: value" line.
func (h *quickHeader) keyLine(l []byte) bool {
	key, v, ok := keyValue(l)
	// sources are checked by ParseDocument only.
	if !ok || string(key) == "schemaVersion" || string(key) == "sources" || !h.keys.add(key) {
		return false
	}
	h.key, h.indent, h.content, h.inner.n = key, -1, false, 0
	known := isKnownKey(key)
	switch {
	case len(v) == 0:
		h.mode = modePending
		return true
	case v[0] == '>' || v[0] == '|':
		switch string(bytes.TrimRight(v[1:], " ")) {
		case "", "-", "+":
			h.mode = modeBlock
			h.style, h.block = string(bytes.TrimRight(v, " ")), h.block[:0]
			h.blockOK = known && (h.style == "|" || h.style == "|-" || h.style == ">" || h.style == ">-")
			return string(key) != "soft_links"
		}
		return false
	case v[0] == '[':
		return !known && flowWords(v)
	}
	s, str, ok := scalar(v)
	switch {
	case !ok || string(key) == "soft_links":
		return false
	case known: // title or description
		if !str || len(bytes.TrimSpace(s)) == 0 {
			return false
		}
		switch {
		case string(key) == "title":
			h.hasTitle = true
			if h.meta {
				h.title = string(s)
			}
		case h.meta:
			h.description = string(s)
		}
		return true
	}
	return true
}

// item reads one block list entry.
func (h *quickHeader) item(v []byte, n int) bool {
	v = bytes.TrimLeft(v, " ")
	s, str, ok := scalar(v)
	if !ok {
		return false
	}
	switch string(h.key) {
	case "title", "description":
		return false
	case "soft_links":
		if !str || len(bytes.TrimSpace(s)) == 0 {
			return false
		}
		if h.softLinks == nil {
			h.softLinks = make([]SoftLink, 0, 4)
		}
		v := ""
		if h.arena != nil {
			v = h.arena.bytes(s)
		} else {
			v = string(s)
		}
		h.softLinks = append(h.softLinks, SoftLink{Value: v, Line: n})
	}
	return true
}

// finish ends the value of the top-level key read last.
func (h *quickHeader) finish() bool {
	mode := h.mode
	h.mode = modeTop
	switch mode {
	case modePending: // a null value
		return !isKnownKey(h.key)
	case modeBlock:
		switch string(h.key) {
		case "title":
			h.hasTitle = h.content
			if h.meta {
				h.title = h.fold()
			}
			return h.content
		case "description":
			if h.meta {
				h.description = h.fold()
			}
			return h.content
		}
	}
	return true
}

// fold is the value of a title or description block scalar: its lines
// joined by newlines (literal) or spaces (folded), with the final newline
// clipped or stripped, when blockOK; else it marks the metadata unread.
func (h *quickHeader) fold() string {
	if !h.blockOK || len(h.block) == 0 {
		h.blockMeta = true
		return ""
	}
	sep := []byte{'\n'}
	if h.style[0] == '>' {
		sep = []byte{' '}
	}
	v := bytes.Join(h.block, sep)
	if !strings.HasSuffix(h.style, "-") {
		v = append(v, '\n')
	}
	return string(v)
}

// scalar reads a one-line scalar value: single-quoted, double-quoted
// without escapes, or plain. str reports that YAML resolves it to a string.
func scalar(v []byte) (s []byte, str, ok bool) {
	if len(v) == 0 {
		return nil, false, false
	}
	switch v[0] {
	case '\'':
		var b []byte
		i := 1
		for ; i < len(v); i++ {
			if v[i] == '\'' {
				if i+1 < len(v) && v[i+1] == '\'' {
					if b == nil {
						b = append([]byte{}, v[1:i+1]...)
					} else {
						b = append(b, '\'')
					}
					i++
					continue
				}
				break
			}
			if b != nil {
				b = append(b, v[i])
			}
		}
		if i >= len(v) || !isBlank(v[i+1:]) {
			return nil, false, false
		}
		if b == nil {
			return v[1:i], true, true
		}
		return b, true, true
	case '"':
		i := bytes.IndexByte(v[1:], '"') + 1
		if i == 0 || bytes.IndexByte(v[:i], '\\') >= 0 || !isBlank(v[i+1:]) {
			return nil, false, false
		}
		return v[1:i], true, true
	}
	v = bytes.TrimRight(v, " ")
	c := v[0]
	if !(isAlpha(c) || c >= '0' && c <= '9' || c == '/' || c == '_' || c == '.' || c >= 0x80) ||
		bytes.Contains(v, []byte(": ")) || bytes.Contains(v, []byte(" #")) || v[len(v)-1] == ':' {
		return nil, false, false
	}
	switch {
	case isAlpha(c):
		switch string(v) {
		case "true", "True", "TRUE", "false", "False", "FALSE", "null", "Null", "NULL":
		default:
			str = true
		}
	case c == '/' || c == '_' || c >= 0x80:
		str = true
	case c == '.':
		str = len(v) > 1 && v[1] == '/' || len(v) > 2 && v[1] == '.' && v[2] == '/'
	}
	return v, str, true
}

// flowWords reports a one-line flow list of plain words: "[a, b-c, d_e]".
func flowWords(v []byte) bool {
	v = bytes.TrimRight(v, " ")
	if len(v) < 2 || v[len(v)-1] != ']' {
		return false
	}
	v = v[1 : len(v)-1]
	if isBlank(v) {
		return true
	}
	for w := range bytes.SplitSeq(v, []byte(",")) {
		w = bytes.Trim(w, " ")
		if len(w) == 0 || !(isAlpha(w[0]) || w[0] >= '0' && w[0] <= '9' || w[0] == '_' || w[0] >= 0x80) {
			return false
		}
		for _, c := range w {
			if !(isAlpha(c) || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.' || c == '/' || c >= 0x80) {
				return false
			}
		}
	}
	return true
}

// yamlPlainText reports a line of UTF-8 text with no tab, no control
// character and nothing YAML would refuse or read as a line break (U+0085,
// U+2028, U+2029) or a byte order mark.
func yamlPlainText(l []byte) bool {
	for i := 0; i < len(l); {
		c := l[i]
		if c < 0x80 {
			if c < ' ' || c == 0x7f {
				return false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(l[i:])
		switch {
		case r == utf8.RuneError && size == 1,
			r < 0xA0, r == 0x2028, r == 0x2029, r == 0xFEFF,
			r >= 0xD800 && r < 0xE000, r == 0xFFFE, r == 0xFFFF:
			return false
		}
		i += size
	}
	return true
}

// hasAlnum reports an ASCII letter or digit.
func hasAlnum(l []byte) bool {
	for _, c := range l {
		if isAlpha(c) || c >= '0' && c <= '9' {
			return true
		}
	}
	return false
}

// isBlank reports text of spaces only (ASCII ' ').
func isBlank(s []byte) bool {
	for _, c := range s {
		if c != ' ' {
			return false
		}
	}
	return true
}

// verifyFastPaths switches the fast paths on; tests turn it off to compare.
var verifyFastPaths = true

// dirDepth is the number of levels a tree-relative directory lies below the
// root ("." is 0).
func dirDepth(dir string) int {
	if dir == "." || dir == "" {
		return 0
	}
	return strings.Count(dir, "/") + 1
}

// tooLargeError is a document over the size verification parses.
type tooLargeError struct{ size int64 }

func (e *tooLargeError) Error() string { return fmt.Sprintf("document is %d bytes", e.size) }

// hardLinkedError is a document with several hard links, which read
// refuses (another link may lie outside the tree), so verify reports it
// without parsing it.
type hardLinkedError struct{ links uint64 }

func (e *hardLinkedError) Error() string { return fmt.Sprintf("document has %d hard links", e.links) }

// readDocumentInto reads a regular file into *buf, which it grows and
// reuses, with as few system calls as it can: open, fstat, read, close. It
// follows no final symlink, reads nothing but a regular file with one link
// and at most limit bytes, so a file swapped for a symlink or FIFO
// mid-walk cannot redirect or block the read. A file with several links
// is a *hardLinkedError; one over limit is a *tooLargeError, even when it
// cannot be opened.
func readDocumentInto(buf *[]byte, name string, limit int64) ([]byte, error) {
	return readDocumentAt(buf, -1, "", docPath{rel: name}, limit)
}

// docPath is a document's path in two parts (a directory and a path
// below it, with the system's separator), joined only when needed: for
// opening by path or for an error, so a walk that opens documents
// relative to their directory never pays for it.
type docPath struct{ dir, rel string }

func (p docPath) String() string {
	if p.dir == "" {
		return p.rel
	}
	return filepath.Join(p.dir, p.rel)
}

// readDocumentAt is readDocumentInto of the entry base of the directory
// open as dirfd (opened relative to it: the kernel does not walk the path
// again for every document), or of the path p when dirfd is negative. p
// is the document's path either way, for errors.
func readDocumentAt(buf *[]byte, dirfd int, base string, p docPath, limit int64) ([]byte, error) {
	var fd int
	var err error
	if dirfd >= 0 {
		fd, err = openNoFollowAt(dirfd, base)
	} else {
		fd, err = openNoFollow(p.String())
	}
	if err != nil {
		return nil, openError(p, err, limit)
	}
	return readOpenDocument(buf, fd, p, limit)
}

// openError is the error of a document that could not be opened: a
// *tooLargeError when it is too large anyway.
func openError(p docPath, err error, limit int64) error {
	name := p.String()
	var st syscall.Stat_t
	if syscall.Lstat(name, &st) == nil && st.Mode&syscall.S_IFMT == syscall.S_IFREG && st.Size > limit {
		return &tooLargeError{st.Size}
	}
	return &os.PathError{Op: "open", Path: name, Err: err}
}

// readOpenDocument is readDocumentAt of the document open as fd, which it
// closes.
func readOpenDocument(buf *[]byte, fd int, p docPath, limit int64) ([]byte, error) {
	defer syscall.Close(fd)
	var st syscall.Stat_t
	if err := ignoringEINTR(func() error { return syscall.Fstat(fd, &st) }); err != nil {
		return nil, &os.PathError{Op: "stat", Path: p.String(), Err: err}
	}
	if st.Mode&syscall.S_IFMT != syscall.S_IFREG {
		return nil, fmt.Errorf("not a regular file")
	}
	if st.Nlink > 1 {
		return nil, &hardLinkedError{uint64(st.Nlink)}
	}
	if st.Size > limit {
		return nil, &tooLargeError{st.Size}
	}
	if want := int(st.Size) + 1; cap(*buf) < want {
		*buf = make([]byte, max(want, 64<<10))
	}
	data := (*buf)[:cap(*buf)]
	n := 0
	for {
		var m int
		err := ignoringEINTR(func() (err error) { m, err = syscall.Read(fd, data[n:]); return err })
		if err != nil {
			return nil, &os.PathError{Op: "read", Path: p.String(), Err: err}
		}
		if m <= 0 {
			break
		}
		asked := len(data) - n
		n += m
		if int64(n) > limit {
			return nil, fmt.Errorf("larger than %d bytes", limit)
		}
		if int64(n) == st.Size && m < asked {
			break // all fstat promised, and a short read: the end
		}
		if n == len(data) {
			data = append(data, make([]byte, len(data))...)
			*buf = data
		}
	}
	return data[:n], nil
}

func openNoFollow(name string) (int, error) {
	for {
		fd, err := syscall.Open(name, syscall.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
		if err != syscall.EINTR {
			return fd, err
		}
	}
}

func ignoringEINTR(f func() error) error {
	for {
		if err := f(); err != syscall.EINTR {
			return err
		}
	}
}
