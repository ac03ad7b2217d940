package redact

import "io"

// Writer redacts each Write before passing it on. Callers write whole
// messages (one Fprintf per line or block), so a secret is not split
// between two writes.
type Writer struct{ W io.Writer }

// Write writes String(p) and reports all of p written.
func (w Writer) Write(p []byte) (int, error) {
	if _, err := io.WriteString(w.W, String(string(p))); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Raw is the writer under any redacting Writer, for output that is
// redacted another way (JSON documents, see JSON).
func Raw(w io.Writer) io.Writer {
	for {
		r, ok := w.(Writer)
		if !ok {
			return w
		}
		w = r.W
	}
}
