package tree

import (
	"cmp"
	"errors"
	"fmt"
	"path"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/git-context-tree/git-context-tree/contracts"
)

// Report is the verification of one tree.
type Report struct {
	Findings []contracts.Finding
	Scanned  contracts.Scanned
}

// OK reports whether the tree has no findings.
func (r *Report) OK() bool { return len(r.Findings) == 0 }

// Verify checks every directory index, document, link and soft link of the
// tree at root (S16), reporting every finding rather than stopping at the
// first. root must come from OpenRoot. Documents are read and parsed on all
// cores while the directory walk goes on.
func Verify(root string) *Report {
	return VerifyWith(root, VerifyOptions{})
}

// VerifyOptions are the opt-in checks beyond S16.
type VerifyOptions struct {
	// Links reports relative Markdown links whose target does not exist
	// (TREE_MARKDOWN_LINK_BROKEN). S16 checks containment only, so this is
	// never part of a tree's validity unless asked for.
	Links bool
	// Observe, when set, is shown every document's bytes as read (see
	// Observer), so a caller can hold a snapshot's verification to its
	// commit.
	Observe Observer
}

// VerifyWith is Verify with opt-in checks.
func VerifyWith(root string, opts VerifyOptions) *Report {
	if openAtDirs && verifyFastPaths && !opts.Links {
		return verifyDisk(root, opts.Observe)
	}
	return verifyContent(diskContent{root: root}, 0, opts)
}

// verifyContent verifies a tree served by src: a directory on disk, or a
// git index. entries, when known, is how many entries it holds.
func verifyContent(src content, entries int, opts VerifyOptions) *Report {
	jobs := make(chan []docJob, 64)
	w := &walker{src: src, jobs: jobs, linkable: make(map[string]struct{}, entries), links: opts.Links}

	workers := runtime.GOMAXPROCS(0)
	results := make([][]contracts.Finding, workers)
	linked := make([][]docResult, workers) // with Links: every document's anchors and links
	var wg sync.WaitGroup
	for i := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			x := NewLinkExtractor()
			var buf []byte        // reused: nothing keeps a document's bytes
			var links []linkCheck // only what the checks after the walk need
			for batch := range jobs {
				for _, j := range batch {
					r := checkDocument(w.src, x, &buf, j, opts.Observe)
					results[i] = append(results[i], r.findings...)
					if len(r.softLinks) > 0 || len(r.localLinks) > 0 {
						links = append(links, linkCheck{r.rel, r.softLinks, r.localLinks})
					}
					if opts.Links {
						linked[i] = append(linked[i], r)
					}
				}
				if batch[0].dir != nil {
					_ = batch[0].dir.Close()
				}
			}
			// jobs is closed: the walk is over and its index complete.
			for _, r := range links {
				for _, sl := range r.softLinks {
					if f, bad := checkSoftLink(r.rel, sl, w.isLinkable); bad {
						results[i] = append(results[i], f)
					}
				}
				for _, l := range r.localLinks {
					if f, bad := w.checkLocalLink(r.rel, l); bad {
						results[i] = append(results[i], f)
					}
				}
			}
		}()
	}
	w.walkDir(".")
	close(jobs)
	wg.Wait()

	findings := w.findings
	for _, fs := range results {
		findings = append(findings, fs...)
	}
	if opts.Links {
		findings = append(findings, checkAnchors(slices.Concat(linked...))...)
	}
	return &Report{Findings: sortFindings(findings), Scanned: w.scanned}
}

// linkCheck is a document's links, kept until the walk has listed every
// target (a docResult is four times its size: 100,000 of them copied while
// the slice grows cost more than checking the links).
type linkCheck struct {
	rel        string
	softLinks  []SoftLink
	localLinks []localLink
}

type docResult struct {
	rel       string
	findings  []contracts.Finding
	softLinks []SoftLink
	// localLinks are the Markdown links to paths inside the tree, listed
	// only when the walk checks their existence (VerifyOptions.Links).
	localLinks []localLink
	// cites are the paths the document's well-formed sources entries cite
	// in the project's own repository (no repository), in list order.
	cites []string
	// With links: the document's title and anchors, its links with a
	// #fragment, and its wikilinks (lines in the file).
	title     string
	anchors   []string
	fragLinks []fragLink
	wikilinks []Wikilink
}

// fragLink is a link to a #fragment of a document (path "" for none yet
// resolved: an asset or a missing target is not checked here).
type fragLink struct {
	path, frag, dest string
	line             int
}

// checkDocument reads, parses and checks one document and its Markdown
// links, unless src already holds its result.
func checkDocument(src content, x *LinkExtractor, buf *[]byte, j docJob, observe Observer) docResult {
	if r, ok := src.precomputed(j); ok {
		return r
	}
	var data []byte
	var err error
	if disk, ok := src.(diskContent); ok && j.dir != nil {
		data, err = disk.readFileIn(buf, j.dir, j.entry.Name(), j.rel, contracts.MaxDocumentBytes)
	} else {
		data, err = src.readFile(buf, j.rel, contracts.MaxDocumentBytes)
	}
	if err == nil && observe != nil {
		observe(j.rel, data)
	}
	return checkBytes(x, j, data, err)
}

// checkBytes checks one document's bytes, or reports why they could not
// be read.
func checkBytes(x *LinkExtractor, j docJob, data []byte, err error) docResult {
	return checkBytesWith(x, j, data, err, nil)
}

// checkBytesWith is checkBytes with scratch memory for quickReadWith: the
// result's soft links then share it.
func checkBytesWith(x *LinkExtractor, j docJob, data []byte, err error, sc *quickScratch) docResult {
	res := docResult{rel: j.rel}
	if err != nil {
		res.findings = append(res.findings, unreadableFinding(j.rel, err))
		return res
	}
	var doc *Document
	if d, _, quick := quickReadWith(j.rel, data, j.root, j.links, sc); quick && verifyFastPaths {
		doc = &d
	} else {
		doc = ParseDocument(j.rel, data, j.root)
	}
	res.findings = doc.Findings
	res.softLinks = doc.Meta.SoftLinks
	for _, src := range doc.Meta.Sources {
		if src.Repository == "" && !slices.Contains(res.cites, src.Path) {
			res.cites = append(res.cites, src.Path)
		}
	}
	if doc.Body == nil {
		return res // unparseable header: where the body starts is unknown
	}
	dir := path.Dir(j.rel)
	if j.links {
		res.title = doc.Meta.Title
		var wls []Wikilink
		res.anchors, wls = x.BodyAnchors(doc.Body)
		for _, w := range wls {
			w.Line += doc.BodyLine - 1
			res.wikilinks = append(res.wikilinks, w)
		}
	}
	if verifyFastPaths && !j.links && !linksMayEscape(doc.Body, dirDepth(dir)) {
		return res
	}
	for _, l := range x.Extract(doc.Body) {
		p, v := ResolveTarget(dir, l.Destination, false)
		if v == TargetInside && j.links {
			res.localLinks = append(res.localLinks, localLink{path: p, line: doc.BodyLine - 1 + l.Line, dest: l.Destination})
		}
		if j.links {
			if frag, ok := fragmentOf(l.Destination); ok {
				target := p
				switch {
				case strings.HasPrefix(strings.TrimSpace(l.Destination), "#"):
					target = j.rel
				case v != TargetInside:
					target = ""
				}
				if target != "" {
					res.fragLinks = append(res.fragLinks, fragLink{path: target, frag: frag, dest: l.Destination, line: doc.BodyLine - 1 + l.Line})
				}
			}
		}
		if v == TargetEscapes {
			msg := "Markdown link leaves the tree"
			if isFileURL(strings.TrimSpace(l.Destination)) {
				msg = "Markdown link is a file: URL, which names a location on a machine, not a path in the tree; link to tree content with a relative path"
			}
			res.findings = append(res.findings, contracts.Finding{Code: contracts.FindingMarkdownLinkPathEscape, Path: j.rel,
				Line: doc.BodyLine - 1 + l.Line, Target: l.Destination, Message: msg})
		}
	}
	return res
}

// unreadableFinding is the finding of a document that could not be read.
// (Apart from checkBytesWith: errors.As's targets escape, which would cost
// two allocations for every document read.)
func unreadableFinding(rel string, err error) contracts.Finding {
	var big *tooLargeError
	var linked *hardLinkedError
	switch {
	case errors.As(err, &linked):
		return contracts.Finding{Code: contracts.FindingHardLinkUnsupported, Path: rel,
			Message: fmt.Sprintf("document has %d hard links; read refuses it because another link may lie outside the tree: replace it with a copy of its own", linked.links)}
	case errors.As(err, &big):
		return contracts.Finding{Code: contracts.FindingDocumentUnreadable, Path: rel,
			Message: fmt.Sprintf("document is %d bytes; documents over %d bytes are not parsed", big.size, contracts.MaxDocumentBytes)}
	}
	return contracts.Finding{Code: contracts.FindingDocumentUnreadable, Path: rel,
		Message: fmt.Sprintf("document cannot be read: %v", unwrapPathError(err))}
}

func (w *walker) isLinkable(p string) bool {
	_, ok := w.linkable[p]
	return ok
}

// CheckSoftLinks resolves a document's soft links (rel its tree-relative
// path) as verification does, linkable answering whether a tree-relative
// path is a document or an indexed directory of the tree: for a caller
// that knows the tree's paths without walking it (verify --staged, when a
// commit only edits documents of a tree that verified).
func CheckSoftLinks(rel string, links []SoftLink, linkable func(string) bool) []contracts.Finding {
	var out []contracts.Finding
	for _, sl := range links {
		if f, bad := checkSoftLink(rel, sl, linkable); bad {
			out = append(out, f)
		}
	}
	return out
}

// checkSoftLink resolves one soft link against the tree's linkable paths.
func checkSoftLink(rel string, sl SoftLink, linkable func(string) bool) (contracts.Finding, bool) {
	f := contracts.Finding{Path: rel, Line: sl.Line, Target: sl.Value}
	p, v := ResolveTarget(".", sl.Value, true)
	switch {
	case v == TargetEscapes && isFileURL(strings.TrimSpace(sl.Value)):
		f.Code, f.Message = contracts.FindingSoftLinkPathEscape, "soft link is a file: URL, which names a location on a machine, not a path in the tree"
	case v == TargetEscapes:
		f.Code, f.Message = contracts.FindingSoftLinkPathEscape, "soft link leaves the tree"+relativeHint(rel, sl.Value, linkable)
	case v == TargetExternal:
		f.Code, f.Message = contracts.FindingSoftLinkBroken, "soft link is not a path in the tree"
	case linkable(p):
		return f, false
	default:
		f.Code, f.Message = contracts.FindingSoftLinkBroken, fmt.Sprintf("soft link target %s is not a document or indexed directory of the tree", p)+relativeHint(rel, sl.Value, linkable)
	}
	return f, true
}

// relativeHint names the usual mistake behind a broken soft link: a path
// written from the document's directory, when that path is linkable.
func relativeHint(rel, value string, linkable func(string) bool) string {
	dir := path.Dir(rel)
	if dir == "." || strings.HasPrefix(strings.TrimSpace(value), "/") {
		return ""
	}
	if q, v := ResolveTarget(dir, value, false); v == TargetInside && linkable(q) {
		return "; soft links are relative to the tree root, not to the document: write " + q
	}
	return ""
}

// WalkReaches reports whether verification's walk reaches the
// tree-relative path p: no directory on the way to it, and not p itself,
// is infrastructure (which the walk skips whole).
func WalkReaches(p string) bool {
	for q := p; q != "." && q != ""; q = path.Dir(q) {
		if ClassOf(q) == contracts.ClassInfrastructure {
			return false
		}
	}
	return true
}

// sortFindings orders findings by path, line, code and target, dropping
// exact duplicates.
func sortFindings(fs []contracts.Finding) []contracts.Finding {
	slices.SortFunc(fs, func(a, b contracts.Finding) int {
		return cmp.Or(cmp.Compare(a.Path, b.Path), cmp.Compare(a.Line, b.Line),
			cmp.Compare(a.Code, b.Code), cmp.Compare(a.Target, b.Target), cmp.Compare(a.Message, b.Message))
	})
	fs = slices.Compact(fs)
	if fs == nil {
		fs = []contracts.Finding{}
	}
	return fs
}

// SortFindings is verify's order of findings (path, line, code, target),
// exact duplicates dropped: for findings added to a report later.
func SortFindings(fs []contracts.Finding) []contracts.Finding { return sortFindings(fs) }
