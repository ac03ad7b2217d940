package cli

import (
	"bytes"
	"io"
	"strings"
	"sync"
)

// progress shows git's fetch progress on a terminal as one status line,
// each of git's updates (a line ended by \r or \n) redrawn in place and
// prefixed with its repository, so that the concurrent fetches of several
// repositories never interleave half lines. git's text (and the server's
// "remote:" lines in it) is escaped for the terminal, never interpreted.
type progress struct {
	mu    sync.Mutex
	w     io.Writer
	shown bool
}

func newProgress(w io.Writer) *progress { return &progress{w: w} }

// forRepository is the writer for one repository's git stderr.
func (p *progress) forRepository(repository string) io.Writer {
	return &repoProgress{p: p, prefix: repository + ": "}
}

// show redraws the status line (one Write, so the redactor sees it whole).
func (p *progress) show(line string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	io.WriteString(p.w, "\r\x1b[K"+escapeForTerminal(line))
	p.shown = true
}

// done clears the status line before the report is printed.
func (p *progress) done() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.shown {
		io.WriteString(p.w, "\r\x1b[K")
		p.shown = false
	}
}

type repoProgress struct {
	p       *progress
	prefix  string
	pending []byte
}

func (r *repoProgress) Write(b []byte) (int, error) {
	r.pending = append(r.pending, b...)
	for {
		i := bytes.IndexAny(r.pending, "\r\n")
		if i < 0 {
			return len(b), nil
		}
		if line := strings.TrimSpace(string(r.pending[:i])); line != "" {
			r.p.show(r.prefix + line)
		}
		r.pending = r.pending[i+1:]
	}
}

// progressWriter is where a status line is drawn: stderr without the
// terminal escaping (the line escapes its own text).
func (c *Context) progressWriter() io.Writer {
	if c.statusErr != nil {
		return c.statusErr
	}
	return c.Stderr
}
