package tree

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
)

// SourceStamp is what evidence stamp writes into one sources entry:
// every field given replaces the entry's (or is added to it); Lines ""
// leaves an entry without lines as it is.
type SourceStamp struct {
	Index                       int
	Path, Lines, Commit, Sha256 string
}

// StampSources rewrites fields of a document's sources entries with edits
// to the frontmatter text, as fix does (fixheader.go): values replaced in
// place, missing keys added after the entry's path line with its
// indentation, and the edited header checked to decode to exactly the old
// one with those fields changed; a flow-style entry ({path: a.go}) gets
// its missing keys after its last value, in flow style. Every other byte
// is kept. It fails, changing nothing, when an entry cannot be edited as
// text (a multi-line value).
func StampSources(data []byte, stamps []SourceStamp) ([]byte, error) {
	fm, err := ParseFrontmatter(data)
	if err != nil {
		return nil, fmt.Errorf("the frontmatter does not parse")
	}
	if fm.HasAliases {
		return nil, fmt.Errorf("the frontmatter uses YAML aliases, which stamp does not edit")
	}
	h, ok := locateHeader(data)
	if !ok {
		return nil, fmt.Errorf("the frontmatter does not parse")
	}
	_, list := field(fm.Mapping, "sources")
	if list == nil || list.Kind != yaml.SequenceNode {
		return nil, fmt.Errorf("the document has no sources list")
	}
	var edits []headerEdit
	for _, st := range stamps {
		if st.Index >= len(list.Content) || list.Content[st.Index].Kind != yaml.MappingNode {
			return nil, fmt.Errorf("sources entry %d is not a mapping", st.Index+1)
		}
		e, err := stampEntry(h, list.Content[st.Index], st)
		if err != nil {
			return nil, fmt.Errorf("sources entry %d: %w", st.Index+1, err)
		}
		edits = append(edits, e...)
	}
	if len(edits) == 0 {
		return data, nil
	}
	text, ok := applyEdits(h.text, edits)
	if !ok {
		return nil, fmt.Errorf("the sources list cannot be edited as text without changing something else")
	}
	return slices.Concat(data[:h.start], text, data[h.end:]), nil
}

// stampEntry plans the edits of one entry.
func stampEntry(h *header, item *yaml.Node, st SourceStamp) ([]headerEdit, error) {
	fields := []struct{ key, value string }{{"path", st.Path}, {"lines", st.Lines}, {"commit", st.Commit}, {"sha256", st.Sha256}}
	var edits []headerEdit
	var insert strings.Builder
	var inserted []func(map[string]any)
	var flow strings.Builder // a flow entry's new fields, ", key: value" each
	pathKey, pathValue := field(item, "path")
	if pathKey == nil {
		return nil, fmt.Errorf("it has no path")
	}
	for _, f := range fields {
		if f.value == "" {
			continue
		}
		rendered, err := yamlScalar(f.value)
		if err != nil {
			return nil, err
		}
		key, value := f.key, f.value
		set := func(m map[string]any) { entryMap(m, st.Index)[key] = value }
		k, v := field(item, key)
		if k != nil {
			if v.Kind == yaml.ScalarNode && v.Value == value && (v.ShortTag() == "!!str" || key == "lines") {
				continue
			}
			off, end, ok := scalarExtent(h, v)
			if !ok {
				return nil, fmt.Errorf("its %s is not a one-line value stamp can replace", key)
			}
			edits = append(edits, headerEdit{off: off, end: end, text: rendered, apply: set})
			continue
		}
		if item.Style&yaml.FlowStyle != 0 {
			flow.WriteString(", " + key + ": " + rendered)
			inserted = append(inserted, set)
			continue
		}
		indent := strings.Repeat(" ", pathKey.Column-1)
		insert.WriteString(indent + key + ": " + rendered + h.eol)
		inserted = append(inserted, set)
	}
	if flow.Len() > 0 {
		// A flow mapping ({path: a.go, lines: "1-2"}) gets its new fields
		// after its last value, in flow style too, on whatever lines it spans.
		last := item.Content[len(item.Content)-1]
		_, end, ok := scalarExtent(h, last)
		if !ok {
			return nil, fmt.Errorf("it is written in flow style ({...}) and its last value is not a one-line value stamp can add fields after")
		}
		edits = append(edits, headerEdit{off: end, end: end, text: flow.String(), apply: func(m map[string]any) {
			for _, set := range inserted {
				set(m)
			}
		}})
	}
	if insert.Len() > 0 {
		// After the last of the entry's own fields, so they stay together.
		anchor := pathValue
		for _, f := range fields {
			if _, v := field(item, f.key); v != nil && v.Line > anchor.Line {
				anchor = v
			}
		}
		if _, end, ok := scalarExtent(h, anchor); !ok || anchor.Line >= len(h.lines) || end > h.lines[anchor.Line] {
			return nil, fmt.Errorf("its fields are not one-line values")
		}
		off := h.lines[anchor.Line] // the start of the line after the anchor's
		edits = append(edits, headerEdit{off: off, end: off, text: insert.String(), apply: func(m map[string]any) {
			for _, set := range inserted {
				set(m)
			}
		}})
	}
	return edits, nil
}

// entryMap is entry i of the decoded header's sources list.
func entryMap(m map[string]any, i int) map[string]any {
	list, _ := m["sources"].([]any)
	if i < len(list) {
		if e, ok := list[i].(map[string]any); ok {
			return e
		}
	}
	return map[string]any{} // the check in applyEdits then fails
}

// yamlScalar renders a string as a one-line YAML scalar, quoted when YAML
// would read it as something else (a commit id of digits is a number).
func yamlScalar(s string) (string, error) {
	out, err := yaml.Marshal(s)
	if err != nil || bytes.Count(out, []byte("\n")) != 1 {
		return "", fmt.Errorf("cannot write %q as one line", s)
	}
	return string(bytes.TrimSuffix(out, []byte("\n"))), nil
}

// scalarExtent locates a one-line plain or quoted scalar in the header
// (fix's scalarSpan, for nodes that may not be scalars).
func scalarExtent(h *header, v *yaml.Node) (off, end int, ok bool) {
	if v.Kind != yaml.ScalarNode {
		return 0, 0, false
	}
	return scalarSpan(h, v)
}
