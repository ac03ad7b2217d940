package tree

import (
	"path"
	"strings"
	"unicode"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
)

// inferTitle is the title fix gives a document without one: its first
// level-1 heading, else its file name (a NODE.md: its directory's name;
// the root's: the tree's). from says which, for messages.
func inferTitle(rel string, body []byte, treeName string) (title, from string) {
	if t := firstHeading(body); t != "" {
		return t, "from its first heading"
	}
	dir, base := path.Split(rel)
	if base != NodeFile {
		return NameTitle(strings.TrimSuffix(base, ".md")), "from its file name"
	}
	dir = strings.TrimSuffix(dir, "/")
	if dir == "" {
		return DefaultTitle(treeName), "from the tree's directory name"
	}
	return NameTitle(path.Base(dir)), "from its directory name"
}

// NameTitle makes a readable title of a file or directory name, keeping
// its casing: "team-handbook" and "team_handbook" become "team handbook",
// "API" stays "API". It is "" for a name with no letters to show.
func NameTitle(name string) string {
	t := strings.Map(func(r rune) rune {
		if r == '-' || r == '_' || unicode.IsControl(r) {
			return ' '
		}
		return r
	}, strings.ToValidUTF8(name, " "))
	return strings.Join(strings.Fields(t), " ")
}

// firstHeading is the text of the first level-1 heading (ATX or setext)
// of a Markdown body, "" when it has none; code blocks hold no headings.
func firstHeading(body []byte) string {
	doc := goldmark.DefaultParser().Parse(text.NewReader(body))
	var title string
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		h, ok := n.(*ast.Heading)
		if !entering || !ok || h.Level != 1 {
			return ast.WalkContinue, nil
		}
		var b strings.Builder
		inlineText(&b, h, body)
		if t := strings.Join(strings.Fields(b.String()), " "); t != "" {
			title = t
			return ast.WalkStop, nil
		}
		return ast.WalkSkipChildren, nil
	})
	return title
}

// inlineText appends the plain text of n's inline content.
func inlineText(b *strings.Builder, n ast.Node, src []byte) {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		switch v := c.(type) {
		case *ast.Text:
			b.Write(v.Segment.Value(src))
			if v.SoftLineBreak() || v.HardLineBreak() {
				b.WriteByte(' ')
			}
		case *ast.String:
			b.Write(v.Value)
		case *ast.RawHTML:
		default:
			inlineText(b, c, src)
		}
	}
}
