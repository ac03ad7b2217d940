package cli

import (
	"io"

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
