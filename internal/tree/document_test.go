package tree

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/git-context-tree/git-context-tree/contracts"
)

func TestParseDocumentRoot(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []string
	}{
		{"valid", rootNode, []string{}},
		{"valid with description and soft_links", "---\nschemaVersion: 1\ntitle: R\ndescription: d\nsoft_links: [a.md]\nowners: [x]\n---\nBody\n", []string{}},
		{"schemaVersion as hex integer", "---\nschemaVersion: 0x1\ntitle: R\n---\nBody\n", []string{}},
		{"schemaVersion missing", "---\ntitle: R\n---\nBody\n", []string{"TREE_ROOT_NODE_INVALID@1"}},
		{"schemaVersion string", "---\nschemaVersion: \"1\"\ntitle: R\n---\nBody\n", []string{"TREE_ROOT_NODE_INVALID@2"}},
		{"schemaVersion explicit str tag", "---\nschemaVersion: !!str 1\ntitle: R\n---\nBody\n", []string{"TREE_ROOT_NODE_INVALID@2"}},
		{"schemaVersion 2", "---\ntitle: R\nschemaVersion: 2\n---\nBody\n", []string{"TREE_ROOT_NODE_INVALID@3"}},
		{"schemaVersion float", "---\nschemaVersion: 1.0\ntitle: R\n---\nBody\n", []string{"TREE_ROOT_NODE_INVALID@2"}},
		{"schemaVersion list", "---\nschemaVersion: [1]\ntitle: R\n---\nBody\n", []string{"TREE_ROOT_NODE_INVALID@2"}},
		{"schemaVersion null", "---\nschemaVersion:\ntitle: R\n---\nBody\n", []string{"TREE_ROOT_NODE_INVALID@2"}},
		{"title missing", "---\nschemaVersion: 1\n---\nBody\n", []string{"TREE_TITLE_MISSING@1"}},
		{"title empty", "---\nschemaVersion: 1\ntitle: \"\"\n---\nBody\n", []string{"TREE_TITLE_MISSING@3"}},
		{"title not a string", "---\nschemaVersion: 1\ntitle: 7\n---\nBody\n", []string{"TREE_TITLE_INVALID@3"}},
		{"body empty", "---\nschemaVersion: 1\ntitle: R\n---\n", []string{"TREE_ROOT_NODE_INVALID@5"}},
		{"body absent at eof", "---\nschemaVersion: 1\ntitle: R\n---", []string{"TREE_ROOT_NODE_INVALID@5"}},
		{"body whitespace only", "---\nschemaVersion: 1\ntitle: R\n---\n \n\t\r\n\n", []string{"TREE_ROOT_NODE_INVALID@5"}},
		{"no frontmatter", "# Root\n", []string{"TREE_FRONTMATTER_MISSING@1"}},
		{"frontmatter parse error", "---\nschemaVersion: 1\nschemaVersion: 1\n---\nBody\n", []string{"TREE_FRONTMATTER_PARSE@3"}},
		{"root may not be a scalar", "---\n1\n---\nBody\n", []string{"TREE_FRONTMATTER_PARSE@2"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := ParseDocument("NODE.md", []byte(tt.in), true)
			if diff := cmp.Diff(tt.want, codeLines(d.Findings)); diff != "" {
				t.Errorf("findings (-want +got):\n%s", diff)
			}
			for _, f := range d.Findings {
				if f.Path != "NODE.md" || f.Message == "" {
					t.Errorf("finding %+v: want path NODE.md and a message", f)
				}
			}
		})
	}
}

func TestParseDocumentRootSize(t *testing.T) {
	head := "---\nschemaVersion: 1\ntitle: R\n---\n"
	pad := func(n int) []byte {
		return []byte(head + strings.Repeat("x", n-len(head)-1) + "\n")
	}
	if got := ParseDocument("NODE.md", pad(contracts.MaxRootBytes), true).Findings; len(got) != 0 {
		t.Errorf("%d bytes: findings %v, want none", contracts.MaxRootBytes, got)
	}
	got := codeLines(ParseDocument("NODE.md", pad(contracts.MaxRootBytes+1), true).Findings)
	if diff := cmp.Diff([]string{"TREE_ROOT_NODE_INVALID@0"}, got); diff != "" {
		t.Errorf("%d bytes (-want +got):\n%s", contracts.MaxRootBytes+1, diff)
	}
	// The limit is the root's alone.
	if got := ParseDocument("a.md", []byte(doc("A", strings.Repeat("x", 20000))), false).Findings; len(got) != 0 {
		t.Errorf("large descendant: findings %v, want none", got)
	}
}

func TestParseDocumentDescendant(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []string
	}{
		{"valid", "---\ntitle: A\n---\nBody\n", []string{}},
		{"valid empty body", "---\ntitle: A\n---\n", []string{}},
		{"valid full", "---\ntitle: A\ndescription: What A is.\nsoft_links:\n  - b.md\n  - /c\nowners: [x]\nx-custom: {k: v}\n---\n", []string{}},
		{"title via alias", "---\nname: &n Alice\ntitle: *n\n---\n", []string{}},
		{"title missing", "---\ndescription: d\n---\n", []string{"TREE_TITLE_MISSING@1"}},
		{"title null", "---\na: 1\ntitle:\n---\n", []string{"TREE_TITLE_MISSING@3"}},
		{"title tilde", "---\ntitle: ~\n---\n", []string{"TREE_TITLE_MISSING@2"}},
		{"title empty", "---\ntitle: \"\"\n---\n", []string{"TREE_TITLE_MISSING@2"}},
		{"title blank", "---\ntitle: \"   \"\n---\n", []string{"TREE_TITLE_MISSING@2"}},
		{"title int", "---\ntitle: 5\n---\n", []string{"TREE_TITLE_INVALID@2"}},
		{"title bool", "---\ntitle: true\n---\n", []string{"TREE_TITLE_INVALID@2"}},
		{"title date", "---\ntitle: 2024-01-02\n---\n", []string{"TREE_TITLE_INVALID@2"}},
		{"title list", "---\ntitle: [a]\n---\n", []string{"TREE_TITLE_INVALID@2"}},
		{"title mapping", "---\ntitle:\n  a: b\n---\n", []string{"TREE_TITLE_INVALID@2"}},
		{"description empty", "---\ntitle: A\ndescription: \"\"\n---\n", []string{"TREE_DESCRIPTION_INVALID@3"}},
		{"description blank", "---\ntitle: A\ndescription: \" \"\n---\n", []string{"TREE_DESCRIPTION_INVALID@3"}},
		{"description null", "---\ntitle: A\ndescription:\n---\n", []string{"TREE_DESCRIPTION_INVALID@3"}},
		{"description int", "---\ntitle: A\ndescription: 3\n---\n", []string{"TREE_DESCRIPTION_INVALID@3"}},
		{"description list", "---\ntitle: A\ndescription: [a]\n---\n", []string{"TREE_DESCRIPTION_INVALID@3"}},
		{"soft_links empty", "---\ntitle: A\nsoft_links: []\n---\n", []string{"TREE_SOFT_LINKS_INVALID@3"}},
		{"soft_links null", "---\ntitle: A\nsoft_links:\n---\n", []string{"TREE_SOFT_LINKS_INVALID@3"}},
		{"soft_links string", "---\ntitle: A\nsoft_links: b.md\n---\n", []string{"TREE_SOFT_LINKS_INVALID@3"}},
		{"soft_links mapping", "---\ntitle: A\nsoft_links: {a: b}\n---\n", []string{"TREE_SOFT_LINKS_INVALID@3"}},
		{"soft_links empty entry", "---\ntitle: A\nsoft_links:\n  - b.md\n  - \"\"\n---\n", []string{"TREE_SOFT_LINKS_INVALID@5"}},
		{"soft_links non-string entries", "---\ntitle: A\nsoft_links:\n  - 5\n  - b.md\n  - [c]\n  -\n---\n", []string{"TREE_SOFT_LINKS_INVALID@4", "TREE_SOFT_LINKS_INVALID@6", "TREE_SOFT_LINKS_INVALID@7"}},
		{"schemaVersion on descendant", "---\ntitle: A\nschemaVersion: 1\n---\n", []string{"TREE_ROOT_ONLY_FIELDS@3"}},
		{"several problems", "---\nschemaVersion: 1\ndescription: 1\nsoft_links: []\n---\n", []string{"TREE_ROOT_ONLY_FIELDS@2", "TREE_TITLE_MISSING@1", "TREE_DESCRIPTION_INVALID@3", "TREE_SOFT_LINKS_INVALID@4"}},
		{"no frontmatter", "# A\n", []string{"TREE_FRONTMATTER_MISSING@1"}},
		{"trailing space on opening", "--- \ntitle: A\n---\n", []string{"TREE_FRONTMATTER_MISSING@1"}},
		{"unterminated", "---\ntitle: A\n", []string{"TREE_FRONTMATTER_PARSE@1"}},
		{"duplicate key", "---\ntitle: A\ntitle: B\n---\n", []string{"TREE_FRONTMATTER_PARSE@3"}},
		{"list header", "---\n- title\n---\n", []string{"TREE_FRONTMATTER_PARSE@2"}},
		{"binary without frontmatter", "\x00\xff\xfe binary", []string{"TREE_DOCUMENT_UNREADABLE@1"}},
		{"invalid utf-8 body", "---\ntitle: A\n---\nok\nbad \xff\n", []string{"TREE_DOCUMENT_UNREADABLE@5"}},
		{"invalid utf-8 header", "---\ntitle: \xff\n---\n", []string{"TREE_FRONTMATTER_PARSE@2"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := ParseDocument("d/a.md", []byte(tt.in), false)
			if diff := cmp.Diff(tt.want, codeLines(d.Findings)); diff != "" {
				t.Errorf("findings (-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseDocumentMeta(t *testing.T) {
	in := "\xef\xbb\xbf---\r\ntitle: A\r\ndescription: About A.\r\nsoft_links:\r\n  - b.md\r\n  - 7\r\n  - /c/\r\n---\r\nBody\r\n"
	d := ParseDocument("a.md", []byte(in), false)
	want := Meta{Title: "A", Description: "About A.", SoftLinks: []SoftLink{{"b.md", 5}, {"/c/", 7}}}
	if diff := cmp.Diff(want, d.Meta); diff != "" {
		t.Errorf("Meta (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"TREE_SOFT_LINKS_INVALID@6"}, codeLines(d.Findings)); diff != "" {
		t.Errorf("findings (-want +got):\n%s", diff)
	}
	if string(d.Body) != "Body\r\n" || d.BodyLine != 9 {
		t.Errorf("Body %q at line %d, want %q at 9", d.Body, d.BodyLine, "Body\r\n")
	}
}

func TestParseDocumentBody(t *testing.T) {
	tests := []struct {
		name     string
		in       string
		body     string
		bodyLine int
		nilBody  bool
	}{
		{"frontmatter", "---\ntitle: A\n---\nB", "B", 4, false},
		{"no frontmatter keeps whole text without BOM", "\xef\xbb\xbf# A\nB", "# A\nB", 1, false},
		{"unparseable header has no body", "---\ntitle: [\n---\nB", "", 0, true},
		{"closing delimiter at eof", "---\ntitle: A\n---", "", 4, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := ParseDocument("a.md", []byte(tt.in), false)
			if (d.Body == nil) != tt.nilBody {
				t.Fatalf("Body nil = %v, want %v", d.Body == nil, tt.nilBody)
			}
			if string(d.Body) != tt.body || d.BodyLine != tt.bodyLine {
				t.Errorf("Body %q at %d, want %q at %d", d.Body, d.BodyLine, tt.body, tt.bodyLine)
			}
		})
	}
}

// verify and read agree: a header whose aliases expand too far is a
// finding, and its known fields are still read.
func TestParseDocumentAliasBomb(t *testing.T) {
	d := ParseDocument("a.md", []byte(aliasBomb(5)), false)
	if diff := cmp.Diff([]string{"TREE_FRONTMATTER_PARSE@0"}, codeLines(d.Findings), cmpIgnoreLine); diff != "" {
		t.Errorf("findings (-want +got):\n%s", diff)
	}
	if d.Meta.Title != "Bomb" {
		t.Errorf("title = %q, want Bomb", d.Meta.Title)
	}
	if got := ParseDocument("a.md", []byte(aliasBomb(3)), false).Findings; len(got) != 0 {
		t.Errorf("small alias expansion: findings %v, want none", got)
	}
}

// cmpIgnoreLine compares "CODE@line" strings by code only.
var cmpIgnoreLine = cmp.Comparer(func(a, b string) bool {
	return strings.SplitN(a, "@", 2)[0] == strings.SplitN(b, "@", 2)[0]
})
