package cli

import (
	"fmt"
	"io"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/operations/exports"
	"github.com/git-context-tree/git-context-tree/internal/redact"
)

type serveCmd struct {
	Selector string `arg:"" optional:"" name:"selector" help:"The tree: a declared source's selector or a tree directory (default: as read chooses)."`
	Port     int    `name:"port" default:"0" placeholder:"<n>" help:"Port on 127.0.0.1 (default 0: any free port; the URL is printed)."`
}

func (cmd *serveCmd) Help() string {
	return `Builds the tree's site (as export site does) into a private temporary
directory and serves it on 127.0.0.1 only, printing its URL on stdout
(with --json: one object with url, once serving). Every second the tree's
files are looked at; when any changed, the site is rebuilt and replaced in
one step (a failed rebuild is reported on stderr and the previous site
stays). SIGINT or SIGTERM stops the server, removes the directory and
exits 0.`
}

// flush hands what stdout's buffer (cmd/git-context-tree) holds to the
// reader.
func flush(w io.Writer) {
	if f, ok := redact.Raw(w).(interface{ Flush() error }); ok {
		_ = f.Flush()
	}
}

// endsOnSignal: an interrupt is how serve is meant to end.
func (*serveCmd) endsOnSignal() bool { return true }

func (cmd *serveCmd) Run(c *Context) error {
	return exports.Serve(c, c.Env, exports.ServeRequest{
		Selector: cmd.Selector, Port: cmd.Port,
		Ready: func(r contracts.ServeResult) {
			if c.JSON {
				_ = c.writeJSON(r)
			} else {
				fmt.Fprintf(c.Stdout, "Serving %s at %s\n", countOf(r.Pages, "page"), r.URL)
				fmt.Fprintln(c.Stderr, "Rebuilt when the tree's files change; press Ctrl-C to stop.")
			}
			flush(c.Stdout) // the URL is wanted now, not when the buffer fills

		},
		Rebuilt: func(pages int, err error) {
			if err != nil {
				fmt.Fprintf(c.Stderr, "rebuild failed (the previous site is still served): %v\n", err)
				return
			}
			fmt.Fprintf(c.Stderr, "rebuilt: %s\n", countOf(pages, "page"))
		},
	})
}
