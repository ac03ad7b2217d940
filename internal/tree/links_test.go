package tree

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestLinkExtractor(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []Link
	}{
		{"inline link", "See [a](b.md).\n", []Link{{"b.md", 1}}},
		{"inline link with title", "x\n\n[a](../b.md \"Title\")\n", []Link{{"../b.md", 3}}},
		{"angle destination", "[a](<b c.md>)\n", []Link{{"b c.md", 1}}},
		{"image", "text\n![alt](img/x.png)\n", []Link{{"img/x.png", 2}}},
		{"link and image on one line", "[a](1.md) ![b](2.png)\n", []Link{{"1.md", 1}, {"2.png", 1}}},
		{"link in heading and list", "# [h](h.md)\n\n- [l](l.md)\n", []Link{{"h.md", 1}, {"l.md", 3}}},
		{"link in blockquote", "> quote [q](q.md)\n", []Link{{"q.md", 1}}},
		{"image inside link", "[![i](i.png)](t.md)\n", []Link{{"t.md", 1}, {"i.png", 1}}},
		{"empty destination", "[a]()\n", []Link{{"", 1}}},
		{"reference definition unused", "Text.\n\n[ref]: ../x.md\n", []Link{{"../x.md", 3}}},
		{"reference definition used once", "Use [it][ref] and [ref] and [ref][].\n\n[ref]: /x.md \"T\"\n", []Link{{"/x.md", 3}}},
		{"reference images", "![a][img]\n\n[img]: ../i.png\n", []Link{{"../i.png", 3}}},
		{"undefined reference is not a link", "[a][nope]\n", nil},
		{"code span", "Use `[a](../x.md)` here.\n", nil},
		{"fenced code", "```\n[a](../x.md)\n```\n", nil},
		{"tilde fence", "~~~md\n![i](../x.png)\n~~~\n", nil},
		{"indented code", "para\n\n    [a](../x.md)\n", nil},
		{"code span then link", "`x` [a](y.md)\n", []Link{{"y.md", 1}}},
		{"autolinks", "<https://example.com> and\n<mailto:a@b.c> <FILE:///etc/x>\n", []Link{{"https://example.com", 1}, {"mailto:a@b.c", 2}, {"FILE:///etc/x", 2}}},
		{"email autolink", "<a@b.c>\n", nil},
		{"autolink keeps escapes and entities", "x <file:/a\\b&amp;c>\n", []Link{{"file:/a\\b&amp;c", 1}}},
		{"autolink in code", "`<file:///x>`\n", nil},
		{"file URLs", "[a](file:///etc/passwd) ![i](File://host/x.png)\n\n[r]: file:notes.md\n", []Link{{"file:///etc/passwd", 1}, {"File://host/x.png", 1}, {"file:notes.md", 3}}},
		{"bare url", "https://example.com/../x\n", nil},
		{"html", "<a href=\"../x.md\">a</a>\n", nil},
		{"escaped brackets", "\\[a](../x.md)\n", nil},
		{"backslash escapes resolved", "[a](.\\./x.md)\n", []Link{{"../x.md", 1}}},
		{"entity references resolved", "[a](&#46;&#46;/x.md) [b](&period;&period;/y.md)\n", []Link{{"../x.md", 1}, {"../y.md", 1}}},
		{"percent-encoding kept", "[a](%2e%2e/x.md)\n", []Link{{"%2e%2e/x.md", 1}}},
		{"crlf lines", "a\r\nb\r\n[c](c.md)\r\n", []Link{{"c.md", 3}}},
		{"multi-line paragraph", "one\ntwo [a](a.md)\nthree [b](b.md)\n", []Link{{"a.md", 2}, {"b.md", 3}}},
	}
	x := NewLinkExtractor()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := x.Extract([]byte(tt.src))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Extract(%q) (-want +got):\n%s", tt.src, diff)
			}
		})
	}
}
