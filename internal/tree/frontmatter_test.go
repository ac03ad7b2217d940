package tree

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseFrontmatterDelimiters(t *testing.T) {
	tests := []struct {
		name     string
		in       string
		body     string
		bodyLine int
		json     string
	}{
		{"plain", "---\ntitle: x\n---\nbody\n", "body\n", 4, `{"title":"x"}`},
		{"crlf delimiters and body", "---\r\ntitle: x\r\n---\r\nbody\r\nmore\r\n", "body\r\nmore\r\n", 4, `{"title":"x"}`},
		{"crlf opening lf closing", "---\r\ntitle: x\n---\nb", "b", 4, `{"title":"x"}`},
		{"bom", "\xef\xbb\xbf---\ntitle: x\n---\nb\n", "b\n", 4, `{"title":"x"}`},
		{"bom and crlf", "\xef\xbb\xbf---\r\ntitle: x\r\n---\r\n", "", 4, `{"title":"x"}`},
		{"closing at eof without newline", "---\ntitle: x\n---", "", 4, `{"title":"x"}`},
		{"closing crlf at eof without newline", "---\r\ntitle: x\r\n---\r", "", 4, `{"title":"x"}`},
		{"empty header", "---\n---\nbody", "body", 3, `{}`},
		{"empty header at eof", "---\n---", "", 3, `{}`},
		{"blank header", "---\n\n\n---\nb", "b", 5, `{}`},
		{"comment-only header", "---\n# nothing yet\n---\nb", "b", 4, `{}`},
		{"body without trailing newline", "---\na: 1\n---\nno newline", "no newline", 4, `{"a":1}`},
		{"body keeps later --- lines", "---\na: 1\n---\nx\n---\ny\n", "x\n---\ny\n", 4, `{"a":1}`},
		{"body keeps leading blank lines", "---\na: 1\n---\n\n\nx", "\n\nx", 4, `{"a":1}`},
		{"document end marker", "---\na: 1\n...\n---\nb", "b", 5, `{"a":1}`},
		{"multi-line header", "---\na: 1\nb:\n  - x\n  - y\nc: |\n  --- not a delimiter\n---\nbody", "body", 9, `{"a":1,"b":["x","y"],"c":"--- not a delimiter\n"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fm, err := ParseFrontmatter([]byte(tt.in))
			if err != nil {
				t.Fatalf("ParseFrontmatter: %v", err)
			}
			if fm.Body == nil {
				t.Errorf("Body is nil; want a non-nil (possibly empty) body")
			}
			if diff := cmp.Diff(tt.body, string(fm.Body)); diff != "" {
				t.Errorf("body (-want +got):\n%s", diff)
			}
			if !strings.HasSuffix(tt.in, string(fm.Body)) {
				t.Errorf("body is not a suffix of the input")
			}
			if fm.BodyLine != tt.bodyLine {
				t.Errorf("BodyLine = %d, want %d", fm.BodyLine, tt.bodyLine)
			}
			js, err := MappingJSON(fm.Mapping)
			if err != nil {
				t.Fatalf("MappingJSON: %v", err)
			}
			if diff := cmp.Diff(tt.json, string(js)); diff != "" {
				t.Errorf("json (-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseFrontmatterNone(t *testing.T) {
	for _, in := range []string{
		"",
		"# Title\n\nNo header.\n",
		"--- \ntitle: x\n---\n",  // trailing space
		"---\t\ntitle: x\n---\n", // trailing tab
		" ---\ntitle: x\n---\n",  // leading space
		"----\ntitle: x\n----\n", // four dashes
		"--\n",
		"---x\n",
		"---\r\r\ntitle: x\n---\n",      // only one CR is a line ending
		"\n---\ntitle: x\n---\n",        // not the first line
		"\xef\xbb\xbf\xef\xbb\xbf---\n", // two BOMs
		"---\rtitle: x\r---\r",          // old Mac line endings: one line
	} {
		t.Run(fmt.Sprintf("%q", in), func(t *testing.T) {
			_, err := ParseFrontmatter([]byte(in))
			if !errors.Is(err, errNoFrontmatter) {
				t.Fatalf("err = %v, want errNoFrontmatter", err)
			}
		})
	}
}

func TestParseFrontmatterErrors(t *testing.T) {
	tests := []struct {
		name string
		in   string
		line int
		msg  string // substring of the message
	}{
		{"unterminated", "---\ntitle: x\nbody\n", 1, "no closing"},
		{"only opening", "---", 1, "no closing"},
		{"only opening line", "---\n", 1, "no closing"},
		{"closing with trailing space is not closing", "---\ntitle: x\n--- \n", 1, "no closing"},
		{"scalar header", "---\nhello\n---\n", 2, "mapping"},
		{"null header", "---\nnull\n---\n", 2, "mapping"},
		{"list header", "---\n- a\n- b\n---\n", 2, "mapping"},
		{"flow list header", "---\n[a, b]\n---\n", 2, "mapping"},
		{"duplicate top-level key", "---\ntitle: a\nother: 1\ntitle: b\n---\n", 4, `duplicate frontmatter key "title"`},
		{"duplicate quoted key", "---\ntitle: a\n\"title\": b\n---\n", 3, "duplicate"},
		{"duplicate nested key", "---\na:\n  b: 1\n  b: 2\n---\n", 4, `duplicate frontmatter key "b"`},
		{"duplicate key in list item", "---\na:\n  - {x: 1, x: 2}\n---\n", 3, "duplicate"},
		{"sequence key", "---\n? [a, b]\n: 1\n---\n", 2, "scalar"},
		{"mapping key", "---\n? {a: 1}\n: 1\n---\n", 2, "scalar"},
		{"alias key", "---\na: &k key\n*k : 1\n---\n", 3, "scalar"},
		{"invalid utf-8 value", "---\ntitle: x\nd: \xff\n---\n", 3, "UTF-8"},
		{"invalid utf-8 key", "---\n\xc3: 1\n---\n", 2, "UTF-8"},
		{"yaml syntax error has a file line", "---\ntitle: x\nbroken\n---\n", 3, "could not find expected ':'"},
		{"unclosed flow", "---\na: [\n---\n", 0, "not valid YAML"},
		{"tab indentation", "---\n\tx: 1\n---\n", 0, "not valid YAML"},
		{"unknown alias", "---\na: *nope\n---\n", 0, "unknown anchor"},
		{"second document hidden by trailing space", "---\na: 1\n--- \nb: 2\n---\nbody", 3, "single YAML document"},
		{"second document after end marker", "---\na: 1\n...\nb: 2\n---\n", 0, "document start"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseFrontmatter([]byte(tt.in))
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("err = %v (%T), want *ParseError", err, err)
			}
			if tt.line != 0 && pe.Line != tt.line {
				t.Errorf("Line = %d, want %d (%s)", pe.Line, tt.line, pe.Msg)
			}
			if !strings.Contains(pe.Msg, tt.msg) {
				t.Errorf("Msg = %q, want it to contain %q", pe.Msg, tt.msg)
			}
		})
	}
}

func TestParseFrontmatterDeepNesting(t *testing.T) {
	for _, depth := range []int{150, 20000} {
		in := "---\na: " + strings.Repeat("[", depth) + strings.Repeat("]", depth) + "\n---\n"
		_, err := ParseFrontmatter([]byte(in))
		var pe *ParseError
		if !errors.As(err, &pe) {
			t.Errorf("depth %d: err = %v, want *ParseError", depth, err)
		}
	}
}

func TestMappingJSONValues(t *testing.T) {
	in := "---\n" +
		"zeta: 1\n" +
		"alpha: two\n" +
		"nested: {b: 1, a: [x, 2.5, true, null]}\n" +
		"date: 2024-01-02\n" +
		"stamp: 2001-12-14t21:59:43.10-05:00\n" +
		"nan: .nan\n" +
		"neginf: -.inf\n" +
		"hex: 0x1F\n" +
		"octal: 0o17\n" +
		"big: 18446744073709551615\n" +
		"huge: 123456789012345678901234567890\n" +
		"exp: 1e3\n" +
		"negzero: -0.0\n" +
		"quoted: \"1\"\n" +
		"yes: yes\n" +
		"empty:\n" +
		"tilde: ~\n" +
		"off: false\n" +
		"html: \"<a & b>\"\n" +
		"custom: !thing value\n" +
		"badint: !!int abc\n" +
		"multi: |\n  line one\n  line two\n" +
		"1: numeric key\n" +
		"---\n"
	want := `{"zeta":1,"alpha":"two","nested":{"b":1,"a":["x",2.5,true,null]},` +
		`"date":"2024-01-02","stamp":"2001-12-14t21:59:43.10-05:00","nan":".nan","neginf":"-.inf",` +
		`"hex":31,"octal":15,"big":18446744073709551615,"huge":1.2345678901234568e+29,"exp":1000,"negzero":-0,` +
		`"quoted":"1","yes":"yes","empty":null,"tilde":null,"off":false,"html":"\u003ca \u0026 b\u003e",` +
		`"custom":"value","badint":"abc","multi":"line one\nline two\n","1":"numeric key"}`
	fm, err := ParseFrontmatter([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	got, err := MappingJSON(fm.Mapping)
	if err != nil {
		t.Fatal(err)
	}
	if !json.Valid(got) {
		t.Fatalf("invalid JSON: %s", got)
	}
	if diff := cmp.Diff(want, string(got)); diff != "" {
		t.Errorf("MappingJSON (-want +got):\n%s", diff)
	}
}

func TestMappingJSONAliases(t *testing.T) {
	fm, err := ParseFrontmatter([]byte("---\nbase: &b {x: 1, y: [a]}\nother: *b\nname: &n Alice\nowner: *n\n---\n"))
	if err != nil {
		t.Fatal(err)
	}
	got, err := MappingJSON(fm.Mapping)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"base":{"x":1,"y":["a"]},"other":{"x":1,"y":["a"]},"name":"Alice","owner":"Alice"}`
	if diff := cmp.Diff(want, string(got)); diff != "" {
		t.Errorf("MappingJSON (-want +got):\n%s", diff)
	}
}

// aliasBomb is a header whose aliases expand to 10^levels values.
func aliasBomb(levels int) string {
	var b strings.Builder
	b.WriteString("---\ntitle: Bomb\na0: &a0 [x, x, x, x, x, x, x, x, x, x]\n")
	for i := 1; i < levels; i++ {
		fmt.Fprintf(&b, "a%d: &a%d [", i, i)
		for j := range 10 {
			if j > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "*a%d", i-1)
		}
		b.WriteString("]\n")
	}
	b.WriteString("---\nBody.\n")
	return b.String()
}

// An alias bomb parses (aliases are not expanded) but rendering it is
// bounded and fails instead of exhausting memory.
func TestMappingJSONAliasBomb(t *testing.T) {
	fm, err := ParseFrontmatter([]byte(aliasBomb(10)))
	if err != nil {
		t.Fatalf("ParseFrontmatter: %v", err)
	}
	_, err = MappingJSON(fm.Mapping)
	var pe *ParseError
	if !errors.As(err, &pe) {
		t.Fatalf("MappingJSON err = %v, want a bounded *ParseError", err)
	}
}

// A large header without aliases is not mistaken for an alias bomb.
func TestMappingJSONLargeHeader(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	b.WriteString("---\ntitle: many\nsoft_links:\n")
	for i := range 30000 {
		fmt.Fprintf(&b, "  - d/%d.md\n", i)
	}
	b.WriteString("---\n")
	fm, err := ParseFrontmatter([]byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	got, err := MappingJSON(fm.Mapping)
	if err != nil {
		t.Fatalf("MappingJSON: %v", err)
	}
	if !json.Valid(got) {
		t.Fatal("invalid JSON")
	}
}
