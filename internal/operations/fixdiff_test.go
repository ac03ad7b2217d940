package operations

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestUnifiedDiff(t *testing.T) {
	old := "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\nl\nm\n"
	new := "a\nB\nc\nd\ne\nf\ng\nh\ni\nj\nk\nl\nm\nn"
	got := unifiedDiff("x.md", []byte(old), []byte(new), false)
	want := `--- a/x.md
+++ b/x.md
@@ -1,5 +1,5 @@
 a
-b
+B
 c
 d
 e
@@ -11,3 +11,4 @@
 k
 l
 m
+n
\ No newline at end of file
`
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	created := unifiedDiff("d/NODE.md", nil, []byte("x\ny\n"), true)
	if want := "--- /dev/null\n+++ b/d/NODE.md\n@@ -0,0 +1,2 @@\n+x\n+y\n"; created != want {
		t.Errorf("created:\n%s\nwant:\n%s", created, want)
	}
}

// TestUnifiedDiffApplies checks the diff with patch itself, when present.
func TestUnifiedDiffApplies(t *testing.T) {
	patch, err := exec.LookPath("patch")
	if err != nil {
		t.Skip("no patch program")
	}
	dir := t.TempDir()
	old := "---\ntitle: x\n---\n\nline\n" + "1\n2\n3\n4\n5\n6\n7\n8\n" + "end"
	new := "---\nschemaVersion: 1\ntitle: x\n---\n\nline\n" + "1\n2\n3\n4\n5\n6\n7\n8\n" + "end\n"
	if err := os.WriteFile(filepath.Join(dir, "f.md"), []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(patch, "-p1", "--quiet")
	cmd.Dir = dir
	cmd.Stdin = strings.NewReader(unifiedDiff("f.md", []byte(old), []byte(new), false))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("patch: %v\n%s", err, out)
	}
	got, _ := os.ReadFile(filepath.Join(dir, "f.md"))
	if string(got) != new {
		t.Errorf("patched = %q, want %q", got, new)
	}
}
