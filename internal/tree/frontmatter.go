package tree

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"sync"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

var utf8BOM = []byte("\xef\xbb\xbf")

// errNoFrontmatter means the document does not open with a "---" line.
var errNoFrontmatter = errors.New("no frontmatter")

// Frontmatter is a document split into its YAML header and its body.
type Frontmatter struct {
	// Mapping is the frontmatter mapping node; it has no content for an
	// empty header.
	Mapping *yaml.Node
	// Body is every byte after the closing delimiter line, unchanged.
	Body []byte
	// BodyLine is the 1-based file line on which Body starts.
	BodyLine int
	// HasAliases reports a "*name" alias anywhere in the header: only then
	// can rendering it (MappingJSON) expand beyond its own size.
	HasAliases bool
}

// ParseError is a frontmatter that exists but is not a valid YAML mapping.
type ParseError struct {
	Line int // 1-based file line, 0 when unknown
	Msg  string
}

func (e *ParseError) Error() string { return e.Msg }

// ParseFrontmatter splits data into frontmatter and body (DESIGN §4): the
// first line must be exactly "---" (after an optional UTF-8 BOM, CRLF
// tolerated) and the header ends at the next line that is exactly "---".
// It returns errNoFrontmatter when there is no opening line and a
// *ParseError when the header is not a valid YAML mapping.
func ParseFrontmatter(data []byte) (*Frontmatter, error) {
	data = bytes.TrimPrefix(data, utf8BOM)
	first, rest, _ := cutLine(data)
	if !isDelimiter(first) {
		return nil, errNoFrontmatter
	}
	header := rest
	line := 2
	for len(rest) > 0 {
		l, next, _ := cutLine(rest)
		if isDelimiter(l) {
			yamlText := header[:len(header)-len(rest)]
			m, aliases, err := parseMapping(yamlText)
			if err != nil {
				return nil, err
			}
			return &Frontmatter{Mapping: m, Body: next, BodyLine: line + 1, HasAliases: aliases}, nil
		}
		rest = next
		line++
	}
	return nil, &ParseError{Line: 1, Msg: "frontmatter has no closing --- line"}
}

// cutLine splits off the first line, without its terminator. rest is
// always a suffix of b (empty, not nil, at the end), so a body that ends
// with the closing delimiter is an empty body rather than a missing one.
func cutLine(b []byte) (line, rest []byte, terminated bool) {
	i := bytes.IndexByte(b, '\n')
	if i < 0 {
		return b, b[len(b):], false
	}
	return b[:i], b[i+1:], true
}

func isDelimiter(line []byte) bool {
	return string(bytes.TrimSuffix(line, []byte("\r"))) == "---"
}

// parseMapping decodes the header text into a mapping node, rejecting
// invalid UTF-8, anything but a single YAML document holding a mapping, and
// duplicate or non-scalar keys. A header that is empty or only comments is an
// empty mapping.
func parseMapping(text []byte) (m *yaml.Node, aliases bool, err error) {
	if !utf8.Valid(text) {
		return nil, false, &ParseError{Line: 2 + invalidUTF8Line(text), Msg: "frontmatter is not valid UTF-8"}
	}
	dec := yaml.NewDecoder(bytes.NewReader(text))
	var doc yaml.Node
	if err := dec.Decode(&doc); errors.Is(err, io.EOF) {
		return &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}, false, nil
	} else if err != nil {
		return nil, false, yamlError(err)
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); !errors.Is(err, io.EOF) {
		if err != nil {
			return nil, false, yamlError(err)
		}
		return nil, false, &ParseError{Line: fileLine(&extra), Msg: "frontmatter must be a single YAML document"}
	}
	m = doc.Content[0]
	if m.Kind != yaml.MappingNode {
		return nil, false, &ParseError{Line: fileLine(m), Msg: fmt.Sprintf("frontmatter must be a YAML mapping, not %s", describe(m))}
	}
	if err := checkKeys(m, 0, &aliases); err != nil {
		return nil, false, err
	}
	return m, aliases, nil
}

// maxNesting bounds recursion over hostile YAML.
const maxNesting = 100

// checkKeys rejects duplicate and non-scalar keys in every mapping, and
// notes whether the header uses aliases.
func checkKeys(n *yaml.Node, depth int, aliases *bool) error {
	if depth > maxNesting {
		return &ParseError{Line: fileLine(n), Msg: "frontmatter is nested too deeply"}
	}
	if n.Kind == yaml.AliasNode {
		*aliases = true
	}
	if n.Kind == yaml.MappingNode {
		seen := make(map[string]bool, len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			if k.Kind != yaml.ScalarNode {
				return &ParseError{Line: fileLine(k), Msg: "frontmatter keys must be scalars"}
			}
			if seen[k.Value] {
				return &ParseError{Line: fileLine(k), Msg: fmt.Sprintf("duplicate frontmatter key %q", k.Value)}
			}
			seen[k.Value] = true
		}
	}
	for _, c := range n.Content {
		if err := checkKeys(c, depth+1, aliases); err != nil {
			return err
		}
	}
	return nil
}

// fileLine converts a YAML node line (1-based within the header) to a file line.
func fileLine(n *yaml.Node) int {
	if n == nil || n.Line == 0 {
		return 0
	}
	return n.Line + 1
}

func invalidUTF8Line(b []byte) int {
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size == 1 {
			return bytes.Count(b[:i], []byte("\n"))
		}
		i += size
	}
	return 0
}

// yamlLine matches the header line number yaml puts in its messages.
var yamlLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^line (\d+): `) })

// yamlError converts a YAML syntax error to a ParseError with a file line
// when yaml reports one.
func yamlError(err error) *ParseError {
	msg := string(bytes.TrimPrefix([]byte(err.Error()), []byte("yaml: ")))
	pe := &ParseError{Msg: "frontmatter is not valid YAML: " + msg}
	if m := yamlLine().FindStringSubmatch(msg); m != nil {
		if n, err := strconv.Atoi(m[1]); err == nil && n > 0 {
			pe.Line = n + 1
			pe.Msg = "frontmatter is not valid YAML: " + msg[len(m[0]):]
		}
	}
	return pe
}
