package tree

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/git-context-tree/git-context-tree/contracts"
)

// rewriteSoftLinks rewrites each soft link that names nothing as written
// (tree-root-relative) but names a document or indexed directory when read
// relative to the document, as earlier tools wrote them, to that
// tree-root-relative path. Its #fragment or ?query is kept.
func rewriteSoftLinks(h *header, rel string, m *yaml.Node, linkable func(string) bool) ([]headerEdit, []contracts.FixRepair) {
	_, seq := field(m, "soft_links")
	dir := path.Dir(rel)
	if seq == nil || seq.Kind != yaml.SequenceNode || dir == "." {
		return nil, nil // from the root, relative and root-relative agree
	}
	flow := seq.Style&yaml.FlowStyle != 0
	var edits []headerEdit
	var repairs []contracts.FixRepair
	for i, item := range seq.Content {
		val := item.Value
		if item.Kind != yaml.ScalarNode || item.ShortTag() != "!!str" || strings.HasPrefix(strings.TrimSpace(val), "/") {
			continue
		}
		if p, v := ResolveTarget(".", val, true); v == TargetInside && linkable(p) {
			continue
		}
		q, v := ResolveTarget(dir, val, false)
		if v != TargetInside || q == "." || !linkable(q) {
			continue
		}
		newVal := q
		if j := strings.IndexAny(val, "?#"); j > 0 {
			newVal += val[j:]
		}
		if p, v := ResolveTarget(".", newVal, true); v != TargetInside || p != q {
			continue
		}
		off, end, ok := scalarSpan(h, item)
		if !ok {
			continue
		}
		text, ok := scalarText(newVal, item.Style, flow)
		if !ok {
			continue
		}
		index := i
		edits = append(edits, headerEdit{off: off, end: end, text: text, apply: func(v map[string]any) {
			if links, ok := v["soft_links"].([]any); ok && index < len(links) {
				links[index] = newVal
			}
		}})
		repairs = append(repairs, contracts.FixRepair{Code: contracts.FindingSoftLinkBroken, Line: fileLine(item),
			Message: fmt.Sprintf("soft link %q is relative to the document; write it from the tree root as %q", val, newVal)})
	}
	return edits, repairs
}

// scalarSpan is where a one-line scalar is written in the header text.
func scalarSpan(h *header, n *yaml.Node) (off, end int, ok bool) {
	off, ok = h.offset(n.Line, n.Column)
	if !ok || strings.ContainsAny(n.Value, "\r\n") {
		return 0, 0, false
	}
	rest := h.text[off:]
	if i := bytes.IndexByte(rest, '\n'); i >= 0 {
		rest = rest[:i]
	}
	var written string
	switch n.Style {
	case 0:
		written = n.Value
	case yaml.SingleQuotedStyle:
		written = "'" + strings.ReplaceAll(n.Value, "'", "''") + "'"
	case yaml.DoubleQuotedStyle:
		for i := 1; i < len(rest); i++ {
			switch rest[i] {
			case '\\':
				i++
			case '"':
				return off, off + i + 1, true
			}
		}
		return 0, 0, false
	default:
		return 0, 0, false
	}
	if !bytes.HasPrefix(rest, []byte(written)) {
		return 0, 0, false
	}
	return off, off + len(written), true
}

// scalarText writes a string as a YAML scalar in the style it was written
// in when it can: plain when it stays a plain string, single-quoted, else
// double-quoted.
func scalarText(s string, style yaml.Style, flow bool) (string, bool) {
	if style == yaml.SingleQuotedStyle && utf8.ValidString(s) && !strings.ContainsAny(s, "\r\n") {
		return "'" + strings.ReplaceAll(s, "'", "''") + "'", true
	}
	if style == 0 && !(flow && strings.ContainsAny(s, ",[]{}")) {
		if out, err := yaml.Marshal(s); err == nil && string(out) == s+"\n" {
			return s, true
		}
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		return "", false
	}
	return strings.TrimSuffix(b.String(), "\n"), true
}
