package tree

import (
	"bytes"
	"errors"
	"fmt"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/git-context-tree/git-context-tree/contracts"
)

// FixContext is what fixing one document needs to know of its tree.
type FixContext struct {
	Root     bool   // the document is the tree's root NODE.md
	TreeName string // the tree root directory's name (a root's title)
	// Linkable reports whether a tree-relative path is a document or an
	// indexed directory; nil rewrites no soft link.
	Linkable func(string) bool
}

// FixDocument returns a document's bytes with the safe mechanical repairs
// applied, and what each repair does: frontmatter added to a document that
// has none (its title from the first level-1 heading, else from the file
// name; the body kept byte for byte), a missing schemaVersion on the root
// or a missing title inserted, a misspelt description key renamed when
// only one key can be meant, and soft links written relative to the
// document rewritten tree-root-relative when that names something
// linkable (linkable may be nil: no soft link is rewritten). Every other
// byte is kept: unknown fields, key order, comments, quoting. When a
// repair cannot be made exactly, the document is returned unchanged.
// FixDocument(FixDocument(d)) changes nothing.
func FixDocument(rel string, data []byte, fc FixContext) ([]byte, []contracts.FixRepair) {
	root := fc.Root
	if len(data) > contracts.MaxDocumentBytes {
		return data, nil
	}
	fm, err := ParseFrontmatter(data)
	var out []byte
	var repairs []contracts.FixRepair
	switch {
	case errors.Is(err, errNoFrontmatter):
		out, repairs = addFrontmatter(rel, data, fc)
	case err != nil || fm.HasAliases:
		return data, nil // a broken or aliased header: nothing is mechanical
	default:
		out, repairs = fixHeader(rel, data, fm, fc)
	}
	if len(repairs) == 0 || !parsesAsBefore(rel, data, out, root) {
		return data, nil
	}
	return out, repairs
}

// parsesAsBefore is the last safety check of a repair: the new document's
// frontmatter parses, and its body is the old body.
func parsesAsBefore(rel string, old, out []byte, root bool) bool {
	fm, err := ParseFrontmatter(out)
	if err != nil {
		return false
	}
	oldBody := bytes.TrimPrefix(old, utf8BOM)
	if ofm, err := ParseFrontmatter(old); err == nil {
		oldBody = ofm.Body
	}
	doc := ParseDocument(rel, out, root)
	for _, f := range doc.Findings {
		if f.Code == contracts.FindingFrontmatterParse {
			return false
		}
	}
	return bytes.Equal(fm.Body, oldBody)
}

// addFrontmatter puts a header in front of a document that has none.
func addFrontmatter(rel string, data []byte, fc FixContext) ([]byte, []contracts.FixRepair) {
	root := fc.Root
	bom := bytes.HasPrefix(data, utf8BOM)
	body := bytes.TrimPrefix(data, utf8BOM)
	if !utf8.Valid(body) || bytes.IndexByte(body, 0) >= 0 {
		return data, nil // not text: whether it is a document is not ours to decide
	}
	eol := lineEnding(body)
	title, from := inferTitle(rel, body, fc.TreeName)
	var b bytes.Buffer
	if bom {
		b.Write(utf8BOM)
	}
	b.WriteString("---" + eol)
	if root {
		b.WriteString("schemaVersion: 1" + eol)
	}
	line, err := yamlField("title", title, eol)
	if err != nil {
		return data, nil
	}
	b.WriteString(line)
	b.WriteString("---" + eol)
	b.Write(body)
	msg := fmt.Sprintf("add frontmatter with the title %q (%s)", title, from)
	if root {
		msg = fmt.Sprintf("add frontmatter with schemaVersion: 1 and the title %q (%s)", title, from)
	}
	return b.Bytes(), []contracts.FixRepair{{Code: contracts.FindingFrontmatterMissing, Line: 1, Message: msg}}
}

// lineEnding is "\r\n" when the text's first line ends so, else "\n".
func lineEnding(text []byte) string {
	if i := bytes.IndexByte(text, '\n'); i > 0 && text[i-1] == '\r' {
		return "\r\n"
	}
	return "\n"
}

// yamlField renders one "key: value" line as YAML writes it, quoting the
// value when it must be.
func yamlField(key string, value any, eol string) (string, error) {
	out, err := yaml.Marshal(map[string]any{key: value})
	if err != nil {
		return "", fmt.Errorf("render %s: %w", key, err)
	}
	s := string(out)
	if bytes.Count(out, []byte("\n")) != 1 {
		return "", fmt.Errorf("render %s: not one line", key)
	}
	return s[:len(s)-1] + eol, nil
}
