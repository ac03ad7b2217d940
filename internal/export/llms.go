package export

import (
	"fmt"
	"net/url"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"

	"github.com/git-context-tree/git-context-tree/internal/redact"
)

// LLMSOptions says how to render llms.txt and llms-full.txt.
type LLMSOptions struct {
	Title   string // the root NODE.md's title
	Summary string // one line: the root description or first paragraph
	// Link turns a document's tree path into its link in llms.txt.
	Link func(path string) string
	// MaxTokens caps llms-full.txt (0: no cap).
	MaxTokens int
	Counter   *Counter
	// Exclude are path patterns (path.Match, on tree paths; a pattern
	// naming a directory excludes what is below it) left out of both
	// files, beside the documents whose frontmatter says llms: exclude.
	Exclude []string
}

// LLMS is the rendered pair.
type LLMS struct {
	Index       []byte // llms.txt
	Full        []byte // llms-full.txt
	IndexTokens int
	FullTokens  int
	// Included and Omitted are the documents llms-full.txt carries and
	// the ones --max-tokens left out, both in tree order.
	Included, Omitted []Document
}

// RenderLLMS renders both files from docs in tree order (Order).
func RenderLLMS(docs []Document, o LLMSOptions) (*LLMS, error) {
	docs = llmsOrder(slices.DeleteFunc(slices.Clone(docs), func(d Document) bool { return d.LLMS == "exclude" || excluded(d.Path, o.Exclude) }))
	index := redact.String(renderIndex(docs, o)) // paths and links too
	out := &LLMS{Index: []byte(index), IndexTokens: o.Counter.Count(index)}
	included, omitted := docs, []Document(nil)
	full, n := renderFull(included, omitted, o)
	if o.MaxTokens > 0 && n > o.MaxTokens {
		included, omitted = fitBudget(docs, o)
		full, n = renderFull(included, omitted, o)
	}
	if o.MaxTokens > 0 && n > o.MaxTokens {
		return nil, budgetTooSmall(o.MaxTokens, n)
	}
	out.Full, out.FullTokens, out.Included, out.Omitted = []byte(full), n, included, omitted
	return out, nil
}

// ExportOrder is tree order with member content moved to the end, where
// llms.txt's "Optional" section puts it: the same order in every output.
func ExportOrder(docs []Document) []Document {
	docs = slices.Clone(docs)
	slices.SortStableFunc(docs, func(a, b Document) int {
		switch {
		case a.Member() == b.Member():
			return a.Order - b.Order
		case a.Member():
			return 1
		default:
			return -1
		}
	})
	return docs
}

// llmsOrder is tree order with the optional documents (member content,
// llms: optional) at the end, where llms.txt's "Optional" section is.
func llmsOrder(docs []Document) []Document {
	docs = slices.Clone(docs)
	slices.SortStableFunc(docs, func(a, b Document) int {
		switch {
		case a.Optional() == b.Optional():
			return a.Order - b.Order
		case a.Optional():
			return 1
		default:
			return -1
		}
	})
	return docs
}

// excluded reports a tree path matched by a pattern, itself or through a
// directory above it.
func excluded(p string, patterns []string) bool {
	for _, pat := range patterns {
		for q := p; q != "." && q != "/"; q = path.Dir(q) {
			if ok, _ := path.Match(pat, q); ok {
				return true
			}
		}
	}
	return false
}

// renderIndex is llms.txt: title, summary, the root's documents, one
// section per top-level directory, and member content under "Optional".
func renderIndex(docs []Document, o LLMSOptions) string {
	var b strings.Builder
	writeHead(&b, o)
	section := "\x00" // no section yet
	for _, d := range docs {
		name := d.Domain()
		if d.Optional() {
			name = "\x01optional"
		}
		if name != section {
			section = name
			b.WriteString("\n")
			switch {
			case d.Optional():
				b.WriteString("## Optional\n\n")
			case name != "":
				fmt.Fprintf(&b, "## %s\n\n", domainTitle(docs, name))
			}
		}
		fmt.Fprintf(&b, "- [%s](%s)", linkText(d.Title), o.Link(d.Path))
		if d.Description != "" {
			fmt.Fprintf(&b, ": %s", d.Description)
		}
		b.WriteString("\n")
	}
	return b.String()
}

func writeHead(b *strings.Builder, o LLMSOptions) {
	fmt.Fprintf(b, "# %s\n", oneLine(o.Title))
	if o.Summary != "" {
		fmt.Fprintf(b, "\n> %s\n", o.Summary)
	}
}

// domainTitle is the title of a top-level directory's NODE.md, or its name.
func domainTitle(docs []Document, dir string) string {
	for _, d := range docs {
		if d.Path == dir+"/NODE.md" {
			return d.Title
		}
	}
	return dir
}

// linkText escapes what would end a link's text early.
func linkText(s string) string {
	return strings.NewReplacer(`\`, `\\`, `[`, `\[`, `]`, `\]`).Replace(s)
}

// RelativeLink links a tree path from prefix ("" or "dir/…/"), escaping
// each segment so spaces and parentheses keep the link whole.
func RelativeLink(prefix string) func(string) string {
	return func(p string) string {
		segs := strings.Split(prefix+p, "/")
		for i, s := range segs {
			if s != ".." {
				segs[i] = url.PathEscape(s)
			}
		}
		return strings.Join(segs, "/")
	}
}

// BaseURLLink links a tree path under a published site's base URL.
func BaseURLLink(base string) func(string) string {
	base = strings.TrimSuffix(base, "/")
	rel := RelativeLink("")
	return func(p string) string { return base + "/" + rel(p) }
}

// renderFull is llms-full.txt with its token count stated in its own
// comment line; n is that count, the tokens of the whole file. The file is
// counted once, with 0 stated: the number is a piece of its own in every
// encoding's pre-tokenisation (between "documents," and " tokens"), so
// stating another one changes only that piece's count. Counts only grow
// with the digits, so the fixed point is reached in a few rounds.
func renderFull(included, omitted []Document, o LLMSOptions) (text string, n int) {
	base := o.Counter.Count(fullText(included, omitted, o, 0)) - o.Counter.Count(statedTotal(0))
	for range 8 {
		got := base + o.Counter.Count(statedTotal(n))
		if got == n {
			break
		}
		n = got
	}
	return fullText(included, omitted, o, n), n
}

func statedTotal(n int) string { return fmt.Sprintf(", %d tokens", n) }

func fullText(included, omitted []Document, o LLMSOptions, total int) string {
	var b strings.Builder
	writeHead(&b, o)
	fmt.Fprintf(&b, "\n<!-- llms-full.txt: %s%s (%s); tree order, frontmatter removed; generated by git-context-tree export llms -->\n",
		plural(len(included), "document"), statedTotal(total), o.Counter.Encoding)
	for _, d := range included {
		b.WriteString(docSection(d))
	}
	if len(omitted) > 0 {
		b.WriteString(omittedNote(omitted, o.MaxTokens))
	}
	return b.String()
}

// docSection is one document of llms-full.txt, introduced by its path,
// title and token count.
func docSection(d Document) string {
	s := fmt.Sprintf("\n---\n\nPath: %s\nTitle: %s\nTokens: %d\n", linePath(d.Path), d.Title, d.Tokens)
	if d.Body != "" {
		s += "\n" + d.Body
	}
	return s
}

// omittedNote closes a capped llms-full.txt, naming every document left out.
func omittedNote(omitted []Document, max int) string {
	tokens := 0
	for _, d := range omitted {
		tokens += d.Tokens
	}
	var b strings.Builder
	b.WriteString(noteHeader(max, len(omitted), tokens))
	for _, d := range omitted {
		b.WriteString(noteLine(d))
	}
	return b.String()
}

func noteHeader(max, docs, tokens int) string {
	return fmt.Sprintf("\n---\n\nLeft out to stay within %d tokens (--max-tokens): %s of %d tokens. Read them in the tree or in llms.txt:\n\n",
		max, plural(docs, "document"), tokens)
}

// linePath keeps a path on its line: one holding a control character (a
// newline in a file name) is written Go-quoted, as verify prints it. Like
// every exported text it passes the redactor.
func linePath(p string) string {
	if strings.IndexFunc(p, unicode.IsControl) >= 0 {
		p = strconv.Quote(p)
	}
	return redact.String(p)
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// Summary is llms.txt's one-line summary: the root's description, else
// the first paragraph of prose in its body (headings, lists, quotes,
// tables, code and HTML are not prose), with links reduced to their text
// so no link in llms.txt is relative to anything but the output; "" when
// there is none.
func Summary(root Document) string {
	if root.Description != "" {
		return root.Description
	}
	var para []string
	fence := ""
	for _, line := range strings.Split(root.Body+"\n", "\n") {
		t := strings.TrimSpace(line)
		switch {
		case fence != "":
			if strings.HasPrefix(t, fence) {
				fence = ""
			}
			continue
		case strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~"):
			fence = t[:3]
			para = nil
			continue
		case t == "":
			if len(para) > 0 {
				return oneLine(linkTexts(strings.Join(para, " ")))
			}
			continue
		case len(para) == 0 && !prose(line):
			continue
		}
		if len(para) > 0 || prose(line) {
			para = append(para, t)
		}
	}
	return ""
}

// prose reports a line that begins a paragraph of text.
func prose(line string) bool {
	if strings.HasPrefix(line, "    ") || strings.HasPrefix(line, "\t") {
		return false // indented code
	}
	t := strings.TrimSpace(line)
	for _, p := range []string{"#", "- ", "* ", "+ ", ">", "|", "<", "![", "[[", "---", "==="} {
		if strings.HasPrefix(t, p) {
			return false
		}
	}
	return !orderedItem().MatchString(t) && !linkOnly().MatchString(t)
}

var (
	orderedItem = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[0-9]+[.)] `) })
	linkOnly    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\[[^\]]*\]\([^)]*\)[.:;,]?$`) })
	mdLink      = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`!?\[([^\]]*)\](\([^)]*\)|\[[^\]]*\])`) })
	wikiLink    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\[\[([^\]|#]*)(#[^\]|]*)?(\|([^\]]*))?\]\]`) })
)

// linkTexts replaces Markdown and wiki links with their text.
func linkTexts(s string) string {
	s = wikiLink().ReplaceAllStringFunc(s, func(m string) string {
		g := wikiLink().FindStringSubmatch(m)
		if g[4] != "" {
			return g[4]
		}
		return g[1]
	})
	return mdLink().ReplaceAllString(s, "$1")
}
