package tree

import (
	"strconv"
	"strings"
	"testing"
)

// Common mistakes get a hint in the finding's message.
func TestFindingHints(t *testing.T) {
	root := writeTree(t, map[string]string{
		"NODE.md":     rootNode,
		"a/NODE.md":   "---\ntitle: A\nsoft_links:\n  - b.md\n  - nowhere.md\n---\n",
		"a/b.md":      "---\ntitle: # B\n---\n",
		"a/string.md": "---\ntitle: S\nsoft_links: a/b.md\n---\n",
		"a/rooted.md": "---\ntitle: R\nsoft_links:\n  - /b.md\n---\n",
		"a/c/NODE.md": doc("C", ""),
		"a/c/up.md":   "---\ntitle: Up\nsoft_links:\n  - ../b.md\n---\n",
	})
	want := map[string]string{
		"a/NODE.md:4":   "not a document or indexed directory of the tree; soft links are relative to the tree root, not to the document: write a/b.md",
		"a/NODE.md:5":   "soft link target nowhere.md is not a document or indexed directory of the tree",
		"a/b.md:2":      `document title is empty; write the document's name after "title:" (quote it when it starts with # or holds ": ")`,
		"a/string.md:3": `soft_links must be a non-empty list of paths, not a single string; write it as a list: soft_links: ["a/b.md"]`,
		"a/rooted.md:4": "soft link target b.md is not a document or indexed directory of the tree",
		"a/c/up.md:4":   "write a/b.md",
	}
	r := Verify(root)
	got := map[string]string{}
	for _, f := range r.Findings {
		got[f.Path+":"+strconv.Itoa(f.Line)] = f.Message
	}
	for at, w := range want {
		msg, ok := got[at]
		if !ok {
			t.Errorf("no finding at %s; got %v", at, got)
			continue
		}
		if !strings.Contains(msg, w) {
			t.Errorf("%s: message %q does not contain %q", at, msg, w)
		}
		if strings.HasSuffix(w, "of the tree") && strings.Contains(msg, ";") {
			t.Errorf("%s: message %q has a hint it should not", at, msg)
		}
	}
	if len(got) != len(want) {
		t.Errorf("findings = %v", got)
	}
}
