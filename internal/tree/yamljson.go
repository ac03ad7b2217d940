package tree

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"

	"go.yaml.in/yaml/v3"
)

// maxAliasExpansion bounds how many nodes aliases may add to a header's
// own nodes when it is rendered, so an alias bomb cannot blow up the output.
const maxAliasExpansion = 10000

// MappingJSON renders a frontmatter mapping as a JSON object that keeps the
// document's key order and every unknown field. Timestamps and other values
// without a JSON type are rendered as the strings written in the document.
func MappingJSON(m *yaml.Node) (json.RawMessage, error) {
	var buf bytes.Buffer
	budget := countNodes(m, 0) + maxAliasExpansion
	if err := writeJSON(&buf, m, &budget, 0); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// countNodes counts the nodes written in the header, not following aliases.
func countNodes(n *yaml.Node, depth int) int {
	c := 1
	if depth > maxNesting {
		return c
	}
	for _, k := range n.Content {
		c += countNodes(k, depth+1)
	}
	return c
}

func writeJSON(buf *bytes.Buffer, n *yaml.Node, budget *int, depth int) error {
	*budget--
	if *budget < 0 || depth > maxNesting {
		return &ParseError{Line: fileLine(n), Msg: "frontmatter expands to too many values"}
	}
	switch n.Kind {
	case yaml.AliasNode:
		if n.Alias == nil {
			buf.WriteString("null")
			return nil
		}
		return writeJSON(buf, n.Alias, budget, depth+1)
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			buf.WriteString("null")
			return nil
		}
		return writeJSON(buf, n.Content[0], budget, depth+1)
	case yaml.MappingNode:
		buf.WriteByte('{')
		for i := 0; i+1 < len(n.Content); i += 2 {
			if i > 0 {
				buf.WriteByte(',')
			}
			writeString(buf, n.Content[i].Value)
			buf.WriteByte(':')
			if err := writeJSON(buf, n.Content[i+1], budget, depth+1); err != nil {
				return atKey(err, n.Content[i], depth)
			}
		}
		buf.WriteByte('}')
	case yaml.SequenceNode:
		buf.WriteByte('[')
		for i, c := range n.Content {
			if i > 0 {
				buf.WriteByte(',')
			}
			if err := writeJSON(buf, c, budget, depth+1); err != nil {
				return err
			}
		}
		buf.WriteByte(']')
	default:
		writeScalar(buf, n)
	}
	return nil
}

func writeScalar(buf *bytes.Buffer, n *yaml.Node) {
	switch n.ShortTag() {
	case "!!null":
		buf.WriteString("null")
		return
	case "!!bool":
		var b bool
		if n.Decode(&b) == nil {
			buf.WriteString(strconv.FormatBool(b))
			return
		}
	case "!!int":
		var i int64
		if n.Decode(&i) == nil {
			buf.WriteString(strconv.FormatInt(i, 10))
			return
		}
		var u uint64
		if n.Decode(&u) == nil {
			buf.WriteString(strconv.FormatUint(u, 10))
			return
		}
	case "!!float":
		var f float64
		if n.Decode(&f) == nil && !math.IsInf(f, 0) && !math.IsNaN(f) {
			buf.WriteString(strconv.FormatFloat(f, 'g', -1, 64))
			return
		}
	}
	writeString(buf, n.Value)
}

func writeString(buf *bytes.Buffer, s string) {
	b, _ := json.Marshal(s) // a Go string always marshals
	buf.Write(b)
}

// atKey places an expansion error on the top-level key whose value
// overflowed, rather than deep inside the anchor it expands.
func atKey(err error, key *yaml.Node, depth int) error {
	if pe, ok := err.(*ParseError); ok && depth == 0 {
		pe.Line = fileLine(key)
	}
	return err
}
