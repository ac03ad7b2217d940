package cli

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/operations/exports"
)

type exportLlmsCmd struct {
	Selector  string   `arg:"" optional:"" name:"selector" help:"The tree: a declared source's selector or a tree directory (default: as read chooses)."`
	Out       string   `short:"o" name:"output" placeholder:"<dir>" help:"Directory to write llms.txt and llms-full.txt to (default: the current directory); created if missing."`
	BaseURL   string   `name:"base-url" placeholder:"<url>" help:"Link documents under this published site instead of by relative path."`
	Encoding  string   `name:"encoding" placeholder:"<name>" help:"Tokenizer vocabulary for token counts: o200k_base (default) or cl100k_base."`
	MaxTokens int      `name:"max-tokens" placeholder:"<n>" help:"Cap llms-full.txt at n tokens: whole documents, breadth first, member content last; a closing note names what was left out."`
	Exclude   []string `name:"exclude" placeholder:"<glob>" help:"Leave out documents whose tree path (or a directory above it) matches the pattern (repeatable; * does not cross /)."`
	SitePages bool     `name:"site-markdown" help:"With --base-url, the site of export site published there: link each document's clean Markdown page (x.md beside x.html) instead of its source file."`
}

func (cmd *exportLlmsCmd) Help() string {
	return `llms.txt: "# <root title>", a "> " summary (the root's description or
first paragraph), the root's documents, one "## <domain>" section per
top-level directory with "- [title](link): description" lines in tree order,
and members/ under "## Optional". Links are relative from the output
directory (or under --base-url; tree-relative for a git source). Without a
description, the summary is the root body's first paragraph of prose, its
links reduced to their text. A document's frontmatter may say
"llms: optional" (listed under Optional, left out first under
--max-tokens) or "llms: exclude" (left out of both files), and --exclude
leaves out paths by pattern.
llms-full.txt: every document in the same order, frontmatter removed, each
introduced by its path, title and token count; its comment line states the
file's own token count. Counts use an embedded tokenizer (no network). The
files are rewritten atomically, and only when their bytes change.`
}

func (cmd *exportLlmsCmd) Run(c *Context) error {
	res, err := exports.LLMS(c, c.Env, exports.LLMSRequest{
		Selector: cmd.Selector, OutDir: cmd.Out, BaseURL: cmd.BaseURL, Encoding: cmd.Encoding, MaxTokens: cmd.MaxTokens, Exclude: cmd.Exclude, SiteMarkdown: cmd.SitePages,
	})
	if err != nil {
		return err
	}
	c.warnSkipped(res.Skipped)
	return c.emit(res, func() { c.printExportLLMS(res) })
}

func (c *Context) printExportLLMS(r *contracts.ExportLLMSResult) {
	included := len(r.Documents) - len(r.Omitted)
	fmt.Fprintf(c.Stdout, "Wrote llms.txt and llms-full.txt to %s: %s, %d tokens (%s)\n",
		c.display(r.OutputDir), countOf(included, "document"), r.TotalTokens, r.Encoding)
	for _, f := range r.Files {
		state := ""
		if f.Unchanged {
			state = ", unchanged"
		}
		fmt.Fprintf(c.Stdout, "  %-14s %d tokens%s\n", filepath.Base(f.Path), f.Tokens, state)
	}
	if len(r.Omitted) > 0 {
		fmt.Fprintf(c.Stdout, "Left out to stay within %d tokens: %s\n", r.MaxTokens, strings.Join(r.Omitted, ", "))
	}
}

// warnSkipped tells on stderr which documents an export could not read.
func (c *Context) warnSkipped(skipped []contracts.SkippedDocument) {
	for _, s := range skipped {
		fmt.Fprintf(c.Stderr, "warning: left out %s: %s\n", quote(s.Path), s.Reason)
	}
}

func countOf(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}
