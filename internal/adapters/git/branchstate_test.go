package git

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseBranchState(t *testing.T) {
	for _, tc := range []struct {
		name string
		out  string
		want BranchState
	}{
		{"clean with upstream",
			"# branch.oid 736fc31c691be62121b2bd1636b234e9958ea9f3\x00# branch.head feat/x\x00# branch.upstream origin/feat/x\x00# branch.ab +2 -1\x00",
			BranchState{Head: "736fc31c691be62121b2bd1636b234e9958ea9f3", Branch: "feat/x", Upstream: "origin/feat/x", Ahead: 2, Behind: 1, HasCounts: true}},
		{"detached, dirty",
			"# branch.oid 736fc31c691be62121b2bd1636b234e9958ea9f3\x00# branch.head (detached)\x00? new file.md\x00",
			BranchState{Head: "736fc31c691be62121b2bd1636b234e9958ea9f3", Dirty: true}},
		{"unborn, upstream gone",
			"# branch.oid (initial)\x00# branch.head main\x00# branch.upstream origin/main\x00",
			BranchState{Branch: "main", Upstream: "origin/main"}},
	} {
		if diff := cmp.Diff(tc.want, parseBranchState([]byte(tc.out))); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.name, diff)
		}
	}
}
