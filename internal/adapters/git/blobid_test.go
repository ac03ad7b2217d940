package git

import (
	"bytes"
	"os/exec"
	"strings"
	"testing"
)

// TestIsBlobContent: a content is its blob exactly when git names it so
// (`git hash-object`), in SHA-1 and SHA-256 repositories; a byte changed,
// added or dropped, or an id that is not one, are not.
func TestIsBlobContent(t *testing.T) {
	t.Parallel()
	contents := [][]byte{
		nil,
		[]byte("---\ntitle: A\n---\n\nBody.\n"),
		[]byte("crlf\r\nand a NUL \x00 inside\r\n"),
		bytes.Repeat([]byte("0123456789abcdef"), 8<<10),
	}
	ids := map[string][]string{}
	for _, format := range []string{"sha1", "sha256"} {
		r := newIndexRepo(t, "--object-format="+format)
		for _, c := range contents {
			cmd := exec.Command("git", "hash-object", "--stdin")
			cmd.Dir, cmd.Env, cmd.Stdin = r.dir, r.env, bytes.NewReader(c)
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("git hash-object: %v", err)
			}
			ids[format] = append(ids[format], strings.TrimSpace(string(out)))
		}
	}
	for format, list := range ids {
		for i, id := range list {
			c := contents[i]
			if !IsBlobContent(id, c) {
				t.Errorf("%s: IsBlobContent(%s, content %d) = false; git names it so", format, id, i)
			}
			changed := [][]byte{append(bytes.Clone(c), '\n')}
			if len(c) > 0 {
				flipped := bytes.Clone(c)
				flipped[len(c)/2] ^= 1
				changed = append(changed, flipped, c[:len(c)-1])
			}
			for k, d := range changed {
				if IsBlobContent(id, d) {
					t.Errorf("%s: IsBlobContent(%s, content %d changed %d) = true", format, id, i, k)
				}
			}
			for _, bad := range []string{id[:len(id)-2], id + "00", "", "zz" + id[2:]} {
				if IsBlobContent(bad, c) {
					t.Errorf("%s: IsBlobContent(%q, content %d) = true", format, bad, i)
				}
			}
		}
	}
}
