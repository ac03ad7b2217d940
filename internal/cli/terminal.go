package cli

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"golang.org/x/term"

	"github.com/git-context-tree/git-context-tree/internal/redact"
)

// isTerminal reports whether w (under any redacting wrapper) is a terminal.
// Human niceties (aligned columns with a header, progress) appear only on a
// terminal; a pipe gets stable tab-separated lines and no progress. A
// writer that wraps a file (the binary's buffered stdout, its stderr that
// flushes stdout first) says which by an Fd method, as *os.File does.
func isTerminal(w io.Writer) bool {
	f, ok := redact.Raw(w).(interface{ Fd() uintptr })
	return ok && term.IsTerminal(int(f.Fd()))
}

// terminalSafe is w, escaped for a terminal when w is one: text from
// documents, file names and agents' output must not move the cursor,
// change colours, rewrite lines or reorder what is shown. C0 and C1
// control characters (but tab and newline), DEL and the bidirectional
// formatting characters are written as Go escapes (\x1b, \u202e). A pipe
// or file gets the bytes unchanged, as does --json output (not wrapped).
func terminalSafe(w io.Writer) io.Writer {
	if !isTerminal(w) {
		return w
	}
	return safeWriter{w}
}

type safeWriter struct{ w io.Writer }

func (s safeWriter) Write(p []byte) (int, error) {
	if _, err := io.WriteString(s.w, escapeForTerminal(string(p))); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Fd and Flush reach the writer underneath (isTerminal, flushing).
func (s safeWriter) Fd() uintptr {
	if f, ok := s.w.(interface{ Fd() uintptr }); ok {
		return f.Fd()
	}
	return ^uintptr(0)
}

func (s safeWriter) Flush() error {
	if f, ok := s.w.(interface{ Flush() error }); ok {
		return f.Flush()
	}
	return nil
}

// escapeForTerminal escapes what a terminal would act on. A byte that is
// not part of valid UTF-8 is escaped too (\x9b): a terminal reading 8-bit
// controls would take a lone 0x9b for CSI. Writes carry whole strings, so
// a character is never split across two of them.
func escapeForTerminal(s string) string {
	clean := true
	for i, r := range s {
		if unsafeOnTerminal(r) || (r == utf8.RuneError && invalidAt(s, i)) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i, r := range s {
		switch {
		case r == utf8.RuneError && invalidAt(s, i):
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case !unsafeOnTerminal(r):
			b.WriteRune(r)
		case r < 0x100:
			fmt.Fprintf(&b, `\x%02x`, r)
		default:
			fmt.Fprintf(&b, `\u%04x`, r)
		}
	}
	return b.String()
}

// invalidAt reports whether the rune starting at s[i] is an invalid byte
// rather than an encoded U+FFFD.
func invalidAt(s string, i int) bool {
	_, size := utf8.DecodeRuneInString(s[i:])
	return size == 1
}

func unsafeOnTerminal(r rune) bool {
	switch {
	case r == '\n' || r == '\t':
		return false
	case r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f):
		return true
	case r == 0x061c || r == 0x200e || r == 0x200f || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069):
		return true
	}
	return false
}
