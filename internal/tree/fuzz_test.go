package tree

import (
	"bytes"
	"encoding/json"
	"errors"
	"path"
	"strings"
	"testing"
)

func FuzzParseFrontmatter(f *testing.F) {
	for _, s := range []string{
		"",
		"---",
		"---\n---\n",
		"---\ntitle: x\n---\nbody\n",
		"---\r\ntitle: x\r\n---\r\nbody\r\n",
		"\xef\xbb\xbf---\ntitle: x\n---",
		"--- \ntitle: x\n---\n",
		"---\ntitle: x\n",
		"---\n- a\n---\n",
		"---\nhello\n---\n",
		"---\na: 1\na: 2\n---\n",
		"---\na: {b: 1, b: 2}\n---\n",
		"---\n? [a]\n: 1\n---\n",
		"---\nd: \xff\n---\n",
		"---\na: 1\n--- \nb: 2\n---\n",
		"---\na: &a [x, x]\nb: &b [*a, *a]\nc: [*b, *b]\n---\n",
		"---\nt: 2024-01-02\nn: .nan\ni: .inf\nh: 0x1F\nf: 1e3\nz: ~\nb: true\nbig: 18446744073709551616\n---\n",
		"---\ns: !custom x\nm: |\n  multi\n  line\nk: !!binary aGk=\n---\n",
		"---\n<<: {a: 1}\nx: *nope\n---\n",
		"---\n\"\\u0000\": \"\\ud800\"\n---\n",
		"---\na: [[[[[[[[[[[[]]]]]]]]]]]]\n---\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		fm, err := ParseFrontmatter(data)
		if err != nil {
			var pe *ParseError
			if !errors.Is(err, errNoFrontmatter) && !errors.As(err, &pe) {
				t.Fatalf("unexpected error type %T: %v", err, err)
			}
			return
		}
		if !bytes.HasSuffix(data, fm.Body) {
			t.Fatalf("body %q is not a suffix of the input", fm.Body)
		}
		if fm.BodyLine < 3 {
			t.Fatalf("BodyLine = %d; a header takes at least two lines", fm.BodyLine)
		}
		prefix := data[:len(data)-len(fm.Body)]
		if got := bytes.Count(prefix, []byte("\n")) + 1; got != fm.BodyLine && len(fm.Body) > 0 {
			t.Fatalf("BodyLine = %d, but the body starts on line %d", fm.BodyLine, got)
		}
		js, err := MappingJSON(fm.Mapping)
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("MappingJSON error type %T: %v", err, err)
			}
			return
		}
		if !json.Valid(js) {
			t.Fatalf("MappingJSON produced invalid JSON: %s", js)
		}
		var obj map[string]any
		if err := json.Unmarshal(js, &obj); err != nil {
			t.Fatalf("MappingJSON is not an object: %s", js)
		}
		ParseDocument("a.md", data, false) // never panics
		ParseDocument("NODE.md", data, true)
	})
}

func FuzzResolveTarget(f *testing.F) {
	for _, s := range []string{
		"", "#x", "?q", "//host/x", "https://e.com/a", "mailto:a@b", "a.md", "./a/../b.md",
		"../x", "/../x", "a/../../x", "%2e%2e/x", "..%2F..%2Fx", "..\\x", "\\x", "\\\\srv\\s",
		"C:/x", "C:\\x", "c:", "/C:/x", "%43%3A/x", "/", "///", "a/b/c/#f?q", "%zz", "%", "..",
		"...", "..a", "a\x00b", " ../x ", "\t/x", "a:b", "ab:c", "%5c..%5cx",
		"file:///etc/x", "FILE://host/x", "file:x", "File:", "fil:x",
	} {
		f.Add("a/b", s, false)
		f.Add(".", s, true)
	}
	f.Fuzz(func(t *testing.T, dir, target string, fromRoot bool) {
		dir = cleanDir(dir)
		p, v := ResolveTarget(dir, target, fromRoot)
		switch v {
		case TargetInside:
			if p == "" || path.Clean(p) != p || strings.HasPrefix(p, "/") {
				t.Fatalf("inside result %q is not a clean relative path", p)
			}
			if p == ".." || strings.HasPrefix(p, "../") {
				t.Fatalf("inside result %q leaves the tree", p)
			}
			if strings.Contains(p, `\`) {
				t.Fatalf("inside result %q has a backslash", p)
			}
		case TargetEscapes:
			if p != "" && p != ".." && !strings.HasPrefix(p, "../") {
				t.Fatalf("escaping result %q does not leave the tree", p)
			}
		case TargetExternal:
			if p != "" {
				t.Fatalf("external result has a path %q", p)
			}
		default:
			t.Fatalf("unknown verdict %d", v)
		}
		// Whether a target is local at all does not depend on where it is
		// written, and from the root a relative target means the same
		// either way.
		_, vr := ResolveTarget(".", target, true)
		if (v == TargetExternal) != (vr == TargetExternal) {
			t.Fatalf("external verdict differs: %d from %q vs %d from the root", v, dir, vr)
		}
		if dir == "." {
			p2, v2 := ResolveTarget(".", target, !fromRoot)
			if p2 != p || v2 != v {
				t.Fatalf("from the root, fromRoot changes %q: (%q,%d) vs (%q,%d)", target, p, v, p2, v2)
			}
		}
		// Writing the target from deeper inside never makes an escaping
		// root-relative resolution stay inside.
		if vr == TargetEscapes && (fromRoot || strings.HasPrefix(strings.TrimSpace(target), "/")) && v != TargetEscapes {
			t.Fatalf("root-relative %q escapes from the root but not from %q", target, dir)
		}
	})
}

// cleanDir turns fuzz input into a plausible document directory: clean,
// relative and inside the tree.
func cleanDir(dir string) string {
	d := path.Clean("./" + strings.ReplaceAll(dir, `\`, "/"))
	if d == ".." || strings.HasPrefix(d, "../") || strings.HasPrefix(d, "/") {
		return "."
	}
	return d
}
