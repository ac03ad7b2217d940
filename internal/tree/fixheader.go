package tree

import (
	"bytes"
	"cmp"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/git-context-tree/git-context-tree/contracts"
)

// headerEdit replaces header[off:end] with text.
type headerEdit struct {
	off, end int
	text     string
	// apply makes the same change to the decoded header, so the edited
	// text can be checked to mean exactly what was intended.
	apply func(m map[string]any)
}

// header is a document's frontmatter text, located in the document.
type header struct {
	start, end int    // header text is data[start:end]
	text       []byte // data[start:end]
	eol        string
	lines      []int // byte offset of each line's start in text
}

// locateHeader finds the frontmatter text of a document that has one.
func locateHeader(data []byte) (*header, bool) {
	start := 0
	if bytes.HasPrefix(data, utf8BOM) {
		start = len(utf8BOM)
	}
	first, rest, ok := cutLine(data[start:])
	if !ok || !isDelimiter(first) {
		return nil, false
	}
	h := &header{start: len(data) - len(rest), eol: "\n"}
	if bytes.HasSuffix(first, []byte("\r")) {
		h.eol = "\r\n"
	}
	for len(rest) > 0 {
		l, next, _ := cutLine(rest)
		if isDelimiter(l) {
			h.end = len(data) - len(rest)
			h.text = data[h.start:h.end]
			h.lines = []int{0}
			for i, c := range h.text {
				if c == '\n' {
					h.lines = append(h.lines, i+1)
				}
			}
			return h, true
		}
		rest = next
	}
	return nil, false
}

// offset converts a YAML node position (1-based line within the header,
// 1-based column counted in characters) to a byte offset in the header.
func (h *header) offset(line, col int) (int, bool) {
	if line < 1 || line > len(h.lines) || col < 1 {
		return 0, false
	}
	off := h.lines[line-1]
	for i := 1; i < col; i++ {
		if off >= len(h.text) || h.text[off] == '\n' {
			return 0, false
		}
		_, size := utf8.DecodeRune(h.text[off:])
		off += size
	}
	return off, true
}

// fixHeader repairs the fields of an existing frontmatter mapping with
// edits to its text, so everything else stays byte for byte.
func fixHeader(rel string, data []byte, fm *Frontmatter, fc FixContext) ([]byte, []contracts.FixRepair) {
	h, ok := locateHeader(data)
	m := fm.Mapping
	if !ok || m.Style&yaml.FlowStyle != 0 {
		return data, nil
	}
	var edits []headerEdit
	var repairs []contracts.FixRepair
	if e, r, ok := insertFields(h, rel, fm, fc); ok {
		edits, repairs = append(edits, e), append(repairs, r...)
	}
	if e, r, ok := renameDescription(h, m); ok {
		edits, repairs = append(edits, e), append(repairs, r)
	}
	if fc.Linkable != nil {
		e, r := rewriteSoftLinks(h, rel, m, fc.Linkable)
		edits, repairs = append(edits, e...), append(repairs, r...)
	}
	if len(edits) == 0 {
		return data, nil
	}
	text, ok := applyEdits(h.text, edits)
	if !ok {
		return data, nil
	}
	out := make([]byte, 0, len(data)+len(text)-len(h.text))
	out = append(out, data[:h.start]...)
	out = append(out, text...)
	out = append(out, data[h.end:]...)
	return out, repairs
}

// insertFields adds a missing root schemaVersion and a missing title as
// the first keys of the mapping, indented like its first key.
func insertFields(h *header, rel string, fm *Frontmatter, fc FixContext) (headerEdit, []contracts.FixRepair, bool) {
	m := fm.Mapping
	var lines []string
	var repairs []contracts.FixRepair
	var sets []func(map[string]any)
	if k, _ := field(m, "schemaVersion"); fc.Root && k == nil {
		lines = append(lines, "schemaVersion: 1")
		repairs = append(repairs, contracts.FixRepair{Code: contracts.FindingRootNodeInvalid, Line: 1, Message: "add schemaVersion: 1"})
		sets = append(sets, func(v map[string]any) { v["schemaVersion"] = 1 })
	}
	if k, _ := field(m, "title"); k == nil {
		title, from := inferTitle(rel, fm.Body, fc.TreeName)
		line, err := yamlField("title", title, "")
		if err != nil {
			return headerEdit{}, nil, false
		}
		lines = append(lines, line)
		repairs = append(repairs, contracts.FixRepair{Code: contracts.FindingTitleMissing, Line: 1, Message: fmt.Sprintf("add the title %q (%s)", title, from)})
		sets = append(sets, func(v map[string]any) { v["title"] = title })
	}
	if len(lines) == 0 {
		return headerEdit{}, nil, false
	}
	off, indent := 0, ""
	if len(m.Content) > 0 {
		k := m.Content[0]
		o, ok := h.offset(k.Line, k.Column)
		if !ok {
			return headerEdit{}, nil, false
		}
		lineStart := h.lines[k.Line-1]
		if strings.Trim(string(h.text[lineStart:o]), " ") != "" {
			return headerEdit{}, nil, false
		}
		off, indent = lineStart, string(h.text[lineStart:o])
	}
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(indent + l + h.eol)
	}
	return headerEdit{off: off, end: off, text: b.String(), apply: func(v map[string]any) {
		for _, set := range sets {
			set(v)
		}
	}}, repairs, true
}

// renameDescription renames the one key that can only be a misspelt
// description, when the mapping has no description.
func renameDescription(h *header, m *yaml.Node) (headerEdit, contracts.FixRepair, bool) {
	if k, _ := field(m, "description"); k != nil {
		return headerEdit{}, contracts.FixRepair{}, false
	}
	var found *yaml.Node
	var value *yaml.Node
	for i := 0; i+1 < len(m.Content); i += 2 {
		if misspeltDescription(m.Content[i].Value) {
			if found != nil {
				return headerEdit{}, contracts.FixRepair{}, false // ambiguous
			}
			found, value = m.Content[i], m.Content[i+1]
		}
	}
	if found == nil || found.Style != 0 || value.Kind != yaml.ScalarNode {
		return headerEdit{}, contracts.FixRepair{}, false
	}
	if _, ok := nonEmptyString(value); !ok {
		return headerEdit{}, contracts.FixRepair{}, false
	}
	off, ok := h.offset(found.Line, found.Column)
	if !ok || !bytes.HasPrefix(h.text[off:], []byte(found.Value)) {
		return headerEdit{}, contracts.FixRepair{}, false
	}
	old := found.Value
	return headerEdit{off: off, end: off + len(old), text: "description", apply: func(v map[string]any) {
			v["description"] = v[old]
			delete(v, old)
		}}, contracts.FixRepair{Code: contracts.FindingDescriptionInvalid, Line: fileLine(found),
			Message: fmt.Sprintf("rename %q to description", old)}, true
}

// misspeltDescription reports a key that can only mean "description": a
// short form, another casing, or a typo (at most two edits away).
func misspeltDescription(key string) bool {
	k := strings.ToLower(key)
	switch {
	case key == "description":
		return false
	case k == "desc" || k == "descr" || k == "description":
		return true
	}
	return len(k) >= 8 && editDistance(k, "description") <= 2
}

// editDistance is the optimal string alignment distance between a and b
// (insertions, deletions, substitutions and adjacent transpositions).
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	d := make([][]int, len(ra)+1)
	for i := range d {
		d[i] = make([]int, len(rb)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(ra); i++ {
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(ra)][len(rb)]
}

// applyEdits applies non-overlapping edits to the header text and checks
// that the result decodes to exactly the old header with the intended
// changes: anything else (a quoting subtlety, an indentation surprise)
// abandons every edit.
func applyEdits(text []byte, edits []headerEdit) ([]byte, bool) {
	var before any
	if err := yaml.Unmarshal(text, &before); err != nil {
		return nil, false
	}
	want, ok := before.(map[string]any)
	if before == nil {
		want, ok = map[string]any{}, true
	}
	if !ok {
		return nil, false
	}
	// Last first, so earlier offsets stay valid; at one offset, the
	// replacement before the insertion in front of it.
	slices.SortStableFunc(edits, func(a, b headerEdit) int { return cmp.Or(b.off-a.off, b.end-a.end) })
	out := slices.Clone(text)
	end := len(out) + 1
	for _, e := range edits {
		if e.end > end || e.off > e.end {
			return nil, false // overlapping
		}
		out = slices.Concat(out[:e.off], []byte(e.text), out[e.end:])
		end = e.off
		e.apply(want)
	}
	var after any
	if err := yaml.Unmarshal(out, &after); err != nil {
		return nil, false
	}
	got, ok := after.(map[string]any)
	if !ok || !reflect.DeepEqual(want, got) {
		return nil, false
	}
	return out, true
}
