package tree

import (
	"bytes"
	"fmt"
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/git-context-tree/git-context-tree/contracts"
)

// IndexLink is one child a new directory index lists.
type IndexLink struct {
	Name  string // file or directory name
	Title string
	Dir   bool
}

// IndexDocument renders a new NODE.md for a directory: its title, and a
// body listing its children as links with their titles (links relative to
// the directory, so they work in any Markdown viewer). A root index also
// declares schemaVersion: 1.
func IndexDocument(title string, root bool, children []IndexLink) ([]byte, error) {
	if strings.TrimSpace(title) == "" || strings.ContainsAny(title, "\r\n") || !utf8.ValidString(title) {
		return nil, contracts.Errorf(contracts.CodeUsage, "title must be a non-empty single line of text")
	}
	line, err := yamlField("title", title, "\n")
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	b.WriteString("---\n")
	if root {
		b.WriteString("schemaVersion: 1\n")
	}
	fmt.Fprintf(&b, "%s---\n\n# %s\n\n", line, markdownText.Replace(title))
	if len(children) == 0 {
		b.WriteString("Nothing here yet.\n")
	}
	for _, c := range children {
		dest := url.PathEscape(c.Name)
		if c.Dir {
			dest += "/" + NodeFile
		}
		title := strings.Join(strings.Fields(c.Title), " ") // one list item, one line
		fmt.Fprintf(&b, "- [%s](%s)\n", markdownText.Replace(cmpOr(title, c.Name)), dest)
	}
	if root && b.Len() > contracts.MaxRootBytes {
		// Too many children for the root's size limit: say where they are.
		b.Reset()
		fmt.Fprintf(&b, "---\nschemaVersion: 1\n%s---\n\n# %s\n\nThis tree holds %d documents and directories; each directory's NODE.md lists its own.\n",
			line, markdownText.Replace(title), len(children))
		if b.Len() > contracts.MaxRootBytes {
			return nil, contracts.Errorf(contracts.CodeUsage, "title is too long: the root NODE.md would exceed %d bytes", contracts.MaxRootBytes)
		}
	}
	return b.Bytes(), nil
}
