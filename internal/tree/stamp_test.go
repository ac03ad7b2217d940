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
	if _, err := StampSources([]byte("---\ntitle: A\nsources:\n  - {path: c.go}\n---\n"), []SourceStamp{{Index: 0, Path: "c.go", Commit: "abcdef0"}}); err == nil {
		t.Error("a flow entry without commit was stamped")
	}
}
