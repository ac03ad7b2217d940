package tree

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/git-context-tree/git-context-tree/contracts"
)

// validTree exercises every rule without breaking one: infrastructure is
// never walked, so it may hold anything.
func validTree() map[string]string {
	return map[string]string{
		"NODE.md": "---\nschemaVersion: 1\ntitle: Root\nsoft_links: [a, members/alice/notes.md]\n---\n\n# Root\n\nSee [A](a/NODE.md) and [A dir](a/).\n",
		"a/NODE.md": doc("A", "See [b](b.md), [up](../NODE.md), [abs](/a/b.md), [self](#top), "+
			"[web](https://example.com/../../x), [mail](mailto:x@example.com), [q](?x=1).\n\n"+
			"```\n[not a link](../../../outside)\n```\n\nCode `[x](../../y)` too.\n\n[def]: ./b.md\n"),
		"a/b.md":                 "---\ntitle: B\ndescription: About B.\nsoft_links:\n  - a\n  - /NODE.md\n  - a/b.md#part\n  - ./members/alice/\n  - a/scripts/NODE.md\nowner: someone\n---\nBody\n",
		"a/img.png":              "\x89PNG",
		"a/notes.txt":            "plain asset",
		"a/UPPER.MD":             "an asset: only lowercase .md is a document",
		"a/scripts/NODE.md":      doc("Nested scripts are content", ""),
		"a/assets/NODE.md":       doc("Assets", ""),
		"a/assets/logo.svg":      "<svg/>",
		"members/NODE.md":        doc("Members", ""),
		"members/alice/NODE.md":  doc("Alice", ""),
		"members/alice/notes.md": doc("Notes", "[root](../../NODE.md)\n"),
		// Infrastructure: never walked.
		".git/HEAD":                "ref: refs/heads/main\n",
		".github/workflows/ci.md":  "no frontmatter [x](../../../../out)",
		".hidden.md":               "no frontmatter",
		"node_modules/p/README.md": "no frontmatter",
		"a/dist/x.md":              "no frontmatter",
		"a/build/y/":               "",
		"__pycache__/x.pyc":        "\x00",
		"a/.next/x.md":             "",
		".turbo/x":                 "",
		"scripts/run.md":           "no frontmatter",
		"scripts/empty/":           "",
		"AGENTS.md":                "no frontmatter",
		"a/CLAUDE.md":              "no frontmatter [x](../../out)",
		"members/alice/AGENTS.md":  "no frontmatter",
	}
}

func TestVerifyValidTree(t *testing.T) {
	root := writeTree(t, validTree())
	r := Verify(root)
	if diff := cmp.Diff([]brief{}, briefs(r.Findings)); diff != "" {
		t.Errorf("findings (-want +got):\n%s", diff)
	}
	if !r.OK() {
		t.Error("OK() = false")
	}
	want := contracts.Scanned{Documents: 8, Directories: 6, Assets: 4, Normal: 5, Member: 3}
	if diff := cmp.Diff(want, r.Scanned); diff != "" {
		t.Errorf("Scanned (-want +got):\n%s", diff)
	}
}

func TestVerifyEmptyFindingsNotNil(t *testing.T) {
	r := Verify(writeTree(t, map[string]string{"NODE.md": rootNode}))
	if r.Findings == nil || len(r.Findings) != 0 {
		t.Errorf("Findings = %#v, want an empty non-nil slice", r.Findings)
	}
}

type verifyCase struct {
	name  string
	files map[string]string // added to a tree holding a valid root NODE.md
	setup func(t *testing.T, root string)
	links bool // VerifyOptions.Links
	want  []brief
}

func verifyCases() []verifyCase {
	const (
		softA = "---\ntitle: A\nsoft_links:\n  - %s\n---\n"
	)
	soft := func(target string) string { return strings.Replace(softA, "%s", target, 1) }
	return []verifyCase{
		{name: "markdown link broken (--links)", links: true, files: map[string]string{
			"img.png":     "png",
			"sub/NODE.md": doc("Sub", "[up](../img.png) [dir](.) [root](/sub/b.md) [frag](#x) [web](https://example.com/x) [mail](mailto:a@b)\n"),
			"sub/b.md":    doc("B", "[gone](gone.md)\n\n[from root](sub/b.md) [code `x`](missing/) `[no](nope.md)`\n"),
		}, want: []brief{
			{contracts.FindingLinkFragmentMissing, "sub/NODE.md", 4, "#x"},
			{contracts.FindingMarkdownLinkBroken, "sub/b.md", 4, "gone.md"},
			{contracts.FindingMarkdownLinkBroken, "sub/b.md", 6, "missing/"},
			{contracts.FindingMarkdownLinkBroken, "sub/b.md", 6, "sub/b.md"},
		}},
		{name: "anchors and wikilinks", links: true, files: map[string]string{
			"guide.md": doc("Guide", "# Intro\n\n## Setup steps\n\n## Setup steps\n\n### Custom {#mine}\n\n<a name=\"legacy\"></a>\n\n## Ünïcode Heading!\n\n```\n## not a heading\n```\n"),
			"a.md": doc("A", "[ok](guide.md#setup-steps) [dup](guide.md#setup-steps-1) [custom](guide.md#mine) [html](guide.md#legacy) [uni](guide.md#%C3%BCn%C3%AFcode-heading) [renamed](guide.md#old-name) [self](#nothing) [code](guide.md#not-a-heading)\n\n"+
				"[[Guide]] [[guide#Setup steps]] [[Guide|label]] [[x/dup]] [[Missing page]] [[Dup]] [[Guide#No such]]\n\n`[[in code]]`\n"),
			"x/NODE.md": doc("X", ""), "x/dup.md": doc("Dup", ""), "y/NODE.md": doc("Dup", ""),
		}, want: []brief{
			{contracts.FindingLinkFragmentMissing, "a.md", 4, "#nothing"},
			{contracts.FindingLinkFragmentMissing, "a.md", 4, "guide.md#not-a-heading"},
			{contracts.FindingLinkFragmentMissing, "a.md", 4, "guide.md#old-name"},
			{contracts.FindingLinkFragmentMissing, "a.md", 6, "[[Guide#No such]]"},
			{contracts.FindingWikilinkAmbiguous, "a.md", 6, "[[Dup]]"},
			{contracts.FindingWikilinkBroken, "a.md", 6, "[[Missing page]]"},
		}},
		{name: "root missing", files: map[string]string{"NODE.md": "", "a/NODE.md": doc("A", "")},
			setup: func(t *testing.T, root string) { mustRemove(t, filepath.Join(root, "NODE.md")) },
			want:  []brief{{contracts.FindingRootMissing, ".", 0, ""}}},
		{name: "root NODE.md is a directory", setup: func(t *testing.T, root string) {
			mustRemove(t, filepath.Join(root, "NODE.md"))
			mustMkdir(t, filepath.Join(root, "NODE.md"))
			writeFile(t, filepath.Join(root, "NODE.md", "NODE.md"), doc("X", ""))
		}, want: []brief{{contracts.FindingRootMissing, ".", 0, ""}}},
		{name: "root schemaVersion string", files: map[string]string{"NODE.md": "---\nschemaVersion: \"1\"\ntitle: R\n---\nBody\n"},
			want: []brief{{contracts.FindingRootNodeInvalid, "NODE.md", 2, ""}}},
		{name: "root body empty", files: map[string]string{"NODE.md": "---\nschemaVersion: 1\ntitle: R\n---\n\n"},
			want: []brief{{contracts.FindingRootNodeInvalid, "NODE.md", 5, ""}}},
		{name: "root too large", files: map[string]string{"NODE.md": rootNode + strings.Repeat("x", contracts.MaxRootBytes)},
			want: []brief{{contracts.FindingRootNodeInvalid, "NODE.md", 0, ""}}},
		{name: "root-only field on descendant", files: map[string]string{"d/NODE.md": "---\ntitle: D\nschemaVersion: 1\n---\n"},
			want: []brief{{contracts.FindingRootOnlyFields, "d/NODE.md", 3, ""}}},
		{name: "directory without NODE.md", files: map[string]string{"d/x.md": doc("X", "")},
			want: []brief{{contracts.FindingDirectoryNodeMissing, "d", 0, ""}}},
		{name: "empty directory", files: map[string]string{"d/NODE.md": doc("D", ""), "d/empty/": ""},
			want: []brief{{contracts.FindingDirectoryNodeMissing, "d/empty", 0, ""}}},
		{name: "asset-only directory", files: map[string]string{"pics/a.png": "x"},
			want: []brief{{contracts.FindingDirectoryNodeMissing, "pics", 0, ""}}},
		{name: "lowercase node.md is not an index", files: map[string]string{"d/node.md": doc("D", "")},
			want: []brief{{contracts.FindingDirectoryNodeMissing, "d", 0, ""}}},
		{name: "frontmatter missing", files: map[string]string{"a.md": "# A\n"},
			want: []brief{{contracts.FindingFrontmatterMissing, "a.md", 1, ""}}},
		{name: "frontmatter parse", files: map[string]string{"a.md": "---\ntitle: A\ntitle: B\n---\n"},
			want: []brief{{contracts.FindingFrontmatterParse, "a.md", 3, ""}}},
		{name: "alias bomb", files: map[string]string{"a.md": aliasBomb(5)},
			want: []brief{{contracts.FindingFrontmatterParse, "a.md", 6, ""}}},
		{name: "title missing", files: map[string]string{"a.md": "---\ndescription: D\n---\n"},
			want: []brief{{contracts.FindingTitleMissing, "a.md", 1, ""}}},
		{name: "title invalid", files: map[string]string{"a.md": "---\ntitle: [A]\n---\n"},
			want: []brief{{contracts.FindingTitleInvalid, "a.md", 2, ""}}},
		{name: "description invalid", files: map[string]string{"a.md": "---\ntitle: A\ndescription: \"\"\n---\n"},
			want: []brief{{contracts.FindingDescriptionInvalid, "a.md", 3, ""}}},
		{name: "sources invalid", files: map[string]string{"a.md": "---\ntitle: A\nsources:\n  - path: src/a.go\n    lines: \"40-12\"\n  - path: ../outside.go\n  - lines: 3\n  - path: src/ok.go\n    lines: 12-40\n    commit: abcdef0\n    sha256: 0123456789abcdef\n  - path: src/b.go\n    sha256: short\n---\n"},
			want: []brief{
				{contracts.FindingEvidenceInvalid, "a.md", 4, ""},
				{contracts.FindingEvidenceInvalid, "a.md", 6, ""},
				{contracts.FindingEvidenceInvalid, "a.md", 7, ""},
				{contracts.FindingEvidenceInvalid, "a.md", 12, ""},
			}},
		{name: "sources not a list", files: map[string]string{"a.md": "---\ntitle: A\nsources: src/a.go\n---\n"},
			want: []brief{{contracts.FindingEvidenceInvalid, "a.md", 3, ""}}},
		{name: "soft_links invalid", files: map[string]string{"a.md": "---\ntitle: A\nsoft_links: []\n---\n"},
			want: []brief{{contracts.FindingSoftLinksInvalid, "a.md", 3, ""}}},
		{name: "soft link to missing file", files: map[string]string{"a.md": soft("missing.md")},
			want: []brief{{contracts.FindingSoftLinkBroken, "a.md", 4, "missing.md"}}},
		{name: "soft link is root-relative", files: map[string]string{"d/NODE.md": doc("D", ""), "d/x.md": doc("X", ""), "d/a.md": soft("x.md")},
			want: []brief{{contracts.FindingSoftLinkBroken, "d/a.md", 4, "x.md"}}},
		{name: "soft link to infrastructure", files: map[string]string{".github/x.md": doc("X", ""), "a.md": soft(".github/x.md")},
			want: []brief{{contracts.FindingSoftLinkBroken, "a.md", 4, ".github/x.md"}}},
		{name: "soft link to root scripts", files: map[string]string{"scripts/NODE.md": doc("S", ""), "a.md": soft("scripts")},
			want: []brief{{contracts.FindingSoftLinkBroken, "a.md", 4, "scripts"}}},
		{name: "soft link to URL", files: map[string]string{"a.md": soft("https://example.com/x.md")},
			want: []brief{{contracts.FindingSoftLinkBroken, "a.md", 4, "https://example.com/x.md"}}},
		{name: "soft link to asset", files: map[string]string{"img.png": "x", "a.md": soft("img.png")},
			want: []brief{{contracts.FindingSoftLinkBroken, "a.md", 4, "img.png"}}},
		{name: "soft link to directory without NODE.md", files: map[string]string{"d/x.md": doc("X", ""), "a.md": soft("d")},
			want: []brief{{contracts.FindingSoftLinkBroken, "a.md", 4, "d"}, {contracts.FindingDirectoryNodeMissing, "d", 0, ""}}},
		{name: "soft link escaping", files: map[string]string{"a.md": soft("../outside.md")},
			want: []brief{{contracts.FindingSoftLinkPathEscape, "a.md", 4, "../outside.md"}}},
		{name: "soft link escaping by drive letter", files: map[string]string{"a.md": soft(`'C:\x.md'`)},
			want: []brief{{contracts.FindingSoftLinkPathEscape, "a.md", 4, `C:\x.md`}}},
		{name: "markdown link escape", files: map[string]string{"d/NODE.md": doc("D", "first\n\n[out](../../out.md)\n")},
			want: []brief{{contracts.FindingMarkdownLinkPathEscape, "d/NODE.md", 6, "../../out.md"}}},
		{name: "markdown image and definition escape", files: map[string]string{"a.md": doc("A", "![i](/../i.png)\n\n[r]: ..\\x\n")},
			want: []brief{{contracts.FindingMarkdownLinkPathEscape, "a.md", 4, "/../i.png"}, {contracts.FindingMarkdownLinkPathEscape, "a.md", 6, `..\x`}}},
		{name: "markdown link escape with crlf and bom", files: map[string]string{"a.md": "\xef\xbb\xbf---\r\ntitle: A\r\n---\r\n\r\n[x](%2e%2e/y)\r\n"},
			want: []brief{{contracts.FindingMarkdownLinkPathEscape, "a.md", 5, "%2e%2e/y"}}},
		{name: "markdown link escape without frontmatter", files: map[string]string{"a.md": "# A\n[x](C:/y)\n"},
			want: []brief{{contracts.FindingFrontmatterMissing, "a.md", 1, ""}, {contracts.FindingMarkdownLinkPathEscape, "a.md", 2, "C:/y"}}},
		{name: "markdown escapes via backslash escapes", files: map[string]string{"a.md": doc("A", "[x](.\\./y)\n")},
			want: []brief{{contracts.FindingMarkdownLinkPathEscape, "a.md", 4, "../y"}}},
		{name: "markdown file URLs", files: map[string]string{"d/NODE.md": doc("D", ""), "d/a.md": doc("A",
			"[p](file:///etc/passwd)\n![i](FILE://host/x.png)\n<File:/d/a.md>\n\n[r]: file:a.md\n[ok](file.md) [w](https://e.com/file:x)\n")},
			want: []brief{
				{contracts.FindingMarkdownLinkPathEscape, "d/a.md", 4, "file:///etc/passwd"},
				{contracts.FindingMarkdownLinkPathEscape, "d/a.md", 5, "FILE://host/x.png"},
				{contracts.FindingMarkdownLinkPathEscape, "d/a.md", 6, "File:/d/a.md"},
				{contracts.FindingMarkdownLinkPathEscape, "d/a.md", 8, "file:a.md"},
			}},
		{name: "soft link file URL", files: map[string]string{"a.md": soft("file:///etc/passwd")},
			want: []brief{{contracts.FindingSoftLinkPathEscape, "a.md", 4, "file:///etc/passwd"}}},
		{name: "duplicate findings are merged", files: map[string]string{"a.md": doc("A", "[x](../o) [x](../o)\n")},
			want: []brief{{contracts.FindingMarkdownLinkPathEscape, "a.md", 4, "../o"}}},
		{name: "symlink", setup: func(t *testing.T, root string) { mustSymlink(t, "NODE.md", filepath.Join(root, "l.md")) },
			want: []brief{{contracts.FindingSymlinkUnsupported, "l.md", 0, ""}}},
		{name: "binary document", files: map[string]string{"a.md": "\x00\x01\xff\xfe"},
			want: []brief{{contracts.FindingDocumentUnreadable, "a.md", 1, ""}}},
		{name: "oversized document", setup: func(t *testing.T, root string) {
			sparse(t, filepath.Join(root, "big.md"), contracts.MaxDocumentBytes+1)
		}, want: []brief{{contracts.FindingDocumentUnreadable, "big.md", 0, ""}}},
		{name: "hard-linked documents", files: map[string]string{"d/x.md": doc("X", "")}, setup: func(t *testing.T, root string) {
			outside := t.TempDir()
			writeFile(t, filepath.Join(outside, "secret.md"), "no frontmatter [x](../../etc)\n")
			mustLink(t, filepath.Join(outside, "secret.md"), filepath.Join(root, "a.md"))
			mustLink(t, filepath.Join(root, "d", "x.md"), filepath.Join(root, "d", "NODE.md"))
		}, want: []brief{
			{contracts.FindingHardLinkUnsupported, "a.md", 0, ""},
			{contracts.FindingHardLinkUnsupported, "d/NODE.md", 0, ""},
			{contracts.FindingHardLinkUnsupported, "d/x.md", 0, ""},
		}},
		{name: "fifo", setup: func(t *testing.T, root string) { mkfifo(t, filepath.Join(root, "pipe.md")) },
			want: []brief{{contracts.FindingNotRegular, "pipe.md", 0, ""}}},
		{name: "fifo asset and fifo index", files: map[string]string{"d/x.md": doc("X", "")}, setup: func(t *testing.T, root string) {
			mkfifo(t, filepath.Join(root, "pipe"))
			mkfifo(t, filepath.Join(root, "d", "NODE.md"))
		}, want: []brief{
			{contracts.FindingDirectoryNodeMissing, "d", 0, ""},
			{contracts.FindingNotRegular, "d/NODE.md", 0, ""},
			{contracts.FindingNotRegular, "pipe", 0, ""},
		}},
	}
}

func TestVerifyFindings(t *testing.T) {
	seen := map[contracts.FindingCode]bool{}
	for _, tc := range verifyCases() {
		t.Run(tc.name, func(t *testing.T) {
			files := map[string]string{"NODE.md": rootNode}
			for k, v := range tc.files {
				files[k] = v
			}
			root := writeTree(t, files)
			if tc.setup != nil {
				tc.setup(t, root)
			}
			r := VerifyWith(root, VerifyOptions{Links: tc.links})
			if diff := cmp.Diff(tc.want, briefs(r.Findings)); diff != "" {
				t.Errorf("findings (-want +got):\n%s", diff)
			}
			for _, f := range r.Findings {
				seen[f.Code] = true
				if f.Message == "" {
					t.Errorf("finding %+v has no message", f)
				}
			}
			if r.OK() {
				t.Error("OK() = true")
			}
		})
	}
	for _, code := range findingCodes(t) {
		if !seen[code] {
			t.Errorf("finding code %s has no failing fixture", code)
		}
	}
}

// findingCodes lists every FindingCode declared in contracts/findings.go.
func findingCodes(t *testing.T) []contracts.FindingCode {
	src, err := os.ReadFile(filepath.Join("..", "..", "contracts", "findings.go"))
	if err != nil {
		t.Fatal(err)
	}
	var codes []contracts.FindingCode
	for _, m := range regexp.MustCompile(`FindingCode = "(\w+)"`).FindAllSubmatch(src, -1) {
		code := contracts.FindingCode(m[1])
		if strings.HasPrefix(string(code), "EVIDENCE_") && code != contracts.FindingEvidenceInvalid {
			// Read from git by verify --evidence (internal/operations),
			// never by this package: test/testdata/evidence_*.txtar.
			continue
		}
		codes = append(codes, code)
	}
	if len(codes) < 16 {
		t.Fatalf("found only %d finding codes in contracts/findings.go", len(codes))
	}
	return codes
}

func TestVerifySortedByPath(t *testing.T) {
	root := writeTree(t, map[string]string{
		"NODE.md":  "# no frontmatter\n[x](../a)\n",
		"z.md":     "---\ntitle: [z]\ndescription: 1\n---\n[x](../a)\n",
		"a.md":     "# A",
		"m/n/o.md": "# O",
		"m/a.md":   "---\ntitle: A\nsoft_links: [nope, ../x]\n---\n",
		"b/":       "",
	})
	r := Verify(root)
	if len(r.Findings) < 10 {
		t.Fatalf("only %d findings: %v", len(r.Findings), r.Findings)
	}
	if !slices.IsSortedFunc(r.Findings, func(a, b contracts.Finding) int { return strings.Compare(a.Path, b.Path) }) {
		t.Errorf("findings not sorted by path: %v", briefs(r.Findings))
	}
	for i := 1; i < len(r.Findings); i++ {
		if r.Findings[i] == r.Findings[i-1] {
			t.Errorf("duplicate finding %+v", r.Findings[i])
		}
	}
}

func TestVerifyScannedClasses(t *testing.T) {
	root := writeTree(t, map[string]string{
		"NODE.md":           rootNode,
		"a.md":              doc("A", ""),
		"x.png":             "",
		"members/NODE.md":   doc("M", ""),
		"members/b/NODE.md": doc("B", ""),
		"members/b/c.md":    doc("C", ""),
		"members/b/d.jpg":   "",
		".git/x.md":         "",
		"AGENTS.md":         "",
		"scripts/s.md":      "",
	})
	want := contracts.Scanned{Documents: 5, Directories: 3, Assets: 2, Normal: 2, Member: 3}
	if diff := cmp.Diff(want, Verify(root).Scanned); diff != "" {
		t.Errorf("Scanned (-want +got):\n%s", diff)
	}
}

// Symlinks of every kind are findings, reported from lstat; none is
// followed, read or walked, and a loop terminates with one finding.
func TestVerifySymlinks(t *testing.T) {
	root := writeTree(t, map[string]string{
		"NODE.md":       rootNode,
		"a.md":          doc("A", ""),
		"d/NODE.md":     doc("D", ""),
		"s/x.md":        doc("X", ""),
		"bad/NODE.md":   doc("Bad", ""),
		"soft.md":       "---\ntitle: S\nsoft_links: [file.md, dirlink]\n---\n",
		".git/link.md":  "",
		"members/M.txt": "",
	})
	outside := t.TempDir()
	for link, target := range map[string]string{
		"file.md":        "a.md",                                 // internal file
		"ext.md":         filepath.Join(outside, "secret.md"),    // external
		"broken.md":      "nope.md",                              // broken
		"asset.png":      "/etc/hostname",                        // asset
		"dirlink":        "d",                                    // internal directory
		"extdir":         outside,                                // external directory
		"baddir":         "bad",                                  // a directory whose content is invalid
		"d/loop":         "..",                                   // loop
		"s/NODE.md":      "../d/NODE.md",                         // a symlinked index
		"members/me.md":  "../a.md",                              // member symlink
		".git/inner.md":  "../a.md",                              // infrastructure: not walked
		"scripts":        "d",                                    // root scripts is infrastructure
		"d/self":         "self",                                 // self loop
		"d/deep":         strings.Repeat("../", 50) + "etc",      // far outside
		"d/abs.md":       "/proc/self/environ",                   // never read
		"d/unicode-é.md": filepath.Join(outside, "nope", "x.md"), // broken, external
	} {
		mustSymlink(t, target, filepath.Join(root, filepath.FromSlash(link)))
	}
	writeFile(t, filepath.Join(outside, "secret.md"), "# no frontmatter [x](../../x)")
	r := Verify(root)
	sym := func(p string) brief { return brief{contracts.FindingSymlinkUnsupported, p, 0, ""} }
	want := []brief{
		sym("asset.png"), sym("baddir"), sym("broken.md"),
		sym("d/abs.md"), sym("d/deep"), sym("d/loop"), sym("d/self"), sym("d/unicode-é.md"),
		sym("dirlink"), sym("ext.md"), sym("extdir"), sym("file.md"),
		sym("members/me.md"),
		{contracts.FindingDirectoryNodeMissing, "members", 0, ""},
		{contracts.FindingDirectoryNodeMissing, "s", 0, ""}, sym("s/NODE.md"),
		{contracts.FindingSoftLinkBroken, "soft.md", 3, "dirlink"},
		{contracts.FindingSoftLinkBroken, "soft.md", 3, "file.md"},
	}
	slices.SortStableFunc(want, func(a, b brief) int { return strings.Compare(a.Path, b.Path) })
	if diff := cmp.Diff(want, briefs(r.Findings)); diff != "" {
		t.Errorf("findings (-want +got):\n%s", diff)
	}
}

func TestVerifyDocumentSizeLimit(t *testing.T) {
	t.Parallel()
	body := strings.Repeat("word ", 1<<10) + "\n"
	head := doc("Big", "")
	var b strings.Builder
	b.WriteString(head)
	for b.Len()+len(body) <= contracts.MaxDocumentBytes {
		b.WriteString(body)
	}
	b.WriteString(strings.Repeat("x", contracts.MaxDocumentBytes-b.Len()))
	root := writeTree(t, map[string]string{"NODE.md": rootNode, "at-limit.md": b.String(), "over.md": b.String() + "x"})
	r := Verify(root)
	want := []brief{{contracts.FindingDocumentUnreadable, "over.md", 0, ""}}
	if diff := cmp.Diff(want, briefs(r.Findings)); diff != "" {
		t.Errorf("findings (-want +got):\n%s", diff)
	}
}

func TestVerifyUnreadable(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root reads files regardless of permissions")
	}
	root := writeTree(t, map[string]string{"NODE.md": rootNode, "a.md": doc("A", ""), "d/NODE.md": doc("D", "")})
	chmod(t, filepath.Join(root, "a.md"), 0)
	chmod(t, filepath.Join(root, "d"), 0)
	r := Verify(root)
	want := []brief{
		{contracts.FindingDocumentUnreadable, "a.md", 0, ""},
		{contracts.FindingDocumentUnreadable, "d", 0, ""},
	}
	if diff := cmp.Diff(want, briefs(r.Findings)); diff != "" {
		t.Errorf("findings (-want +got):\n%s", diff)
	}
}

// A tree nested deeper than the OS can name (PATH_MAX) terminates with
// findings rather than a crash. Each level is created through an os.Root
// on its parent (so relative to the parent's descriptor on every Unix),
// since its full path is too long for the OS. (500 levels of 10 bytes:
// deeper trees only cost test time on slow file systems.)
func TestVerifyDeepNesting(t *testing.T) {
	t.Parallel()
	root := writeTree(t, map[string]string{"NODE.md": rootNode})
	const depth = 500
	dir, err := os.OpenRoot(root)
	if err != nil {
		t.Fatal(err)
	}
	content := []byte(doc("D", "[up](../x.md)\n"))
	for range depth {
		if err := dir.Mkdir("deepdir_x", 0o755); err != nil {
			t.Fatal(err)
		}
		next, err := dir.OpenRoot("deepdir_x")
		dir.Close()
		if err != nil {
			t.Fatal(err)
		}
		dir = next
		if err := dir.WriteFile(NodeFile, content, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	dir.Close()
	r := Verify(root)
	if len(r.Findings) == 0 {
		t.Fatal("no findings for a tree deeper than PATH_MAX")
	}
	for _, f := range r.Findings {
		if f.Code != contracts.FindingDocumentUnreadable {
			t.Errorf("unexpected finding %s at depth %d", f.Code, strings.Count(f.Path, "/"))
		}
	}
	if r.Scanned.Directories < 300 {
		t.Errorf("Scanned.Directories = %d, want the walk to go deep", r.Scanned.Directories)
	}
}

func mustRemove(t *testing.T, p string) {
	t.Helper()
	if err := os.Remove(p); err != nil {
		t.Fatal(err)
	}
}

func sparse(t *testing.T, p string, size int64) {
	t.Helper()
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := f.Truncate(size); err != nil {
		t.Fatal(err)
	}
}

func mkfifo(t *testing.T, p string) {
	t.Helper()
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Fatal(err)
	}
}

func chmod(t *testing.T, p string, mode os.FileMode) {
	t.Helper()
	if err := os.Chmod(p, mode); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.Chmod(p, 0o755) })
}

func writeFile(t *testing.T, p, content string) {
	t.Helper()
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
