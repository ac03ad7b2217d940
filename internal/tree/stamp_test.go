package tree

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestStampSources(t *testing.T) {
	doc := "---\r\ntitle: API # the handler\r\nsources:\r\n  - path: src/api.go   # moved?\r\n    lines: 12-40\r\n    commit: 'abcdef0'\r\n    owner: me\r\n  -   path: \"src/b.go\"\r\n  - {path: c.go, commit: abcdef1, sha256: 0123456789abcdef}\r\nother: [x]\r\n---\r\nBody\r\n"
	commit := strings.Repeat("1", 40) // digits only: YAML would read a number
	out, err := StampSources([]byte(doc), []SourceStamp{
		{Index: 0, Path: "src/api/handler.go", Lines: "14-44", Commit: commit, Sha256: "00112233445566ff"},
		{Index: 1, Path: "src/b.go", Commit: commit, Sha256: "aabbccddeeff0011"},
		{Index: 2, Path: "c.go", Commit: "abcdef2", Sha256: "0123456789abcdef"},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := "---\r\ntitle: API # the handler\r\nsources:\r\n  - path: src/api/handler.go   # moved?\r\n    lines: 14-44\r\n    commit: \"" + commit + "\"\r\n    sha256: 00112233445566ff\r\n    owner: me\r\n" +
		"  -   path: \"src/b.go\"\r\n      commit: \"" + commit + "\"\r\n      sha256: aabbccddeeff0011\r\n  - {path: c.go, commit: abcdef2, sha256: 0123456789abcdef}\r\nother: [x]\r\n---\r\nBody\r\n"
	if diff := cmp.Diff(want, string(out)); diff != "" {
		t.Errorf("stamped (-want +got):\n%s", diff)
	}
	doc2 := ParseDocument("a.md", out, false)
	if len(doc2.Findings) != 0 || doc2.Meta.Sources[0].Commit != commit {
		t.Errorf("stamped document: %v %+v", doc2.Findings, doc2.Meta.Sources)
	}
	again, err := StampSources(out, []SourceStamp{{Index: 0, Path: "src/api/handler.go", Lines: "14-44", Commit: commit, Sha256: "00112233445566ff"}})
	if err != nil || string(again) != string(out) {
		t.Errorf("a second stamp changed the document: %v\n%s", err, again)
	}
}

// Every YAML form of an entry is stamped: a flow mapping missing keys
// gets them after its last value, in flow style, on one line or several,
// inside a block or a flow list, with a trailing comma or a comment.
func TestStampSourcesFlow(t *testing.T) {
	stamp := []SourceStamp{{Index: 0, Path: "src/a.go", Lines: "10-20", Commit: "abcdef0", Sha256: "0123456789abcdef"}}
	for _, c := range []struct{ in, want string }{
		{"  - {path: src/a.go, lines: \"10-20\"}\n",
			"  - {path: src/a.go, lines: \"10-20\", commit: abcdef0, sha256: 0123456789abcdef}\n"},
		{"  - {path: src/a.go}  # the handler\n",
			"  - {path: src/a.go, lines: 10-20, commit: abcdef0, sha256: 0123456789abcdef}  # the handler\n"},
		{"  - { path: 'src/a.go',\n      lines: 10-20 }\n",
			"  - { path: 'src/a.go',\n      lines: 10-20, commit: abcdef0, sha256: 0123456789abcdef }\n"},
		{"  - {path: src/a.go, lines: 10-20, commit: 1111111,}\n",
			"  - {path: src/a.go, lines: 10-20, commit: abcdef0, sha256: 0123456789abcdef,}\n"},
		{"  [{path: src/a.go}]\n",
			"  [{path: src/a.go, lines: 10-20, commit: abcdef0, sha256: 0123456789abcdef}]\n"},
	} {
		doc := "---\ntitle: A\nsources:\n" + c.in + "---\nBody\n"
		out, err := StampSources([]byte(doc), stamp)
		if err != nil {
			t.Errorf("%q: %v", c.in, err)
			continue
		}
		if diff := cmp.Diff("---\ntitle: A\nsources:\n"+c.want+"---\nBody\n", string(out)); diff != "" {
			t.Errorf("%q stamped (-want +got):\n%s", c.in, diff)
		}
		parsed := ParseDocument("a.md", out, false)
		if len(parsed.Findings) != 0 || len(parsed.Meta.Sources) != 1 || parsed.Meta.Sources[0].Sha256 != "0123456789abcdef" {
			t.Errorf("%q: stamped document %v %+v", c.in, parsed.Findings, parsed.Meta.Sources)
		}
	}
}
