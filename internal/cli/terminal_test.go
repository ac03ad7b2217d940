package cli

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzTerminalSafe: whatever a document, file name or agent writes, no
// C0 or C1 control (but tab and newline), DEL, bidirectional formatting
// character or stray 8-bit byte reaches a terminal, and text without them
// comes through unchanged.
func FuzzTerminalSafe(f *testing.F) {
	for _, seed := range []string{
		"plain text\n",
		"tab\there\n",
		"\x1b[2J\x1b]0;title\x07",
		"evil\u202egpj.md",
		"\u2066isolate\u2069 \u200e\u200f\u061c",
		"\x9b31m 8-bit CSI",
		"\xc2\x9b encoded C1",
		"caf\xc3\xa9 \xe2\x80",
		"\x7f\x00\r",
		"\ufffd literal replacement",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, in string) {
		var buf bytes.Buffer
		n, err := (safeWriter{&buf}).Write([]byte(in))
		if err != nil || n != len(in) {
			t.Fatalf("Write(%q) = %d, %v; want %d, nil", in, n, err, len(in))
		}
		out := buf.String()
		if !utf8.ValidString(out) {
			t.Fatalf("output %q of %q is not valid UTF-8", out, in)
		}
		for _, r := range out {
			if unsafeRune(r) {
				t.Fatalf("output %q of %q holds %U", out, in, r)
			}
		}
		if utf8.ValidString(in) && !strings.ContainsFunc(in, unsafeRune) && out != in {
			t.Fatalf("printable %q came out as %q", in, out)
		}
		if !strings.Contains(in, `\`) && utf8.ValidString(in) {
			// Every printable character of the input is kept, in order:
			// dropping the escapes gives back the input without its controls.
			kept := strings.Map(func(r rune) rune {
				if unsafeRune(r) {
					return -1
				}
				return r
			}, in)
			if got := dropEscapes(out); got != kept {
				t.Fatalf("printable text of %q: got %q, want %q", in, got, kept)
			}
		}
	})
}

// unsafeRune is the test's own list of what must not reach a terminal
// (independent of unsafeOnTerminal): C0 but tab and newline, DEL, C1, the
// bidirectional marks, embeddings, overrides and isolates.
func unsafeRune(r rune) bool {
	switch {
	case r == '\t' || r == '\n':
		return false
	case r < 0x20, r == 0x7f, r >= 0x80 && r < 0xa0:
		return true
	}
	switch r {
	case 0x061c, 0x200e, 0x200f, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069:
		return true
	}
	return false
}

// dropEscapes removes \xNN and \uNNNN escapes.
func dropEscapes(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		switch {
		case strings.HasPrefix(s[i:], `\x`) && i+4 <= len(s):
			i += 4
		case strings.HasPrefix(s[i:], `\u`) && i+6 <= len(s):
			i += 6
		default:
			b.WriteByte(s[i])
			i++
		}
	}
	return b.String()
}

func TestEscapeForTerminal(t *testing.T) {
	for in, want := range map[string]string{
		"ok é\n":         "ok é\n",
		"\x1b[31mred":    `\x1b[31mred`,
		"a\u202eb":       `a\u202eb`,
		"\x9b2J":         `\x9b2J`,
		"caf\xc3":        `caf\xc3`,
		"\ufffd is kept": "\ufffd is kept",
	} {
		if got := escapeForTerminal(in); got != want {
			t.Errorf("escapeForTerminal(%q) = %q, want %q", in, got, want)
		}
	}
}
