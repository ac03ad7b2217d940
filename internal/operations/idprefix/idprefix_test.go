package idprefix

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/git-context-tree/git-context-tree/contracts"
)

func TestResolvePrefix(t *testing.T) {
	ids := []string{
		"019a0000-0000-7000-8000-00000000000b",
		"019a0000-0000-7000-8000-00000000000a",
		"019a1111-0000-7000-8000-000000000000",
		"02ff0000-0000-7000-8000-000000000000",
	}
	for _, c := range []struct {
		prefix, want string
		code         contracts.ErrorCode
		candidates   []string
	}{
		{prefix: ids[0], want: ids[0]},
		{prefix: "019a1", want: ids[2]},
		{prefix: "02FF", want: ids[3]},
		{prefix: "019A0000-0000-7000-8000-00000000000A", want: ids[1]},
		{prefix: "0300"},
		{prefix: "019a0000-0000-7000-8000-00000000000ab"},
		{prefix: "019", code: contracts.CodeUsage},
		{prefix: "", code: contracts.CodeUsage},
		{prefix: "019a", code: contracts.CodeIDAmbiguous, candidates: []string{ids[1], ids[0], ids[2]}},
		{prefix: "019a0000", code: contracts.CodeIDAmbiguous, candidates: []string{ids[1], ids[0]}},
	} {
		got, err := Resolve(c.prefix, ids, "cleanup run")
		var ce *contracts.Error
		switch {
		case c.code == "" && err != nil:
			t.Errorf("Resolve(%q): %v", c.prefix, err)
		case c.code == "" && got != c.want:
			t.Errorf("Resolve(%q) = %q, want %q", c.prefix, got, c.want)
		case c.code != "" && (!errors.As(err, &ce) || ce.Code != c.code || got != ""):
			t.Errorf("Resolve(%q) = %q, %v; want %s", c.prefix, got, err, c.code)
		case c.candidates != nil:
			if diff := cmp.Diff(c.candidates, ce.Details["candidates"]); diff != "" {
				t.Errorf("Resolve(%q) candidates (-want +got):\n%s", c.prefix, diff)
			}
			if ce.Code.ExitCode() != contracts.ExitRefused {
				t.Errorf("ID_AMBIGUOUS exits %d, want %d", ce.Code.ExitCode(), contracts.ExitRefused)
			}
		}
	}
}

func TestResolvePrefixDoesNotReorderCallersIDs(t *testing.T) {
	ids := []string{"bbbb-2", "bbbb-1", "bbbb-1"}
	_, err := Resolve("bbbb", ids, "session")
	var ce *contracts.Error
	if !errors.As(err, &ce) || cmp.Diff([]string{"bbbb-1", "bbbb-2"}, ce.Details["candidates"]) != "" {
		t.Fatalf("duplicates: %v %v", err, ce)
	}
	if diff := cmp.Diff([]string{"bbbb-2", "bbbb-1", "bbbb-1"}, ids); diff != "" {
		t.Errorf("caller's ids changed (-want +got):\n%s", diff)
	}
}
