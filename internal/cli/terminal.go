package cli

import (
	"io"
	"os"

	"golang.org/x/term"

	"github.com/git-context-tree/git-context-tree/internal/redact"
)

// isTerminal reports whether w (under any redacting wrapper) is a terminal.
// Human niceties (aligned columns with a header, progress) appear only on a
// terminal; a pipe gets stable tab-separated lines and no progress.
func isTerminal(w io.Writer) bool {
	f, ok := redact.Raw(w).(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}
