package git

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseStatusV2(t *testing.T) {
	out := "# branch.oid abc\x00" +
		"1 .M N... 100644 100644 100644 aaa bbb docs/a b.md\x00" +
		"1 MM N... 100644 100644 100644 aaa bbb both.md\x00" +
		"2 R. N... 100644 100644 100644 aaa bbb R100 docs/new.md\x00docs/old.md\x00" +
		"u UU N... 100644 100644 100644 100644 a b c docs/conflict.md\x00" +
		"? docs/untracked.md\x00" +
		"! docs/ignored.log\x00"
	want := []StatusEntry{
		{Kind: '1', Path: "docs/a b.md", Unstaged: true},
		{Kind: '1', Path: "both.md", Unstaged: true, Staged: true},
		{Kind: '2', Path: "docs/new.md", Orig: "docs/old.md", Staged: true},
		{Kind: 'u', Path: "docs/conflict.md", Unstaged: true},
		{Kind: '?', Path: "docs/untracked.md", Unstaged: true},
		{Kind: '!', Path: "docs/ignored.log", Unstaged: true},
	}
	if diff := cmp.Diff(want, parseStatusV2([]byte(out))); diff != "" {
		t.Errorf("parseStatusV2 (-want +got):\n%s", diff)
	}
}
