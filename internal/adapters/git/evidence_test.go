package git

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestFirstParentLogAndHunks reads a small history with a rename, a
// deletion, a binary file, a file without a final newline and a merge.
func TestFirstParentLogAndHunks(t *testing.T) {
	r := newIndexRepo(t, "-b", "main")
	r.write("a.txt", "1\n2\n3\n4\n5\n")
	r.write("odd name\t.txt", "x")
	r.git("add", "-A")
	r.git("commit", "-q", "-m", "one")
	r.write("a.txt", "1\ntwo\n3\n4\n5\nsix\n")
	r.write("bin.dat", "a\x00b")
	r.write("odd name\t.txt", "y")
	r.git("add", "-A")
	r.git("commit", "-q", "-m", "two")
	r.git("mv", "a.txt", "b.txt")
	r.git("rm", "-q", "bin.dat")
	r.git("commit", "-q", "-m", "three")
	r.git("checkout", "-q", "-b", "side")
	r.write("side.txt", "s\n")
	r.git("add", "-A")
	r.git("commit", "-q", "-m", "side")
	r.git("checkout", "-q", "main")
	r.git("commit", "-q", "--allow-empty", "-m", "empty")
	r.git("merge", "-q", "--no-ff", "-m", "merge", "side")
	ids := strings.Fields(r.git("rev-list", "--first-parent", "HEAD"))

	g := New(os.Environ())
	repo := Repo{Dir: r.dir}
	var got []LogCommit
	if err := g.FirstParentLog(context.Background(), repo, "HEAD", func(c LogCommit) bool {
		got = append(got, c)
		return true
	}); err != nil {
		t.Fatal(err)
	}
	brief := func(cs []LogCommit) []string {
		var out []string
		for _, c := range cs {
			s := c.ID[:7] + ":"
			for _, ch := range c.Changes {
				s += " " + string(ch.Status) + " " + ch.From
				if ch.Path != ch.From {
					s += ">" + ch.Path
				}
			}
			out = append(out, s)
		}
		return out
	}
	want := []string{
		ids[0][:7] + ": A side.txt", // the merge, against its first parent
		ids[1][:7] + ":",            // empty
		ids[2][:7] + ": R a.txt>b.txt D bin.dat",
		ids[3][:7] + ": M a.txt A bin.dat M odd name\t.txt",
		ids[4][:7] + ": A a.txt A odd name\t.txt",
	}
	if diff := cmp.Diff(want, brief(got)); diff != "" {
		t.Errorf("log (-want +got):\n%s", diff)
	}
	// Stopping early ends git.
	n := 0
	if err := g.FirstParentLog(context.Background(), repo, "HEAD", func(LogCommit) bool { n++; return n < 2 }); err != nil || n != 2 {
		t.Errorf("stopped log: %v after %d", err, n)
	}

	hunks := map[string][]RawChange{}
	err := g.CommitHunks(context.Background(), repo, []CommitParent{{ids[3], ids[4]}, {ids[2], ids[3]}, {ids[4], ""}}, func(id string, chs []RawChange) error {
		hunks[id] = chs
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	two := hunks[ids[3]]
	if len(two) != 3 || two[0].Path != "a.txt" || two[1].Path != "bin.dat" || !two[1].Binary || two[2].Path != "odd name\t.txt" {
		t.Fatalf("commit two: %+v", two)
	}
	if diff := cmp.Diff([]Hunk{{2, 1, 2, 1}, {5, 0, 6, 1}}, two[0].Hunks); diff != "" {
		t.Errorf("a.txt hunks (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]Hunk{{1, 1, 1, 1}}, two[2].Hunks); diff != "" {
		t.Errorf("no final newline hunks (-want +got):\n%s", diff)
	}
	three := hunks[ids[2]]
	if len(three) != 2 || three[0].Status != 'R' || three[0].From != "a.txt" || three[0].Path != "b.txt" || len(three[0].Hunks) != 0 {
		t.Errorf("commit three: %+v", three)
	}
	if root := hunks[ids[4]]; len(root) != 2 || root[0].Hunks[0] != (Hunk{0, 0, 1, 5}) {
		t.Errorf("root commit: %+v", root)
	}
}
