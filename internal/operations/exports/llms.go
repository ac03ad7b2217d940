package exports

import (
	"context"
	"errors"
	"io/fs"
	"net/url"
	"os"
	"path"
	"path/filepath"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/adapters/atomicfile"
	"github.com/git-context-tree/git-context-tree/internal/export"
	"github.com/git-context-tree/git-context-tree/internal/operations"
	"github.com/git-context-tree/git-context-tree/internal/tree"
)

// LLMSRequest is `export llms`.
type LLMSRequest struct {
	Selector  string
	OutDir    string // "" is the command's directory
	BaseURL   string
	Encoding  string
	MaxTokens int
	Exclude   []string // path patterns left out
	// SiteMarkdown links, under BaseURL, the site's Markdown copy of each
	// page (export site) instead of the document's file.
	SiteMarkdown bool
}

// LLMS writes llms.txt and llms-full.txt for one tree.
func LLMS(ctx context.Context, env operations.Env, req LLMSRequest) (*contracts.ExportLLMSResult, error) {
	if req.MaxTokens < 0 {
		return nil, contracts.Errorf(contracts.CodeUsage, "--max-tokens must be positive")
	}
	for _, pat := range req.Exclude {
		if _, err := path.Match(pat, ""); err != nil || pat == "" {
			return nil, contracts.Errorf(contracts.CodeUsage, "--exclude %q is not a path pattern", pat)
		}
	}
	baseURL, err := checkBaseURL(req.BaseURL)
	if err != nil {
		return nil, err
	}
	if req.SiteMarkdown && baseURL == "" {
		return nil, contracts.Errorf(contracts.CodeUsage, "--site-markdown links the pages of a published site: give its --base-url")
	}
	counter, err := export.NewCounter(req.Encoding)
	if err != nil {
		return nil, err
	}
	_, conns, err := operations.OpenProject(ctx, env)
	if err != nil {
		return nil, err
	}
	t, err := openExportTarget(ctx, env, conns, req.Selector, "export llms <selector>")
	if err != nil {
		return nil, err
	}
	et, err := readExportTree(ctx, env, t, counter)
	if err != nil {
		return nil, err
	}
	// Links are computed between real paths; the directory is created only
	// once there is something to write.
	out := tree.RealPath(env.Abs(orDefault(req.OutDir, ".")))
	link, err := llmsLink(baseURL, out, t)
	if err != nil {
		return nil, err
	}
	if req.SiteMarkdown {
		site := export.BaseURLLink(baseURL)
		link = func(p string) string { return site(export.MarkdownPath(export.PagePath(p))) }
	}
	rendered, err := export.RenderLLMS(et.docs, export.LLMSOptions{
		Title: et.title, Summary: export.Summary(et.root), Link: link, MaxTokens: req.MaxTokens, Counter: counter, Exclude: req.Exclude,
	})
	if err != nil {
		return nil, err
	}
	ref, err := t.Ref(ctx, env)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return nil, contracts.Errorf(contracts.CodeIO, "cannot create %s: %v", out, unwrapPath(err))
	}
	res := &contracts.ExportLLMSResult{
		SchemaVersion: contracts.CLIVersion, Tree: ref, OutputDir: out, Encoding: counter.Encoding,
		BaseURL: baseURL, MaxTokens: req.MaxTokens, TotalTokens: rendered.FullTokens,
		Documents: []contracts.ExportedDocument{}, Skipped: et.unreadable,
	}
	files := []struct {
		name   string
		data   []byte
		tokens int
	}{{"llms.txt", rendered.Index, rendered.IndexTokens}, {"llms-full.txt", rendered.Full, rendered.FullTokens}}
	for _, f := range files {
		file, err := writeExport(filepath.Join(out, f.name), f.data)
		if err != nil {
			return nil, err
		}
		file.Tokens = f.tokens
		res.Files = append(res.Files, file)
	}
	for _, d := range rendered.Included {
		res.Documents = append(res.Documents, exportedDocument(d, true))
	}
	for _, d := range rendered.Omitted {
		res.Documents = append(res.Documents, exportedDocument(d, false))
		res.Omitted = append(res.Omitted, d.Path)
	}
	return res, nil
}

func exportedDocument(d export.Document, included bool) contracts.ExportedDocument {
	return contracts.ExportedDocument{Path: d.Path, Title: d.Title, Class: d.Class, Tokens: d.Tokens, Redactions: d.Redactions, Included: included}
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// checkBaseURL accepts an absolute http(s) URL without credentials, and
// returns it with its path escaped segment by segment as document paths
// are (a space or a parenthesis would end a Markdown link).
func checkBaseURL(raw string) (string, error) {
	if raw == "" {
		return "", nil
	}
	u, err := url.Parse(raw)
	switch {
	case err != nil, u.Scheme != "https" && u.Scheme != "http", u.Host == "":
		return "", contracts.Errorf(contracts.CodeUsage, "--base-url must be an absolute http or https URL")
	case u.User != nil:
		return "", contracts.Errorf(contracts.CodeUsage, "--base-url must not carry credentials")
	case u.RawQuery != "" || u.Fragment != "" || u.ForceQuery:
		return "", contracts.Errorf(contracts.CodeUsage, "--base-url must not have a query or fragment: document paths are appended to it")
	}
	return u.Scheme + "://" + u.Host + export.RelativeLink("")(u.Path), nil
}

// llmsLink says how llms.txt links documents: under --base-url, else
// relative from the output directory to the tree. A git source's snapshot
// lies in machine state, which no published file should point into, so
// its links are tree-relative, as if llms.txt sat at the tree's root.
func llmsLink(baseURL, out string, t operations.TreeTarget) (func(string) string, error) {
	switch {
	case baseURL != "":
		return export.BaseURLLink(baseURL), nil
	case t.Snapshot != nil:
		return export.RelativeLink(""), nil
	}
	rel, err := filepath.Rel(out, t.Root)
	if err != nil {
		return nil, contracts.Errorf(contracts.CodeInternal, "link %s from %s: %v", t.Root, out, err)
	}
	if rel == "." {
		return export.RelativeLink(""), nil
	}
	return export.RelativeLink(filepath.ToSlash(rel) + "/"), nil
}

// writeExport replaces one generated file atomically, leaving a file that
// already holds the same bytes untouched (its time stays, and nothing is
// written to a read-only checkout that is already current). A symlink in
// its place is refused: the export would write through it.
func writeExport(name string, data []byte) (contracts.ExportFile, error) {
	file := contracts.ExportFile{Path: name, Bytes: len(data)}
	fi, err := os.Lstat(name)
	switch {
	case err == nil && fi.Mode()&fs.ModeSymlink != 0:
		return file, contracts.Errorf(contracts.CodeIO, "%s is a symlink; the export does not write through links", name)
	case err == nil && fi.Mode().IsRegular():
		if old, err := os.ReadFile(name); err == nil && string(old) == string(data) {
			file.Unchanged = true
			return file, nil
		}
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return file, contracts.Errorf(contracts.CodeIO, "cannot read %s: %v", name, unwrapPath(err))
	}
	if err := atomicfile.Write(name, data, 0o644); err != nil {
		return file, contracts.Errorf(contracts.CodeIO, "cannot write %s: %v", name, unwrapPath(err))
	}
	return file, nil
}

func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
