package export

import (
	"runtime"
	"strings"
	"sync"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/redact"
	"github.com/git-context-tree/git-context-tree/internal/tree"
)

// Document is one tree document ready for export: its texts redacted, its
// body trimmed of surrounding blank lines, and its tokens counted.
type Document struct {
	Path        string // tree-relative
	Class       contracts.Class
	Depth       int
	Index       bool
	Title       string
	Description string
	SoftLinks   []string // as written, valid entries only
	Body        string
	Tokens      int // of Body
	Redactions  int // secrets masked in its title, description and body
	Order       int // position in tree order
	// Sources are the code the document cites, for the site's pages.
	Sources []Source
	// LLMS is the frontmatter's llms: optional or exclude ("" for none).
	LLMS string
}

// Optional reports a document llms.txt lists under "Optional" and a
// token budget leaves out first: member content, or llms: optional.
func (d Document) Optional() bool { return d.Member() || d.LLMS == "optional" }

// Source is one entry of a document's sources list as a page shows it:
// what it cites, the commit it records, its freshness (fresh or a drift
// status) with the number of commits that changed it, and where the code
// can be read on the web ("" when the repository has no known web home).
type Source struct {
	Path, Lines, Repository, Commit string
	Freshness                       string
	Changes                         int
	URL                             string
}

// Stale reports cited code that changed or went away since the document
// recorded it.
func (s Source) Stale() bool { return s.Freshness == "changed" || s.Freshness == "deleted" }

// Member reports whether the document is member content (llms.txt's
// "Optional" section; left out first under a token budget).
func (d Document) Member() bool { return d.Class == contracts.ClassMember }

// Domain is the top-level directory a document lies in, "" at the root.
func (d Document) Domain() string {
	first, _, ok := strings.Cut(d.Path, "/")
	if !ok {
		return ""
	}
	return first
}

// Prepare turns readable tree entries into documents: every text passes
// the redactor (a second time, after the one every CLI output gets) and
// the body is counted in c's tokens (unless c is nil), on every core. Unreadable entries are
// returned apart.
func Prepare(entries []tree.Entry, c *Counter) (docs []Document, unreadable []tree.Entry) {
	var readable []tree.Entry
	for _, e := range entries {
		if e.Unreadable != "" {
			unreadable = append(unreadable, e)
		} else {
			readable = append(readable, e)
		}
	}
	docs = make([]Document, len(readable))
	workers := min(runtime.GOMAXPROCS(0), len(readable)/16+1)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < len(readable); i += workers {
				docs[i] = prepare(readable[i], c)
				docs[i].Order = i
			}
		}()
	}
	wg.Wait()
	return docs, unreadable
}

func prepare(e tree.Entry, c *Counter) Document {
	title, n1 := redact.Counted(oneLine(e.Title))
	desc, n2 := redact.Counted(oneLine(e.Description))
	body, n3 := redact.Counted(trimBlankLines(e.Body))
	d := Document{
		Path: e.Path, Class: e.Class, Depth: e.Depth, Index: e.Index,
		Title: title, Description: desc, Body: body, Redactions: n1 + n2 + n3, LLMS: e.LLMS,
	}
	for _, sl := range e.SoftLinks {
		d.SoftLinks = append(d.SoftLinks, redact.String(sl))
	}
	if c != nil {
		d.Tokens = c.Count(body)
	}
	return d
}

// trimBlankLines drops blank lines before the first text and trailing
// whitespace, and ends non-empty text with one newline, so documents join
// with uniform spacing whatever their files end with.
func trimBlankLines(s string) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	for {
		line, rest, ok := strings.Cut(s, "\n")
		if !ok || strings.TrimSpace(line) != "" {
			break
		}
		s = rest
	}
	s = strings.TrimRight(s, " \t\n")
	if s == "" {
		return ""
	}
	return s + "\n"
}

// oneLine folds a metadata value onto one line (YAML block scalars keep
// their newlines).
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
