package tree

import (
	"strings"
	"testing"

	"github.com/git-context-tree/git-context-tree/contracts"
)

func TestVerifyLinksOptIn(t *testing.T) {
	root := writeTree(t, map[string]string{
		"NODE.md":     rootNode,
		"sub/NODE.md": doc("Sub", "[b](sub/b.md) [c](nowhere.md)\n"),
		"sub/b.md":    doc("B", ""),
	})
	if r := Verify(root); !r.OK() {
		t.Fatalf("Verify without Links reported %v", r.Findings)
	}
	r := VerifyWith(root, VerifyOptions{Links: true})
	if len(r.Findings) != 2 {
		t.Fatalf("findings = %v, want 2", r.Findings)
	}
	for _, f := range r.Findings {
		if f.Code != contracts.FindingMarkdownLinkBroken {
			t.Errorf("code = %s", f.Code)
		}
	}
	// Same line: sorted by target, "nowhere.md" before "sub/b.md".
	if got := r.Findings[1].Message; !strings.Contains(got, "sub/b.md exists: a Markdown link is relative to its document (write /sub/b.md") {
		t.Errorf("message for sub/b.md has no hint: %q", got)
	}
	if got := r.Findings[0].Message; strings.Contains(got, "exists") {
		t.Errorf("message for nowhere.md has a hint: %q", got)
	}
}
