package git

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadHeadAgreesWithGit: HEAD and a branch read from the files, loose
// and packed, detached, and a ref moved as a file, as git itself sees them.
func TestReadHeadAgreesWithGit(t *testing.T) {
	for _, format := range []string{"sha1", "sha256"} {
		t.Run(format, func(t *testing.T) {
			r := newIndexRepo(t, "--object-format="+format, "--initial-branch=context-tree/x")
			r.write("a.md", "one\n")
			r.git("add", "-A")
			r.git("commit", "-q", "-m", "one")
			one := r.git("rev-parse", "HEAD")
			r.write("a.md", "two\n")
			r.git("commit", "-q", "-am", "two")
			two := r.git("rev-parse", "HEAD")
			gitDir := filepath.Join(r.dir, ".git")

			check := func(what, wantCommit, wantRef string) {
				t.Helper()
				commit, ref, err := ReadHead(gitDir)
				if err != nil || commit != wantCommit || ref != wantRef {
					t.Errorf("%s: ReadHead = %s %s %v, want %s %s", what, commit, ref, err, wantCommit, wantRef)
				}
			}
			check("loose", two, "refs/heads/context-tree/x")
			r.git("pack-refs", "--all")
			if _, err := os.Stat(filepath.Join(gitDir, "refs/heads/context-tree/x")); !os.IsNotExist(err) {
				t.Fatalf("pack-refs left the loose ref: %v", err)
			}
			check("packed", two, "refs/heads/context-tree/x")

			if err := SetLooseRef(gitDir, "refs/heads/context-tree/x", one, one); err == nil {
				t.Error("SetLooseRef moved a ref that was not at old")
			}
			if err := SetLooseRef(gitDir, "refs/heads/context-tree/x", one, two); err != nil {
				t.Fatal(err)
			}
			check("moved", one, "refs/heads/context-tree/x")
			if got := r.git("rev-parse", "HEAD"); got != one {
				t.Errorf("git sees HEAD at %s after SetLooseRef, want %s", got, one)
			}
			if out := r.git("for-each-ref", "--format=%(refname)"); out != "refs/heads/context-tree/x" {
				t.Errorf("refs after SetLooseRef: %q", out)
			}

			r.git("checkout", "-q", "--detach", two)
			check("detached", two, "HEAD")
			if _, err := ReadRef(gitDir, "refs/heads/missing"); err == nil {
				t.Error("ReadRef of a missing ref succeeded")
			}
			if _, err := ReadRef(gitDir, "refs/../../x"); err == nil {
				t.Error("ReadRef outside refs/ succeeded")
			}
		})
	}
}

// TestWriteLooseRefWritesThroughNoSymlink: a directory of refs that the
// session's owner replaced by a symlink is refused, and nothing is written
// where it points.
func TestWriteLooseRefWritesThroughNoSymlink(t *testing.T) {
	gitDir, elsewhere := t.TempDir(), t.TempDir()
	if err := os.MkdirAll(filepath.Join(gitDir, "refs", "remotes"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(elsewhere, filepath.Join(gitDir, "refs", "remotes", "home")); err != nil {
		t.Fatal(err)
	}
	id := strings.Repeat("a", 40)
	if err := WriteLooseRef(gitDir, "refs/remotes/home/main", id); err == nil {
		t.Error("WriteLooseRef wrote through a symlinked directory")
	}
	if entries, _ := os.ReadDir(elsewhere); len(entries) != 0 {
		t.Errorf("written where the symlink points: %v", entries)
	}
	if err := WriteLooseRef(gitDir, "refs/heads/context-tree/x", id); err != nil {
		t.Fatal(err)
	}
	if got, err := ReadRef(gitDir, "refs/heads/context-tree/x"); err != nil || got != id {
		t.Errorf("ReadRef = %s, %v", got, err)
	}
}
