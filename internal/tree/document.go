package tree

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
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
	// Sources are the well-formed entries of the evidence list.
	Sources []Source
	// LLMS is LLMSOptional or LLMSExclude when the frontmatter says so.
	LLMS string
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
		d.Body, d.BodyLine = bytes.TrimPrefix(data, utf8BOM), 1
		if !d.checkText() {
			return d // binary: whether it "has frontmatter" is meaningless
		}
		d.add(contracts.FindingFrontmatterMissing, 1, "document has no frontmatter (a first line exactly ---)")
		return d
	case errors.As(err, &perr):
		d.add(contracts.FindingFrontmatterParse, perr.Line, perr.Msg)
		return d
	case err != nil:
		d.add(contracts.FindingFrontmatterParse, 0, err.Error())
		return d
	}
	d.Frontmatter, d.Body, d.BodyLine = fm, fm.Body, fm.BodyLine
	d.checkText()
	d.checkExpansion(fm)
	d.checkMeta(fm)
	return d
}

// checkExpansion reports a header whose aliases expand beyond what read can
// render (an alias bomb), so verify and read agree it is invalid. Its known
// fields are still checked and returned.
func (d *Document) checkExpansion(fm *Frontmatter) {
	if !fm.HasAliases {
		return
	}
	if _, err := MappingJSON(fm.Mapping); err != nil {
		line := 0
		var perr *ParseError
		if errors.As(err, &perr) {
			line = perr.Line
		}
		d.add(contracts.FindingFrontmatterParse, line, err.Error())
	}
}

// checkText reports a body that is not UTF-8 text and returns whether it is.
func (d *Document) checkText() bool {
	if utf8.Valid(d.Body) {
		return true
	}
	d.add(contracts.FindingDocumentUnreadable, d.BodyLine+invalidUTF8Line(d.Body), "document is not valid UTF-8 text")
	return false
}

func (d *Document) add(code contracts.FindingCode, line int, msg string) {
	d.Findings = append(d.Findings, contracts.Finding{Code: code, Message: msg, Path: d.Path, Line: line})
}

// field returns the value node of a top-level key, aliases resolved, and
// its key node.
func field(m *yaml.Node, key string) (k, v *yaml.Node) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i], deref(m.Content[i+1])
		}
	}
	return nil, nil
}

// deref follows an alias to the node it names ("title: *name").
func deref(n *yaml.Node) *yaml.Node {
	for i := 0; i < maxNesting && n.Kind == yaml.AliasNode && n.Alias != nil; i++ {
		n = n.Alias
	}
	return n
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
	if k, v := field(m, "sources"); k != nil {
		d.Meta.Sources = d.checkSources(k, v)
	}
	// llms: the document's place in llms.txt (any other value is an
	// unknown key's value: kept, and without effect).
	if k, v := field(m, "llms"); k != nil && v.Kind == yaml.ScalarNode && (v.Value == LLMSOptional || v.Value == LLMSExclude) {
		d.Meta.LLMS = v.Value
	}
}

// The values of a document's llms key.
const (
	LLMSOptional = "optional" // listed under llms.txt's "Optional" section
	LLMSExclude  = "exclude"  // left out of llms.txt and llms-full.txt
)

func (d *Document) checkRoot(fm *Frontmatter) {
	k, v := field(fm.Mapping, "schemaVersion")
	switch {
	case k == nil:
		d.add(contracts.FindingRootNodeInvalid, 1, "root NODE.md must declare schemaVersion: 1")
	case !isIntegerOne(v):
		d.add(contracts.FindingRootNodeInvalid, fileLine(k), fmt.Sprintf("root schemaVersion must be the integer 1, not %s", describe(v)))
	}
	if strings.TrimSpace(string(fm.Body)) == "" {
		d.add(contracts.FindingRootNodeInvalid, fm.BodyLine, "root NODE.md must have a non-empty body")
	}
}

// isIntegerOne reports a YAML integer equal to 1 ("1", "0x1"), not the
// string "1" nor the float 1.0.
func isIntegerOne(v *yaml.Node) bool {
	var i int64
	return v.Kind == yaml.ScalarNode && v.ShortTag() == "!!int" && v.Decode(&i) == nil && i == 1
}

func (d *Document) checkTitle(m *yaml.Node) string {
	k, v := field(m, "title")
	switch {
	case k == nil:
		d.add(contracts.FindingTitleMissing, 1, "document has no title")
		return ""
	case v.Kind == yaml.ScalarNode && v.ShortTag() == "!!null":
		d.add(contracts.FindingTitleMissing, fileLine(k), emptyTitle)
		return ""
	case v.Kind != yaml.ScalarNode || v.ShortTag() != "!!str":
		d.add(contracts.FindingTitleInvalid, fileLine(k), fmt.Sprintf("title must be a string, not %s", describe(v)))
		return ""
	case strings.TrimSpace(v.Value) == "":
		d.add(contracts.FindingTitleMissing, fileLine(k), emptyTitle)
		return ""
	}
	return v.Value
}

// emptyTitle is the message for an empty title, with the usual cause: a
// value YAML reads as nothing, such as "title: # Heading" (a comment).
const emptyTitle = `document title is empty; write the document's name after "title:" (quote it when it starts with # or holds ": ")`

func (d *Document) checkSoftLinks(k, v *yaml.Node) []SoftLink {
	if s, ok := nonEmptyString(v); ok && v.Kind == yaml.ScalarNode {
		d.add(contracts.FindingSoftLinksInvalid, fileLine(k), fmt.Sprintf("soft_links must be a non-empty list of paths, not a single string; write it as a list: soft_links: [%s]", strconv.Quote(s)))
		return nil
	}
	if v.Kind != yaml.SequenceNode || len(v.Content) == 0 {
		d.add(contracts.FindingSoftLinksInvalid, fileLine(k), "soft_links must be a non-empty list of paths")
		return nil
	}
	links := make([]SoftLink, 0, len(v.Content))
	for _, item := range v.Content {
		s, ok := nonEmptyString(deref(item))
		if !ok {
			d.add(contracts.FindingSoftLinksInvalid, fileLine(item), fmt.Sprintf("soft_links entries must be non-empty strings, not %s", describe(deref(item))))
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
