package tree

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/git-context-tree/git-context-tree/contracts"
)

// DefaultTitle derives a root title from a directory name, keeping how
// the user wrote it: "team-handbook" becomes "team handbook", "kb" stays
// "kb" (NameTitle).
func DefaultTitle(dir string) string {
	t := NameTitle(filepath.Base(dir))
	if t == "" || t == "." || t == string(filepath.Separator) {
		return "Context Tree"
	}
	return t
}

// RootDocument renders a new root NODE.md (document contract v1) with a
// starter body that explains the tree's shape to its first readers.
func RootDocument(title string) ([]byte, error) {
	if strings.TrimSpace(title) == "" || strings.ContainsAny(title, "\r\n") || !utf8.ValidString(title) {
		return nil, contracts.Errorf(contracts.CodeUsage, "title must be a non-empty single line of text")
	}
	fm, err := yaml.Marshal(contracts.RootFrontmatter{SchemaVersion: contracts.DocumentVersion, Title: title})
	if err != nil {
		return nil, fmt.Errorf("render frontmatter: %w", err)
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "---\n%s---\n\n# %s\n\n", fm, markdownText.Replace(title))
	b.WriteString(starterBody)
	if b.Len() > contracts.MaxRootBytes {
		return nil, contracts.Errorf(contracts.CodeUsage, "title is too long: the root NODE.md would exceed %d bytes", contracts.MaxRootBytes)
	}
	return b.Bytes(), nil
}

// markdownText escapes the characters that would make a title Markdown
// syntax (a link that leaves the tree, an entity, emphasis) in the heading.
var markdownText = strings.NewReplacer(
	`\`, `\\`, "`", "\\`", "*", `\*`, "_", `\_`, "[", `\[`, "]", `\]`,
	"<", `\<`, ">", `\>`, "!", `\!`, "&", `\&`, "#", `\#`,
)

const starterBody = `This is the root of a Context Tree: durable knowledge that people and coding
agents read and maintain together. Keep decisions, constraints and the
relationships between domains here, not task logs.

## How this tree is organised

- Every directory is a domain with its own ` + "`NODE.md`" + ` index that lists what
  it holds.
- Every document covers one topic and starts with frontmatter: a ` + "`title`" + `,
  an optional ` + "`description`" + ` and optional ` + "`soft_links`" + ` to related documents.
- ` + "`members/`" + ` holds each member's personal working memory.

## Domains

None yet. Add a directory with a ` + "`NODE.md`" + ` for each domain and list it here.
`

// Scaffold creates dir (and missing parents) and writes a new root NODE.md
// into it: the starter document in an empty directory, an index of the
// directory's children (as fix writes it) in one with content, so adopting
// an existing folder lists what it holds. It refuses, writing nothing,
// when dir already has a NODE.md. It returns the root's real path.
func Scaffold(dir, title string) (string, error) {
	if _, err := RootDocument(title); err != nil {
		return "", err
	}
	if fi, err := os.Lstat(dir); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		return "", contracts.Errorf(contracts.CodeRootSymlink, "%s is a symlink; a tree root must be a real directory", dir)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", contracts.Errorf(contracts.CodeIO, "cannot create %s: %v", dir, unwrapPathError(err))
	}
	root, err := OpenRoot(dir)
	if err != nil {
		return "", err
	}
	name := filepath.Join(root, NodeFile)
	if IsTreeRoot(root) {
		return "", treeExists(name)
	}
	doc, err := rootDocumentFor(root, title)
	if err != nil {
		return "", err
	}
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, fs.ErrExist) {
		return "", treeExists(name)
	}
	if err != nil {
		return "", contracts.Errorf(contracts.CodeIO, "cannot create %s: %v", name, unwrapPathError(err))
	}
	if _, err := f.Write(doc); err != nil {
		f.Close()
		os.Remove(name)
		return "", contracts.Errorf(contracts.CodeIO, "cannot write %s: %v", name, err)
	}
	if err := f.Close(); err != nil {
		os.Remove(name)
		return "", contracts.Errorf(contracts.CodeIO, "cannot write %s: %v", name, err)
	}
	return root, nil
}

func treeExists(name string) error {
	return contracts.Errorf(contracts.CodeTreeExists, "%s already exists; init never overwrites a tree", name).WithDetails(map[string]any{"path": name})
}

// rootDocumentFor is the root NODE.md init writes into root: the starter
// document, or the index fix would create when root has content.
func rootDocumentFor(root, title string) ([]byte, error) {
	entries, err := os.ReadDir(root)
	if err != nil {
		return nil, contracts.Errorf(contracts.CodeIO, "cannot list %s: %v", root, unwrapPathError(err))
	}
	for _, e := range entries {
		if ClassOf(e.Name()) == contracts.ClassInfrastructure {
			continue
		}
		plan, err := PlanFix(root, FixOptions{RootTitle: title})
		if err != nil {
			return nil, err
		}
		for _, ch := range plan.Changes {
			if ch.Path == NodeFile && ch.Create {
				return ch.New, nil
			}
		}
		break
	}
	return RootDocument(title)
}
