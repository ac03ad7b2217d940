package tree

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/git-context-tree/git-context-tree/contracts"
)

func readTree(t *testing.T) string {
	t.Helper()
	root := writeTree(t, map[string]string{
		"NODE.md":               "---\nschemaVersion: 1\ntitle: Root\nowners: [a, b]\nextra: {z: 1, a: 2}\n---\n\n# Root\n\nBody.\n",
		"b.md":                  "---\ntitle: B\ndescription: About B.\nsoft_links: [d, /d/leaf.md]\n---\nB body\n",
		"a.md":                  "---\ntitle: A\n---\n",
		"bad.md":                "---\ntitle: [x]\n---\n",
		"nofm.md":               "# No frontmatter\n",
		"img.png":               "x",
		"UPPER.MD":              "asset",
		"d/NODE.md":             "---\ntitle: D\ndescription: The d domain.\n---\nD body\n",
		"d/leaf.md":             "\xef\xbb\xbf---\r\ntitle: Leaf\r\n---\r\nLeaf body\r\n",
		"d/e/NODE.md":           doc("E", ""),
		"empty/":                "",
		"members/NODE.md":       doc("Members", ""),
		"members/alice/NODE.md": doc("Alice", "Alice body\n"),
		"members/alice/x.md":    doc("X", ""),
		".git/HEAD":             "",
		".hidden.md":            doc("Hidden", ""),
		"AGENTS.md":             doc("Agents", ""),
		"scripts/NODE.md":       doc("Scripts", ""),
		"node_modules/p.md":     doc("P", ""),
	})
	mustSymlink(t, "a.md", filepath.Join(root, "link.md"))
	mustSymlink(t, "d", filepath.Join(root, "dirlink"))
	mustSymlink(t, "nope", filepath.Join(root, "broken.md"))
	return root
}

func TestReadNodes(t *testing.T) {
	root := readTree(t)
	tests := []struct {
		node     string
		want     contracts.Node
		children []contracts.ChildNode
	}{
		{".", contracts.Node{
			Path: ".", Kind: contracts.KindDirectory, Class: contracts.ClassNormal, Title: "Root",
			Frontmatter: json.RawMessage(`{"schemaVersion":1,"title":"Root","owners":["a","b"],"extra":{"z":1,"a":2}}`),
			Body:        "\n# Root\n\nBody.\n",
		}, []contracts.ChildNode{
			{Path: "a.md", Kind: contracts.KindDocument, Class: contracts.ClassNormal, Title: "A"},
			{Path: "b.md", Kind: contracts.KindDocument, Class: contracts.ClassNormal, Title: "B", Description: "About B."},
			{Path: "bad.md", Kind: contracts.KindDocument, Class: contracts.ClassNormal,
				Findings: []contracts.Finding{{Code: contracts.FindingTitleInvalid, Path: "bad.md", Line: 2}}},
			{Path: "d", Kind: contracts.KindDirectory, Class: contracts.ClassNormal, Title: "D", Description: "The d domain."},
			{Path: "empty", Kind: contracts.KindDirectory, Class: contracts.ClassNormal,
				Findings: []contracts.Finding{{Code: contracts.FindingDirectoryNodeMissing, Path: "empty"}}},
			{Path: "members", Kind: contracts.KindDirectory, Class: contracts.ClassMember, Title: "Members"},
			{Path: "nofm.md", Kind: contracts.KindDocument, Class: contracts.ClassNormal,
				Findings: []contracts.Finding{{Code: contracts.FindingFrontmatterMissing, Path: "nofm.md", Line: 1}}},
		}},
		{"b.md", contracts.Node{
			Path: "b.md", Kind: contracts.KindDocument, Class: contracts.ClassNormal, Title: "B", Description: "About B.",
			SoftLinks:   []string{"d", "/d/leaf.md"},
			Frontmatter: json.RawMessage(`{"title":"B","description":"About B.","soft_links":["d","/d/leaf.md"]}`),
			Body:        "B body\n",
		}, []contracts.ChildNode{}},
		{"d", contracts.Node{
			Path: "d", Kind: contracts.KindDirectory, Class: contracts.ClassNormal, Title: "D", Description: "The d domain.",
			Frontmatter: json.RawMessage(`{"title":"D","description":"The d domain."}`), Body: "D body\n",
		}, []contracts.ChildNode{
			{Path: "d/e", Kind: contracts.KindDirectory, Class: contracts.ClassNormal, Title: "E"},
			{Path: "d/leaf.md", Kind: contracts.KindDocument, Class: contracts.ClassNormal, Title: "Leaf"},
		}},
		{"d/leaf.md", contracts.Node{
			Path: "d/leaf.md", Kind: contracts.KindDocument, Class: contracts.ClassNormal, Title: "Leaf",
			Frontmatter: json.RawMessage(`{"title":"Leaf"}`), Body: "Leaf body\r\n",
		}, []contracts.ChildNode{}},
		{"members/alice", contracts.Node{
			Path: "members/alice", Kind: contracts.KindDirectory, Class: contracts.ClassMember, Title: "Alice",
			Frontmatter: json.RawMessage(`{"title":"Alice"}`), Body: "Alice body\n",
		}, []contracts.ChildNode{
			{Path: "members/alice/x.md", Kind: contracts.KindDocument, Class: contracts.ClassMember, Title: "X"},
		}},
		{"nofm.md", contracts.Node{
			Path: "nofm.md", Kind: contracts.KindDocument, Class: contracts.ClassNormal,
			Frontmatter: json.RawMessage(`{}`), Body: "# No frontmatter\n",
			Findings: []contracts.Finding{{Code: contracts.FindingFrontmatterMissing, Path: "nofm.md", Line: 1}},
		}, []contracts.ChildNode{}},
	}
	ignoreMessages := cmpopts.IgnoreFields(contracts.Finding{}, "Message")
	for _, tt := range tests {
		t.Run(tt.node, func(t *testing.T) {
			got, err := Read(root, tt.node)
			if err != nil {
				t.Fatalf("Read: %v", err)
			}
			if diff := cmp.Diff(tt.want, got.Node, ignoreMessages); diff != "" {
				t.Errorf("Node (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.children, got.Children, ignoreMessages); diff != "" {
				t.Errorf("Children (-want +got):\n%s", diff)
			}
		})
	}
}

// Every way of naming a directory's index reads the same node.
func TestReadAliases(t *testing.T) {
	root := readTree(t)
	for want, names := range map[string][]string{
		".": {"", ".", "./", "NODE.md", "d/..", filepath.Join(root, "NODE.md"), root},
		"d": {"d", "d/", "./d", "d/NODE.md", "d/e/..", filepath.Join(root, "d")},
	} {
		for _, name := range names {
			got, err := Read(root, name)
			if err != nil {
				t.Errorf("Read(%q): %v", name, err)
				continue
			}
			if got.Node.Path != want || got.Node.Kind != contracts.KindDirectory {
				t.Errorf("Read(%q) = %s (%s), want %s (directory)", name, got.Node.Path, got.Node.Kind, want)
			}
		}
	}
}

func TestReadRefusals(t *testing.T) {
	root := readTree(t)
	outside := t.TempDir()
	writeFile(t, filepath.Join(outside, "secret.md"), doc("Secret", "secret body\n"))
	mustSymlink(t, filepath.Join(outside, "secret.md"), filepath.Join(root, "ext.md"))
	mustSymlink(t, outside, filepath.Join(root, "extdir"))
	mustSymlink(t, "NODE.md", filepath.Join(root, "d", "e", "self.md"))
	mkfifo(t, filepath.Join(root, "pipe.md"))
	if err := os.Link(filepath.Join(outside, "secret.md"), filepath.Join(root, "hard.md")); err != nil {
		t.Fatal(err)
	}
	mustMkdir(t, filepath.Join(root, "s"))
	mustSymlink(t, "../d/NODE.md", filepath.Join(root, "s", "NODE.md"))
	tests := []struct {
		node string
		code contracts.ErrorCode
	}{
		{"..", contracts.CodeReadPathEscape},
		{"../x.md", contracts.CodeReadPathEscape},
		{"d/../../x.md", contracts.CodeReadPathEscape},
		{"/etc/passwd", contracts.CodeReadPathEscape},
		{filepath.Dir(root), contracts.CodeReadPathEscape},
		{filepath.Join(outside, "secret.md"), contracts.CodeReadPathEscape},
		{"missing.md", contracts.CodeReadNotFound},
		{"d/missing/x.md", contracts.CodeReadNotFound},
		{"a.md/x.md", contracts.CodeReadNotFound},
		{"empty", contracts.CodeReadNotFound},
		{"empty/NODE.md", contracts.CodeReadNotFound},
		{"link.md", contracts.CodeReadSymlink},
		{"broken.md", contracts.CodeReadSymlink},
		{"ext.md", contracts.CodeReadSymlink},
		{"dirlink", contracts.CodeReadSymlink},
		{"dirlink/NODE.md", contracts.CodeReadSymlink},
		{"dirlink/leaf.md", contracts.CodeReadSymlink},
		{"extdir/secret.md", contracts.CodeReadSymlink},
		{"d/e/self.md", contracts.CodeReadSymlink},
		{"s", contracts.CodeReadSymlink},
		{"s/NODE.md", contracts.CodeReadSymlink},
		{".git/HEAD", contracts.CodeReadInfrastructure},
		{".hidden.md", contracts.CodeReadInfrastructure},
		{"AGENTS.md", contracts.CodeReadInfrastructure},
		{"scripts", contracts.CodeReadInfrastructure},
		{"scripts/NODE.md", contracts.CodeReadInfrastructure},
		{"node_modules/p.md", contracts.CodeReadInfrastructure},
		{"img.png", contracts.CodeReadNotMarkdown},
		{"UPPER.MD", contracts.CodeReadNotMarkdown},
		{"pipe.md", contracts.CodeReadNotRegular},
		{"hard.md", contracts.CodeReadNotRegular},
	}
	for _, tt := range tests {
		t.Run(tt.node, func(t *testing.T) {
			got, err := Read(root, tt.node)
			if err == nil {
				t.Fatalf("Read succeeded: %+v", got.Node)
			}
			if code := errCode(err); code != tt.code {
				t.Errorf("code = %q (%v), want %s", code, err, tt.code)
			}
		})
	}
}

func TestReadTooLarge(t *testing.T) {
	root := writeTree(t, map[string]string{"NODE.md": rootNode})
	sparse(t, filepath.Join(root, "big.md"), contracts.MaxDocumentBytes+1)
	if _, err := Read(root, "big.md"); errCode(err) != contracts.CodeReadTooLarge {
		t.Errorf("err = %v, want %s", err, contracts.CodeReadTooLarge)
	}
}

// Children skip symlinks, infrastructure and assets, list invalid children
// with their findings, and never read a child's content through a symlink or
// a hard link.
func TestReadChildrenSkips(t *testing.T) {
	root := writeTree(t, map[string]string{
		"NODE.md":      rootNode,
		"ok.md":        doc("OK", ""),
		"s/x.md":       doc("X", ""),
		"fifo/x.md":    doc("X", ""),
		"hard/NODE.md": doc("Hard", ""),
	})
	outside := t.TempDir()
	writeFile(t, filepath.Join(outside, "secret.md"), doc("Secret title", ""))
	mustSymlink(t, filepath.Join(outside, "secret.md"), filepath.Join(root, "s", "NODE.md"))
	mustSymlink(t, filepath.Join(outside, "secret.md"), filepath.Join(root, "ext.md"))
	mustSymlink(t, outside, filepath.Join(root, "extdir"))
	mkfifo(t, filepath.Join(root, "fifo", "NODE.md"))
	mkfifo(t, filepath.Join(root, "pipe.md"))
	if err := os.Link(filepath.Join(outside, "secret.md"), filepath.Join(root, "hardlink.md")); err != nil {
		t.Fatal(err)
	}
	mustRemove(t, filepath.Join(root, "hard", "NODE.md"))
	if err := os.Link(filepath.Join(outside, "secret.md"), filepath.Join(root, "hard", "NODE.md")); err != nil {
		t.Fatal(err)
	}
	got, err := Read(root, ".")
	if err != nil {
		t.Fatal(err)
	}
	want := []contracts.ChildNode{
		{Path: "fifo", Kind: contracts.KindDirectory, Class: contracts.ClassNormal,
			Findings: []contracts.Finding{{Code: contracts.FindingDocumentUnreadable, Path: "fifo/NODE.md"}}},
		{Path: "hard", Kind: contracts.KindDirectory, Class: contracts.ClassNormal,
			Findings: []contracts.Finding{{Code: contracts.FindingHardLinkUnsupported, Path: "hard/NODE.md"}}},
		{Path: "hardlink.md", Kind: contracts.KindDocument, Class: contracts.ClassNormal,
			Findings: []contracts.Finding{{Code: contracts.FindingHardLinkUnsupported, Path: "hardlink.md"}}},
		{Path: "ok.md", Kind: contracts.KindDocument, Class: contracts.ClassNormal, Title: "OK"},
		{Path: "s", Kind: contracts.KindDirectory, Class: contracts.ClassNormal,
			Findings: []contracts.Finding{{Code: contracts.FindingSymlinkUnsupported, Path: "s/NODE.md"}}},
	}
	if diff := cmp.Diff(want, got.Children, cmpopts.IgnoreFields(contracts.Finding{}, "Message")); diff != "" {
		t.Errorf("Children (-want +got):\n%s", diff)
	}
}

// Many children are summarised in parallel and still sorted.
func TestReadManyChildren(t *testing.T) {
	files := map[string]string{"NODE.md": rootNode}
	var want []string
	for i := range 200 {
		name := string(rune('a'+i%26)) + string(rune('a'+i/26)) + ".md"
		files[name] = doc(name, "")
		want = append(want, name)
	}
	root := writeTree(t, files)
	got, err := Read(root, ".")
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, c := range got.Children {
		if c.Title != c.Path {
			t.Errorf("child %s has title %q", c.Path, c.Title)
		}
		paths = append(paths, c.Path)
	}
	if diff := cmp.Diff(want, paths, cmpopts.SortSlices(func(a, b string) bool { return a < b })); diff != "" {
		t.Errorf("children (-want +got):\n%s", diff)
	}
	if !slicesSorted(paths) {
		t.Error("children are not sorted by path")
	}
}

func slicesSorted(s []string) bool {
	for i := 1; i < len(s); i++ {
		if s[i-1] > s[i] {
			return false
		}
	}
	return true
}

// read reports an alias bomb once, returns its known fields and renders
// its frontmatter as {}.
func TestReadAliasBomb(t *testing.T) {
	root := writeTree(t, map[string]string{"NODE.md": rootNode, "bomb.md": aliasBomb(5)})
	got, err := Read(root, "bomb.md")
	if err != nil {
		t.Fatal(err)
	}
	if got.Node.Title != "Bomb" || string(got.Node.Frontmatter) != "{}" {
		t.Errorf("title %q, frontmatter %s; want Bomb, {}", got.Node.Title, got.Node.Frontmatter)
	}
	if diff := cmp.Diff([]string{"TREE_FRONTMATTER_PARSE@6"}, codeLines(got.Node.Findings)); diff != "" {
		t.Errorf("findings (-want +got):\n%s", diff)
	}
}
