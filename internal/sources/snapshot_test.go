package sources

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestSnapshotResolution: a snapshot's tree resolves from what sync
// recorded, with every fact S7 lists that is available: the repository
// root, the subtree, the source's branch, HEAD (detached: there is no
// .git) and clean.
func TestSnapshotResolution(t *testing.T) {
	const commit = "0123456789abcdef0123456789abcdef01234567"
	path := "/s/snapshots/acme/handbook/" + commit
	for _, c := range []struct {
		name, treeRoot, subtree string
	}{
		{"subtree", path + "/teams/platform", "teams/platform"},
		{"whole repository", path, "."},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := &Snapshot{Repository: "acme/handbook", Branch: "feature/x", Commit: commit, Path: path, TreeRoot: c.treeRoot}
			want := &DirectoryResolution{ContentRoot: c.treeRoot, RepositoryRoot: path, Subtree: c.subtree,
				Branch: "feature/x", Detached: true, Head: commit}
			if diff := cmp.Diff(want, s.Resolution()); diff != "" {
				t.Errorf("Resolution (-want +got):\n%s", diff)
			}
		})
	}
}
