package tree

import (
	"fmt"
	"testing"
)

func TestResolveTarget(t *testing.T) {
	const (
		in  = TargetInside
		esc = TargetEscapes
		ext = TargetExternal
	)
	tests := []struct {
		dir, target string
		fromRoot    bool
		want        string
		verdict     TargetVerdict
	}{
		// Not paths in the tree.
		{"a", "https://example.com/x", false, "", ext},
		{"a", "HTTP://example.com", false, "", ext},
		{"a", "mailto:someone@example.com", false, "", ext},
		{"a", "tel:+123", false, "", ext},
		{"a", "git+ssh://host/repo", false, "", ext},
		{"a", "#section", false, "", ext},
		{"a", "?q=1", false, "", ext},
		{"a", "//host/path", false, "", ext},
		{"a", "", false, "", ext},
		{"a", "   ", false, "", ext},
		// Relative paths.
		{".", "b.md", false, "b.md", in},
		{"a", "b.md", false, "a/b.md", in},
		{"a", "./b.md", false, "a/b.md", in},
		{"a/b", "../c.md", false, "a/c.md", in},
		{"a", "..", false, ".", in},
		{"a", "../", false, ".", in},
		{"a", "b/", false, "a/b", in},
		{"a", "b.md#part", false, "a/b.md", in},
		{"a", "b.md?x=1#y", false, "a/b.md", in},
		{"a", "b%20c.md", false, "a/b c.md", in},
		{"a", "%zz.md", false, "a/%zz.md", in},
		{"a", " b.md ", false, "a/b.md", in},
		{"a", "b\\c.md", false, "a/b/c.md", in},
		{"a", "ab:y.md", false, "", ext}, // a URL scheme by RFC 3986
		// Root-relative.
		{"a/b", "/x.md", false, "x.md", in},
		{"a/b", "/", false, ".", in},
		{"a", "//", false, "", ext},
		{"a", "///x.md", false, "", ext},
		// Escapes.
		{".", "../x", false, "../x", esc},
		{".", "..", false, "..", esc},
		{"a", "../../x", false, "../x", esc},
		{".", "/../x", false, "../x", esc},
		{".", "a/../../x", false, "../x", esc},
		{"a/b", "../../../x", false, "../x", esc},
		{".", "%2e%2e/x", false, "../x", esc},
		{".", "%2E%2E%2Fx", false, "../x", esc},
		{".", "..%2fx", false, "../x", esc},
		{".", "..\\x", false, "../x", esc},
		{".", "a\\..\\..\\x", false, "../x", esc},
		{".", "\\x", false, "", esc},
		{".", "\\\\server\\share", false, "", esc},
		{".", "%5Cx", false, "", esc},
		{".", "C:/x", false, "", esc},
		{".", "C:\\x", false, "", esc},
		{".", "c:x", false, "", esc},
		{".", "C:", false, "", esc},
		{".", "x:y.md", false, "", esc}, // a one-letter scheme is a drive
		{".", "%43:/x", false, "", esc},
		{".", "/C:/Windows", false, "", esc},
		{".", "../x#frag", false, "../x", esc},
		// file: URLs name a machine location, never a tree path.
		{"a", "file:///etc/passwd", false, "", esc},
		{"a", "FILE:///etc/passwd", false, "", esc},
		{"a", "File://host/share/x.md", false, "", esc},
		{"a", "file://localhost/etc/passwd", false, "", esc},
		{"a", "file:/etc/passwd", false, "", esc},
		{"a", "file:notes.md", false, "", esc},
		{"a", "file:", false, "", esc},
		{"a", " file:x ", false, "", esc},
		{"a", "file:///C:/x", false, "", esc},
		{"a", "files:x", false, "", ext},
		{"a", "xfile:x", false, "", ext},
		{"a", "file.md", false, "a/file.md", in},
		{"a", "file/x.md", false, "a/file/x.md", in},
		// Soft links are always root-relative.
		{"a/b", "x.md", true, "x.md", in},
		{"a/b", "/x.md", true, "x.md", in},
		{"a/b", "c/../x.md", true, "x.md", in},
		{"a/b", "../x.md", true, "../x.md", esc},
		{"a/b", "/../x.md", true, "../x.md", esc},
		{"a/b", "https://x", true, "", ext},
		{"a/b", "file:///x.md", true, "", esc},
		{"a/b", "file:x.md", true, "", esc},
		{"a/b", "d/#frag", true, "d", in},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s|%s|%v", tt.dir, tt.target, tt.fromRoot), func(t *testing.T) {
			got, v := ResolveTarget(tt.dir, tt.target, tt.fromRoot)
			if got != tt.want || v != tt.verdict {
				t.Errorf("ResolveTarget(%q, %q, %v) = %q, %d; want %q, %d", tt.dir, tt.target, tt.fromRoot, got, v, tt.want, tt.verdict)
			}
		})
	}
}

// TestResolveTargetPlain: the shortcut for plain paths answers exactly as
// the full resolution does (on targets built from every kind of part),
// and takes nothing that needs resolving.
func TestResolveTargetPlain(t *testing.T) {
	parts := []string{"a", "b.md", "..", ".", "", "/", "//", "%2e", "#x", "?q", "#", `\`, "C:", " ", "é", "x y", "node_modules", "-", "_"}
	var targets []string
	for _, a := range parts {
		for _, b := range parts {
			for _, c := range parts {
				targets = append(targets, a+b+c, a+"/"+b+"/"+c, a+"/"+b+c)
			}
		}
	}
	plain := 0
	for _, target := range targets {
		if _, ok := resolvePlain("a", target, false); ok {
			plain++
		}
		for _, dir := range []string{".", "a", "a/b"} {
			for _, fromRoot := range []bool{false, true} {
				gotP, gotV := ResolveTarget(dir, target, fromRoot)
				wantP, wantV := resolveTarget(dir, target, fromRoot)
				if gotP != wantP || gotV != wantV {
					t.Errorf("ResolveTarget(%q, %q, %t) = %q, %v; full resolution %q, %v", dir, target, fromRoot, gotP, gotV, wantP, wantV)
				}
			}
		}
	}
	if plain == 0 || plain == len(targets) {
		t.Fatalf("%d of %d targets plain", plain, len(targets))
	}
	for _, target := range []string{"a/../b", "./a", "a/", "/a", "a//b", "a#x", "a%2e", "C:x", "a b", "é.md"} {
		if isPlainPath(target) {
			t.Errorf("isPlainPath(%q) = true", target)
		}
	}
}
