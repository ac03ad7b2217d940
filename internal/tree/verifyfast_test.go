package tree

// Differential tests of Verify's fast paths (verifyfast.go): whatever they
// accept must give exactly what ParseDocument and the CommonMark link
// extractor give.

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/git-context-tree/git-context-tree/internal/treegen"
)

// sharedScratch is the scratch memory checkQuickDocument lends quickReadWith
// across documents, as a verify worker does; parallel tests take turns.
var (
	sharedScratch   quickScratch
	sharedScratchMu sync.Mutex
)

// checkQuickDocument fails when quickRead accepts data but ParseDocument
// disagrees with it.
func checkQuickDocument(t testing.TB, data []byte) bool {
	t.Helper()
	q, metaKnown, ok := quickRead("d/x.md", data, false, true)
	// verify's read, without title and description, accepts the same.
	if v, _, vok := quickRead("d/x.md", data, false, false); vok != ok || ok && (!bytes.Equal(v.Body, q.Body) ||
		v.BodyLine != q.BodyLine || !reflect.DeepEqual(v.Meta.SoftLinks, q.Meta.SoftLinks)) {
		t.Errorf("quickRead without meta reads differently (ok %v, want %v):\n%s", vok, ok, data)
	}
	// With scratch memory a reader reuses (twice, so the second read finds
	// what the first left there), it reads the same.
	sharedScratchMu.Lock()
	defer sharedScratchMu.Unlock()
	for range 2 {
		if s, sk, sok := quickReadWith("d/x.md", data, false, true, &sharedScratch); sok != ok || sk != metaKnown || ok && (!bytes.Equal(s.Body, q.Body) ||
			s.BodyLine != q.BodyLine || s.Meta.Title != q.Meta.Title || s.Meta.Description != q.Meta.Description ||
			!reflect.DeepEqual(s.Meta.SoftLinks, q.Meta.SoftLinks)) {
			t.Errorf("quickReadWith scratch reads differently (ok %v, want %v):\n%s", sok, ok, data)
		}
	}
	if !ok {
		return false
	}
	d := ParseDocument("d/x.md", data, false)
	if metaKnown && (q.Meta.Title != d.Meta.Title || q.Meta.Description != d.Meta.Description) {
		t.Errorf("quickRead read title %q, description %q; ParseDocument %q, %q:\n%s", q.Meta.Title, q.Meta.Description, d.Meta.Title, d.Meta.Description, data)
	}
	if len(d.Findings) > 0 || !bytes.Equal(q.Body, d.Body) || q.BodyLine != d.BodyLine ||
		!reflect.DeepEqual(q.Meta.SoftLinks, d.Meta.SoftLinks) {
		t.Errorf("quickRead accepted a document ParseDocument reads differently:\n%s\nfindings %v\nbody line %d/%d\nsoft links %v\n      want %v",
			data, d.Findings, q.BodyLine, d.BodyLine, q.Meta.SoftLinks, d.Meta.SoftLinks)
	}
	return true
}

// checkLinksMayEscape fails when linksMayEscape clears a body in which the
// extractor finds a link leaving the tree from a directory depth levels deep.
func checkLinksMayEscape(t testing.TB, x *LinkExtractor, body []byte, depth int) bool {
	t.Helper()
	perLine := false
	for line := range bytes.SplitSeq(body, []byte("\n")) {
		perLine = perLine || lineMayEscape(line, depth)
	}
	if whole := anyLineMayEscape(body, depth); whole != perLine {
		t.Errorf("anyLineMayEscape(depth %d) = %v, lineMayEscape of some line %v:\n%s", depth, whole, perLine, body)
	}
	markers := markersMayEscape(body, depth)
	if linksMayEscape(body, depth) && markers {
		return true
	}
	dir := "."
	if depth > 0 {
		dir = strings.TrimSuffix(strings.Repeat("d/", depth), "/")
	}
	for _, l := range x.Extract(body) {
		if _, v := ResolveTarget(dir, l.Destination, false); v == TargetEscapes {
			t.Errorf("linksMayEscape(depth %d) or markersMayEscape (%v) cleared a body whose link %q escapes:\n%s", depth, markers, l.Destination, body)
		}
	}
	return false
}

func TestQuickDocumentAccepts(t *testing.T) {
	for _, s := range []string{
		"---\ntitle: A\n---\n",
		"---\ntitle: A\n---",
		"---\ntitle: A\ndescription: B c.\nsoft_links:\n  - a.md\n  - /b/c.md#x\n  - ./d\n---\nbody\n",
		"---\ntitle: 'It''s'\nsoft_links:\n- \"x y\"\n- 'z'\n---\n",
		"---\ntitle: \"Q: r\"\ndescription: >-\n  one\n\n    two\nextra: [a, b-c, 1]\nn: 12\nm:\nk: yes\n---\n\n# B\n",
		"---\nyes: no\ntitle: café\ntags: []\n---\n",
		"---\ntitle: A\no:\n  k: v\n  j: [x]\n  title: 1\nk: 'w'\n---\n",
		"---\ntitle: |\n  a: b\n  # c\ndescription: >-\n  d 'e'\n  f\n---\n",
		"---\ntitle: >\n   x\n   y\ndescription: |-\n  z\n---\n",
		"---\r\ntitle: A\r\n---\r\n", "---\r\ntitle: A \r\ndescription: |\r\n  x\r\n\r\n  y\r\nsoft_links:\r\n  - a.md\r\n---\r\nb\r\n",
		"---\ntitle: 'B'\r\nsoft_links:\n  - b.md\r\n---\r\n",
	} {
		if !checkQuickDocument(t, []byte(s)) {
			t.Errorf("quickRead refused %q", s)
		}
	}
}

func TestQuickDocumentRefuses(t *testing.T) {
	for _, s := range []string{
		"---\ntitle: A\n", "title: A\n", "\ufeff---\ntitle: A\n---\n", "---\r\ntitle: A\r\r\n---\r\n", "---\r\ntitle: A\rb: c\r\n---\r\n",
		"---\n---\n", "---\ndescription: x\n---\n", "---\ntitle:\n---\n", "---\ntitle: ''\n---\n",
		"---\ntitle: true\n---\n", "---\ntitle: 12\n---\n", "---\ntitle: null\n---\n", "---\ntitle: ~\n---\n",
		"---\ntitle: \"\u00a0\"\n---\n", "---\ntitle: A\ntitle: B\n---\n", "---\ntitle: A\nschemaVersion: 1\n---\n",
		"---\ntitle: A # c\n---\n", "---\ntitle: a: b\n---\n", "---\ntitle: a:\n---\n", "---\ntitle: &x A\n---\n",
		"---\ntitle: A\n  continued\n---\n", "---\ntitle: A\nsoft_links: a.md\n---\n", "---\ntitle: A\nsoft_links:\n---\n",
		"---\ntitle: A\nsoft_links: [a.md]\n---\n", "---\ntitle: A\nsoft_links:\n  - 1\n---\n",
		"---\ntitle: A\nsoft_links:\n  - a\n - b\n---\n", "---\ntitle: A\no:\n  k: v\n  k: w\n---\n", "---\ntitle: A\no:\n  k: v\n   j: w\n---\n",
		"---\ntitle:\n  k: v\n---\n", "---\ntitle: A\no:\n  k:\n---\n", "---\ntitle: A\no:\n  k: >\n   x\n---\n",
		"---\ntitle: A\no:\n  k: v\n    w\n---\n", "---\ntitle: A\no:\n  - a\n  k: v\n---\n", "---\ntitle: >\n x\na: b\n : \n---\n", "---\n# c\ntitle: A\n---\n",
		"---\ntitle:\tA\n---\n", "---\ntitle: \"a\\tb\"\n---\n", "---\ntitle: >-\n---\n", "---\ntitle: A\n---\n\xff",
		"---\ntitle: A\ndescription: |\n   a\n  b\n---\n", "---\ntitle: A\nd: >\n  \n  x\n---\n", "---\ntitle: A\n--- x\n---\n",
	} {
		if checkQuickDocument(t, []byte(s)) {
			t.Errorf("quickRead accepted %q", s)
		}
	}
}

func TestLinksMayEscape(t *testing.T) {
	x := NewLinkExtractor()
	escaping := []struct {
		body  string
		depth int
	}{
		{"[a](../x)", 0}, {"[a](../../x)", 1}, {"[a](/../x)", 3}, {"[a](/a/../../x)", 3}, {"[a](C:x)", 2},
		{"[a](/C:/x)", 2}, {"[a](\\x)", 1}, {"[a](\\.\\./x)", 0}, {"[a](&#46;&#46;/x)", 0}, {"[a](%2e%2e/x)", 0},
		{"[a](<../x>)", 0}, {"[a]: ../x", 0}, {"[a]:\n  ../x", 0}, {"[a](\u00a0/../x)", 4}, {"[a](x/../../y)", 0},
		{"[a](</a b/../..>)", 2}, {"[a](<../a b/../..>)", 1}, {"[a](a/b/../../../x?q#f)", 0}, {"![i](..)", 0},
		{"> - [a](../../x)", 1}, {"[a](  ../x)", 0}, {"[a](..\u00a0)", 0},
		{"[a](file:///etc/passwd)", 3}, {"![i](FILE://host/x.png)", 0}, {"[r]: File:notes.md", 1}, {"see <file:///x>", 0},
		{"[a](\u00a0file:x)", 0}, {"[r]:file:x", 0}, {"[a](<file:x y>)", 0},
		// Code that is not code: what outsideCodeMayEscape must not skip.
		{"- item\n\n    [a](../x)", 0}, {"para\n    [a](../x)", 0}, {"- item\n[a](../x)", 0},
		{"  ```\n[a](../x)", 0}, {"```a`b\n[a](../x)\n```\n[b](../y)", 0}, {"> ```\n\n[a](../x)", 0},
		{"<div>\n```\n</div>\n[a](../x)", 0}, {"```\nx\n``\n```\n[a](../x)", 0}, {"~~~\n```\n~~~\n[a](../x)", 0},
		{"x `a\n\n[b](../x) `", 0}, {"x `a\n`[b](../x)`", 0}, {"[c](/y \"`\") [b](../x) `", 0},
		{"[c]: /y '`'\n`[b](../x)`", 0}, {"x <a title='`'>`[b](../x)`", 0}, {"x \\`[b](../x)`", 0},
		{"`` `[b](../x)` ``", 0}, {"``[b](../x)`", 0}, {"x\n```\ny\n```\n[a](../x)", 0}, {"# h\n[a](../x)", 0},
		{"x\n\t[a](../x)", 0}, {"\n\n    x\n\u00a0   [a](../x)", 0}, {"    x\n  - y\n\n    [a](../x)", 0},
		{"1. x\n\n    [a](../x)", 0}, {"[`x`](../x)", 0}, {"x `y` ](../x)", 0}, {"x `y\n# z\n` [a](../x)", 0},
	}
	for _, c := range escaping {
		if !checkLinksMayEscape(t, x, []byte(c.body), c.depth) {
			t.Errorf("linksMayEscape(%q, %d) = false", c.body, c.depth)
		}
	}
	clear := []struct {
		body  string
		depth int
	}{
		{"", 0}, {"no links at all.", 0}, {"[a](x.md) and [b](/y/z.md#q) and <https://e.com/a/../..>", 0},
		{"[a](../x)", 1}, {"[a](../../x) [b](../y)", 2}, {"see `[a](x)` e.g. this... or that..", 0},
		{"[a](/x/../y) and https://example.com/a/b", 0}, {"[up](../NODE.md): the parent", 1},
		{"a profile: b, [c](prefile:x) <xfile:y> [d](file.md)", 0},
		// Code: fenced, indented and in code spans of plain paragraphs.
		{"```text\nsee [a](../../x) and ![b](../y)\n```\n\n[c](z.md)", 1},
		{"# T\n\n~~~\n[a](../../x)\n  ~~~~ \nok [b](../y)", 1}, {"````\n[a](../x)\n```\n[b](../y)", 0},
		{"p\n\n    indented code [a](../../x)\n    more\n\nq", 1}, {"# h\n    [a](../x)", 0},
		{"- [a](x.md)\n- b\n\nafter\n\n    [a](../x)", 0},
		{"Written as `[a](../../x)` it is only code.\n\nnext [b](../y)", 1},
		{"two `` ` [a](../x) `` and\nmore `[b](../y)` text [c](z.md)", 0},
		// Prose: paths, drive letters and schemes outside any destination.
		{"see ../../x, C:y and file:z in prose; a title [a](x.md \"../../t\")", 0},
		{"[a]( <x y/../z>) [b]:\t../c.md [c](\t./d.md)", 1},
	}
	for _, c := range clear {
		if checkLinksMayEscape(t, x, []byte(c.body), c.depth) {
			t.Errorf("linksMayEscape(%q, %d) = true, want a proof of no escape", c.body, c.depth)
		}
	}
}

// TestFastPathsOnGeneratedDocuments compares both paths on every document of
// a generated tree and on many mutations of them.
func TestFastPathsOnGeneratedDocuments(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := treegen.Generate(dir, treegen.Options{Seed: 7, Docs: 600, WideChildren: 30}); err != nil {
		t.Fatal(err)
	}
	type file struct {
		data  []byte
		depth int
	}
	var files []file
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".md") {
			return err
		}
		data, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, filepath.Dir(p))
		files = append(files, file{data, dirDepth(filepath.ToSlash(rel))})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	x := NewLinkExtractor()
	quick, clean := 0, 0
	for _, f := range files {
		if checkQuickDocument(t, f.data) {
			quick++
		}
		if fm, err := ParseFrontmatter(f.data); err == nil && !checkLinksMayEscape(t, x, fm.Body, f.depth) {
			clean++
		}
	}
	t.Logf("%d documents: %d read by quickRead, %d bodies cleared by linksMayEscape", len(files), quick, clean)
	if quick < len(files)*3/4 || clean < len(files)/2 {
		t.Errorf("fast paths take too few generated documents: %d and %d of %d", quick, clean, len(files))
	}

	// Mutations: insert, replace or delete YAML- and Markdown-significant
	// text at pseudo-random places.
	pieces := []string{":", ": ", " ", "  ", "\n", "\n  ", "\n- ", "- ", "#", " #", "'", "\"", "''", "\\", "&", "%2e",
		"..", "../", "/", "/..", "(", ")", "[", "]", "](", "<", ">", "`", "```\n", "    ", "\t", "\r", "\x00", "\u00a0",
		"\u2028", "\xff", "---\n", "...", "~", "null", "true", "1", "-", "|", ">-", "&a ", "*a", "!!str ", "{", "}", ",", "C:",
		"title: x\n", "soft_links:\n", "schemaVersion: 1\n", "description:", "  - a.md\n", "[x]: ../../../y\n",
		"~~~\n", "\n\n    ", "\n```text\n", "``", "\n> ", "\n1. ", "\n# ", "<a href='`'>", "](../../../../x) "}
	n := 3000
	if testing.Short() {
		n = 300
	}
	seed := uint64(1)
	rnd := func(k int) int {
		seed = seed*6364136223846793005 + 1442695040888963407
		return int((seed >> 33) % uint64(k))
	}
	for range n {
		f := files[rnd(len(files))]
		data := append([]byte{}, f.data...)
		for range 1 + rnd(3) {
			at := rnd(len(data) + 1)
			if rnd(2) == 0 { // mostly in the header, where YAML lives
				at = rnd(min(len(data), 400) + 1)
			}
			piece := pieces[rnd(len(pieces))]
			switch rnd(3) {
			case 0:
				data = append(data[:at:at], append([]byte(piece), data[at:]...)...)
			case 1:
				end := min(len(data), at+len(piece))
				data = append(data[:at:at], append([]byte(piece), data[end:]...)...)
			default:
				end := min(len(data), at+1+rnd(4))
				data = append(data[:at:at], data[end:]...)
			}
		}
		checkQuickDocument(t, data)
		if fm, err := ParseFrontmatter(data); err == nil {
			checkLinksMayEscape(t, x, fm.Body, rnd(4))
		}
		checkLinksMayEscape(t, x, data, rnd(4))
	}
}

// TestVerifyFastPathsAgree runs Verify with and without the fast paths on a
// generated tree with broken documents mixed in. Not parallel: it switches
// the package-wide verifyFastPaths, which every other test's Verify reads
// (the race detector caught it).
func TestVerifyFastPathsAgree(t *testing.T) {
	dir := t.TempDir()
	if err := treegen.Generate(dir, treegen.Options{Seed: 3, Docs: 300}); err != nil {
		t.Fatal(err)
	}
	for name, content := range map[string]string{
		"bad-escape.md":  "---\ntitle: A\n---\n[a](../../x) and [b](/../y)\n",
		"bad-title.md":   "---\ntitle: 1\nsoft_links:\n  - nowhere.md\n---\nbody\n",
		"bad-yaml.md":    "---\ntitle: a: b\n---\n",
		"bad-links.md":   "---\ntitle: A\nsoft_links:\n  - ../x\n  - https://e.com\n  - NODE.md\n---\n",
		"no-header.md":   "just text [a](../b)\n",
		"crlf.md":        "---\r\ntitle: A\r\n---\r\n[a](../c)\r\n",
		"members/bad.md": "---\ntitle: A\ndescription: ''\n---\n",
		"file-urls.md":   "---\ntitle: A\n---\n[a](file:///etc/passwd) <FILE:x>\n\n[r]: File://h/y\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(name)), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	root, err := OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	fast := Verify(root)
	verifyFastPaths = false
	defer func() { verifyFastPaths = true }()
	slow := Verify(root)
	if !reflect.DeepEqual(fast, slow) {
		t.Errorf("Verify differs with fast paths:\nfast %+v\nslow %+v", fast, slow)
	}
	if len(slow.Findings) < 7 {
		t.Errorf("only %d findings: %+v", len(slow.Findings), slow.Findings)
	}
}

// FuzzQuickDocument checks quickRead against ParseDocument on any input.
func FuzzQuickDocument(f *testing.F) {
	for _, s := range []string{
		"---\ntitle: A\ndescription: B c.\nsoft_links:\n  - a.md\n  - /b/c.md#x\n  - ./d\n---\nbody\n",
		"---\ntitle: 'It''s'\nsoft_links:\n- \"x y\"\n- 'z'\n---\n",
		"---\ntitle: \"Q: r\"\ndescription: >-\n  one\n\n    two\nextra: [a, b-c, 1]\nn: 12\nm:\nk: yes\n---\n\n# B\n",
		"---\ntitle: A\no:\n  k: v\n  j: [x]\n  title: 1\nk: 'w'\n---\n",
		"---\ntitle: |\n  a: b\n  # c\ndescription: >-\n  d 'e'\n  f\n---\n",
		"---\ntitle: >\n   x\n   y\ndescription: |-\n  z\n---\n",
		"---\r\ntitle: A \r\ndescription: >-\r\n  x\r\n  y\r\nsoft_links:\r\n  - a.md\r\no:\r\n  k: v\r\n---\r\nb\r\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkQuickDocument(t, data)
	})
}

// FuzzLinksMayEscape checks linksMayEscape against the link extractor.
func FuzzLinksMayEscape(f *testing.F) {
	for _, s := range []string{
		"[a](../x) [b](/y/../z) <../c> [c]: ../../d\n`[e](../../f)`", "[a](</a b/../..>)", "x C:y (/D:z)",
		"> - [a](x/../../y?q#f)", "[a](..\u00a0) [b](\u00a0/../x)",
		"[a](file:///etc/passwd) ![i](FILE://h/x) [r]: File:x <fIlE:/y>", "profile: [a](xfile:y)",
		"p\n\n```text\nsee [a](../../x)\n```\n\n    code [b](../../y)\n\nWritten as `[c](../../z)` it is only code.\n",
		"- [a](x.md)\n\n    [b](../../y)\n\n# h\n    [c](../z)\n~~~\n[d](../w)\n  ~~~\nx `` ` `` ] [e](../v)",
		"[a](\n../../x) [b](\t\n  ../y)\n> [c](\n> ../../z)\n[r]:\n  ../../w\n[s]:\t<../v>\n", "[a](< ../../x >) [b]( <../y>)",
		"[a](x\r../../y) [b](\r../z)\r[r]: x\r\n../../w", "[a]( ../../x \"t\") [b](y \"../../z\") ![i](../../../i.png)",
	} {
		f.Add([]byte(s), uint8(0))
		f.Add([]byte(s), uint8(2))
	}
	x := NewLinkExtractor()
	f.Fuzz(func(t *testing.T, body []byte, depth uint8) {
		checkLinksMayEscape(t, x, body, int(depth%8))
	})
}

// TestReadChildrenFastPaths: child summaries read through quickMeta are
// those ParseDocument gives, block-scalar and quoted titles included.
func TestReadChildrenFastPaths(t *testing.T) {
	dir := t.TempDir()
	if err := treegen.Generate(dir, treegen.Options{Seed: 4, Docs: 200, WideChildren: 60}); err != nil {
		t.Fatal(err)
	}
	for name, content := range map[string]string{
		"block.md":   "---\ntitle: >-\n  Folded\n  title\ndescription: |\n  Literal\n---\n",
		"quoted.md":  "---\ntitle: 'It''s'\ndescription: \"Q: r\"\n---\n",
		"plain.md":   "---\ntitle: Plain  words   \ndescription: café au lait\n---\n",
		"bad.md":     "---\ntitle: 1\n---\n",
		"crlf.md":    "---\r\ntitle: CRLF\r\n---\r\n",
		"nothing.md": "no header\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, treegen.WideDir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	root, err := OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	fast, err := Read(root, treegen.WideDir)
	if err != nil {
		t.Fatal(err)
	}
	verifyFastPaths = false
	defer func() { verifyFastPaths = true }()
	slow, err := Read(root, treegen.WideDir)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(fast, slow) {
		t.Errorf("Read differs with fast paths:\nfast %+v\nslow %+v", fast.Children, slow.Children)
	}
	if len(slow.Children) < 66 {
		t.Errorf("only %d children", len(slow.Children))
	}
}

// TestLastDots: lastDots is bytes.LastIndex of "..".
func TestLastDots(t *testing.T) {
	for _, s := range []string{"", ".", "..", "...", "a..b", "a.b.c", "..a.", "a...", ". .", "x/../../y", ".a..", "a.b..c.d"} {
		if got, want := lastDots([]byte(s)), strings.LastIndex(s, ".."); got != want {
			t.Errorf("lastDots(%q) = %d, want %d", s, got, want)
		}
	}
}
