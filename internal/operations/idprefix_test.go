package operations

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/git-context-tree/git-context-tree/contracts"
)

func TestResolvePrefix(t *testing.T) {
	ids := []string{"01a2-aaaa", "01a2-aabb", "01b0-cccc"}
	for _, c := range []struct {
		prefix, want string
		ambiguous    []string
	}{
		{prefix: "01a2-aaaa", want: "01a2-aaaa"},
		{prefix: "01a2-aab", want: "01a2-aabb"},
		{prefix: "01b0", want: "01b0-cccc"},
		{prefix: "01b", want: ""}, // too short to name anything
		{prefix: "ffff", want: ""},
		{prefix: "01a2", ambiguous: []string{"01a2-aaaa", "01a2-aabb"}},
	} {
		got, err := resolvePrefix(c.prefix, ids, "session")
		var ce *contracts.Error
		switch {
		case c.ambiguous != nil:
			if !errors.As(err, &ce) || ce.Code != contracts.CodeIDAmbiguous {
				t.Fatalf("%q: err = %v, want ID_AMBIGUOUS", c.prefix, err)
			}
			if diff := cmp.Diff(c.ambiguous, ce.Details["candidates"]); diff != "" {
				t.Errorf("%q candidates (-want +got):\n%s", c.prefix, diff)
			}
		case err != nil || got != c.want:
			t.Errorf("%q = %q, %v; want %q", c.prefix, got, err, c.want)
		}
	}
}
