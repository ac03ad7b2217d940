package tree

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/git-context-tree/git-context-tree/contracts"
)

func TestFixDocument(t *testing.T) {
	linkable := func(p string) bool {
		return map[string]bool{"a/b/c.md": true, "a/sib.md": true, "a/b": true, "top.md": true}[p]
	}
	tests := []struct {
		name, rel string
		root      bool
		in, want  string
		codes     []contracts.FindingCode
	}{
		{"no frontmatter, heading", "a/doc.md", false,
			"Intro\n\n# The *Guide*\n\nText.\n",
			"---\ntitle: The Guide\n---\nIntro\n\n# The *Guide*\n\nText.\n",
			[]contracts.FindingCode{contracts.FindingFrontmatterMissing}},
		{"no frontmatter, no heading, CRLF and BOM", "a/getting-started.md", false,
			"\xef\xbb\xbfjust text\r\n",
			"\xef\xbb\xbf---\r\ntitle: getting started\r\n---\r\njust text\r\n",
			[]contracts.FindingCode{contracts.FindingFrontmatterMissing}},
		{"heading in code is not a title", "x/API_notes.md", false,
			"```\n# not this\n```\n",
			"---\ntitle: API notes\n---\n```\n# not this\n```\n",
			[]contracts.FindingCode{contracts.FindingFrontmatterMissing}},
		{"YAML-significant title is quoted", "d.md", false,
			"# yes: no\n",
			"---\ntitle: 'yes: no'\n---\n# yes: no\n",
			[]contracts.FindingCode{contracts.FindingFrontmatterMissing}},
		{"root without frontmatter", "NODE.md", true,
			"# Handbook\n",
			"---\nschemaVersion: 1\ntitle: Handbook\n---\n# Handbook\n",
			[]contracts.FindingCode{contracts.FindingFrontmatterMissing}},
		{"root without schemaVersion keeps everything else", "NODE.md", true,
			"---\n# who\ntitle: Root   # the name\nowners: [a, b]\n---\nBody\n",
			"---\n# who\nschemaVersion: 1\ntitle: Root   # the name\nowners: [a, b]\n---\nBody\n",
			[]contracts.FindingCode{contracts.FindingRootNodeInvalid}},
		{"missing title from the heading", "a/x.md", false,
			"---\nowners: [a]\n---\n# X marks\n",
			"---\ntitle: X marks\nowners: [a]\n---\n# X marks\n",
			[]contracts.FindingCode{contracts.FindingTitleMissing}},
		{"misspelt description", "a/x.md", false,
			"---\ntitle: X\ndescripton: What x is.\n---\n",
			"---\ntitle: X\ndescription: What x is.\n---\n",
			[]contracts.FindingCode{contracts.FindingDescriptionInvalid}},
		{"desc", "a/x.md", false,
			"---\ntitle: X\ndesc: \"What x is.\"\n---\n",
			"---\ntitle: X\ndescription: \"What x is.\"\n---\n",
			[]contracts.FindingCode{contracts.FindingDescriptionInvalid}},
		{"ambiguous description is left", "a/x.md", false,
			"---\ntitle: X\ndesc: a\ndescripton: b\n---\n", "", nil},
		{"description present: a look-alike is left", "a/x.md", false,
			"---\ntitle: X\ndescription: a\ndesc: b\n---\n", "", nil},
		{"summary is not a description", "a/x.md", false,
			"---\ntitle: X\nsummary: a\n---\n", "", nil},
		{"soft links relative to the document", "a/b/doc.md", false,
			"---\ntitle: D\nsoft_links:\n  - c.md#part\n  - '../sib.md'\n  - /top.md\n  - missing.md\n---\nB\n",
			"---\ntitle: D\nsoft_links:\n  - a/b/c.md#part\n  - 'a/sib.md'\n  - /top.md\n  - missing.md\n---\nB\n",
			[]contracts.FindingCode{contracts.FindingSoftLinkBroken, contracts.FindingSoftLinkBroken}},
		{"flow soft links", "a/doc.md", false,
			"---\ntitle: D\nsoft_links: [sib.md, \"b\"]\n---\n",
			"---\ntitle: D\nsoft_links: [a/sib.md, \"a/b\"]\n---\n",
			[]contracts.FindingCode{contracts.FindingSoftLinkBroken, contracts.FindingSoftLinkBroken}},
		{"valid root-relative soft link left", "a/doc.md", false,
			"---\ntitle: D\nsoft_links: [top.md]\n---\n", "", nil},
		{"indented mapping", "NODE.md", true,
			"---\n  title: R\n---\nB\n",
			"---\n  schemaVersion: 1\n  title: R\n---\nB\n",
			[]contracts.FindingCode{contracts.FindingRootNodeInvalid}},
		{"flow mapping is left", "NODE.md", true, "---\n{title: R}\n---\nB\n", "", nil},
		{"unparseable header is left", "a.md", false, "---\ntitle: [\n---\n", "", nil},
		{"binary is left", "a.md", false, "\x00\x01", "", nil},
		{"valid document unchanged", "a.md", false, "---\ntitle: A\n---\n", "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, repairs := FixDocument(tt.rel, []byte(tt.in), FixContext{Root: tt.root, TreeName: "kb", Linkable: linkable})
			want := tt.want
			if want == "" {
				want = tt.in
			}
			if diff := cmp.Diff(want, string(out)); diff != "" {
				t.Errorf("output (-want +got):\n%s", diff)
			}
			var codes []contracts.FindingCode
			for _, r := range repairs {
				codes = append(codes, r.Code)
			}
			if diff := cmp.Diff(tt.codes, codes); diff != "" {
				t.Errorf("repairs (-want +got):\n%s\n%v", diff, repairs)
			}
			again, more := FixDocument(tt.rel, out, FixContext{Root: tt.root, TreeName: "kb", Linkable: linkable})
			if string(again) != string(out) || len(more) > 0 {
				t.Errorf("second fix changed %q to %q (%v)", out, again, more)
			}
		})
	}
}

func TestNameTitle(t *testing.T) {
	for in, want := range map[string]string{"kb": "kb", "team-handbook": "team handbook", "API_docs": "API docs", "--": "", "a\x01b": "a b"} {
		if got := NameTitle(in); got != want {
			t.Errorf("NameTitle(%q) = %q, want %q", in, got, want)
		}
	}
}

// FuzzFixDocument fixes generated documents: a header (framed by ---
// lines when framed) and a body. The output always parses, its body is the
// input's, and a second fix changes nothing.
func FuzzFixDocument(f *testing.F) {
	for _, s := range [][2]string{
		{"", ""}, {"", "# Title\n"}, {"", "text\r\n"}, {"", "\xef\xbb\xbf# T\n"},
		{"title: R\nowners: [a]", "Body\n"},
		{"# c\n  title: x", ""},
		{"desc: d\nsoft_links:\n  - c.md\n  - \"b\"\n  - 'b'", ""},
		{"soft_links: [c.md, b#x]", "# H\n"},
		{"title: T\ndescripton: >\n  folded", ""},
		{"Description: d", "x"},
		{"a: &x 1\nb: *x", ""},
		{"{title: x}", ""},
		{"? complex\n: key", ""},
	} {
		for _, root := range []bool{false, true} {
			f.Add([]byte(s[0]), []byte(s[1]), "a/doc.md", root, true)
			f.Add([]byte(s[0]), []byte(s[1]), "a/doc.md", root, false)
		}
	}
	linkable := func(p string) bool { return p == "a/c.md" || p == "a/b" || strings.HasPrefix(p, "a/x") }
	f.Fuzz(func(t *testing.T, header, body []byte, rel string, root, framed bool) {
		if !strings.HasSuffix(rel, ".md") || strings.HasPrefix(rel, "/") {
			return
		}
		data := append(append([]byte(nil), header...), body...)
		if framed {
			data = []byte("---\n" + string(header) + "\n---\n" + string(body))
		}
		fc := FixContext{Root: root, TreeName: "kb", Linkable: linkable}
		out, repairs := FixDocument(rel, data, fc)
		if len(repairs) == 0 {
			if string(out) != string(data) {
				t.Fatalf("changed without a repair: %q -> %q", data, out)
			}
			return
		}
		fm, err := ParseFrontmatter(out)
		if err != nil {
			t.Fatalf("output does not parse: %v\n%q", err, out)
		}
		if old, err := ParseFrontmatter(data); err == nil && string(old.Body) != string(fm.Body) {
			t.Fatalf("body changed: %q -> %q", old.Body, fm.Body)
		}
		again, more := FixDocument(rel, out, fc)
		if string(again) != string(out) || len(more) > 0 {
			t.Fatalf("not idempotent: %q -> %q -> %q (%v)", data, out, again, more)
		}
	})
}
