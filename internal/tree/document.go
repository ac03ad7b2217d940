package tree

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/git-context-tree/git-context-tree/contracts"
)

// Document is one parsed Markdown document of a tree.
type Document struct {
	Path        string // tree-relative, "/"-separated
	Root        bool   // the tree's root NODE.md
	Frontmatter *Frontmatter
	Meta        Meta
	Findings    []contracts.Finding
	// Body is the Markdown after the frontmatter, or the whole text when
	// there is no frontmatter; nil when the header cannot be parsed.
	Body []byte
	// BodyLine is the 1-based file line on which Body starts.
	BodyLine int
}

// Meta is the document contract's known fields, as far as they are valid.
type Meta struct {
	Title       string
	Description string
	SoftLinks   []SoftLink
}

// SoftLink is one soft_links entry with the file line it is written on.
type SoftLink struct {
	Value string
	Line  int
}

// ParseDocument parses and checks one document's frontmatter and metadata
// (S15). It never fails: every problem is a finding on the document.
func ParseDocument(rel string, data []byte, root bool) *Document {
	d := &Document{Path: rel, Root: root}
	if root && len(data) > contracts.MaxRootBytes {
		d.add(contracts.FindingRootNodeInvalid, 0, fmt.Sprintf("root NODE.md is %d bytes; the limit is %d", len(data), contracts.MaxRootBytes))
	}
	fm, err := ParseFrontmatter(data)
	var perr *ParseError
	switch {
	case errors.Is(err, errNoFrontmatter):
		d.add(contracts.FindingFrontmatterMissing, 1, "document has no frontmatter (a first line exactly ---)")
		d.Body, d.BodyLine = bytes.TrimPrefix(data, utf8BOM), 1
		return d
	case errors.As(err, &perr):
		d.add(contracts.FindingFrontmatterParse, perr.Line, perr.Msg)
		return d
	case err != nil:
		d.add(contracts.FindingFrontmatterParse, 0, err.Error())
		return d
	}
	d.Frontmatter, d.Body, d.BodyLine = fm, fm.Body, fm.BodyLine
	if !utf8.Valid(fm.Body) {
		d.add(contracts.FindingDocumentUnreadable, fm.BodyLine+invalidUTF8Line(fm.Body), "document body is not valid UTF-8 text")
	}
	d.checkMeta(fm)
	return d
}

func (d *Document) add(code contracts.FindingCode, line int, msg string) {
	d.Findings = append(d.Findings, contracts.Finding{Code: code, Message: msg, Path: d.Path, Line: line})
}

// field returns the value node of a top-level key and its key node.
func field(m *yaml.Node, key string) (k, v *yaml.Node) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i], m.Content[i+1]
		}
	}
	return nil, nil
}

func (d *Document) checkMeta(fm *Frontmatter) {
	m := fm.Mapping
	if d.Root {
		d.checkRoot(fm)
	} else if k, _ := field(m, "schemaVersion"); k != nil {
		d.add(contracts.FindingRootOnlyFields, fileLine(k), "schemaVersion is only allowed in the root NODE.md")
	}
	d.Meta.Title = d.checkTitle(m)
	if k, v := field(m, "description"); k != nil {
		if s, ok := nonEmptyString(v); ok {
			d.Meta.Description = s
		} else {
			d.add(contracts.FindingDescriptionInvalid, fileLine(k), "description must be a non-empty string")
		}
	}
	if k, v := field(m, "soft_links"); k != nil {
		d.Meta.SoftLinks = d.checkSoftLinks(k, v)
	}
}

func (d *Document) checkRoot(fm *Frontmatter) {
	k, v := field(fm.Mapping, "schemaVersion")
	switch {
	case k == nil:
		d.add(contracts.FindingRootNodeInvalid, 1, "root NODE.md must declare schemaVersion: 1")
	case v.Kind != yaml.ScalarNode || v.ShortTag() != "!!int" || v.Value != "1":
		d.add(contracts.FindingRootNodeInvalid, fileLine(k), fmt.Sprintf("root schemaVersion must be the integer 1, not %s", describe(v)))
	}
	if strings.TrimSpace(string(fm.Body)) == "" {
		d.add(contracts.FindingRootNodeInvalid, fm.BodyLine, "root NODE.md must have a non-empty body")
	}
}

func (d *Document) checkTitle(m *yaml.Node) string {
	k, v := field(m, "title")
	if k == nil || v.ShortTag() == "!!null" {
		d.add(contracts.FindingTitleMissing, 1, "document has no title")
		return ""
	}
	if v.Kind != yaml.ScalarNode || v.ShortTag() != "!!str" {
		d.add(contracts.FindingTitleInvalid, fileLine(k), fmt.Sprintf("title must be a string, not %s", describe(v)))
		return ""
	}
	if strings.TrimSpace(v.Value) == "" {
		d.add(contracts.FindingTitleMissing, fileLine(k), "document title is empty")
		return ""
	}
	return v.Value
}

func (d *Document) checkSoftLinks(k, v *yaml.Node) []SoftLink {
	if v.Kind != yaml.SequenceNode || len(v.Content) == 0 {
		d.add(contracts.FindingSoftLinksInvalid, fileLine(k), "soft_links must be a non-empty list of paths")
		return nil
	}
	links := make([]SoftLink, 0, len(v.Content))
	for _, item := range v.Content {
		s, ok := nonEmptyString(item)
		if !ok {
			d.add(contracts.FindingSoftLinksInvalid, fileLine(item), fmt.Sprintf("soft_links entries must be non-empty strings, not %s", describe(item)))
			continue
		}
		links = append(links, SoftLink{Value: s, Line: fileLine(item)})
	}
	return links
}

func nonEmptyString(v *yaml.Node) (string, bool) {
	if v.Kind != yaml.ScalarNode || v.ShortTag() != "!!str" || strings.TrimSpace(v.Value) == "" {
		return "", false
	}
	return v.Value, true
}

// describe names a YAML value's type for messages.
func describe(v *yaml.Node) string {
	switch v.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.AliasNode:
		return "an alias"
	}
	switch v.ShortTag() {
	case "!!str":
		return fmt.Sprintf("the string %q", v.Value)
	case "!!null":
		return "null"
	default:
		return fmt.Sprintf("%s %s", strings.TrimPrefix(v.ShortTag(), "!!"), v.Value)
	}
}
