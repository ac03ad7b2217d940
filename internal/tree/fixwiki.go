package tree

import (
	"bytes"
	"fmt"
	"net/url"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/git-context-tree/git-context-tree/contracts"
)

// Wikilinks are rewritten to relative Markdown links (issue 32): an
// Obsidian [[Page]], [[Page|label]] or [[Page#Heading]] that names exactly
// one document of the tree, by title, file name or path (and, with a
// heading, one of its headings), becomes [label](relative/path.md#slug),
// which every Markdown reader, the site and verify follow. A wikilink that
// names nothing or several documents is left as it is (verify --links
// reports it). Only the link's bytes change.

// fixWikilinks plans the rewrites over the documents as fix leaves them
// (changes holds the ones already changed).
func (w *fixWalk) fixWikilinks(changes map[string]*FileChange) {
	content := map[string][]byte{}
	var docs []docResult
	x := NewLinkExtractor()
	var buf []byte
	for _, rel := range w.docs {
		data := []byte(nil)
		if ch, ok := changes[rel]; ok {
			data = ch.New
		} else if d, err := readDocumentInto(&buf, filepath.Join(w.root, filepath.FromSlash(rel)), contracts.MaxDocumentBytes); err == nil {
			data = slices.Clone(d)
		} else {
			continue
		}
		content[rel] = data
		doc := ParseDocument(rel, data, rel == NodeFile)
		r := docResult{rel: rel, title: doc.Meta.Title}
		if doc.Body != nil && bytes.Contains(doc.Body, []byte("[[")) {
			_, r.wikilinks = x.BodyAnchors(doc.Body)
		}
		docs = append(docs, r)
	}
	byName := map[string][]string{}
	for _, d := range docs {
		for _, name := range wikiNames(d) {
			key := strings.ToLower(name)
			if !slices.Contains(byName[key], d.rel) {
				byName[key] = append(byName[key], d.rel)
			}
		}
	}
	// A target's anchors are read only when a wikilink names a heading.
	anchorsOf := func(rel string) map[string]bool {
		set := map[string]bool{}
		if doc := ParseDocument(rel, content[rel], rel == NodeFile); doc.Body != nil {
			a, _ := x.BodyAnchors(doc.Body)
			for _, id := range a {
				set[strings.ToLower(id)] = true
			}
		}
		return set
	}
	for _, d := range docs {
		if len(d.wikilinks) == 0 {
			continue
		}
		data := content[d.rel]
		fm, err := ParseFrontmatter(data)
		offset := 0
		if err == nil {
			offset = len(data) - len(fm.Body)
		}
		out, repairs := rewriteWikilinks(d, data, offset, byName, anchorsOf)
		if len(repairs) == 0 {
			continue
		}
		if ch, ok := changes[d.rel]; ok {
			ch.New, ch.Repairs = out, append(ch.Repairs, repairs...)
		} else {
			changes[d.rel] = &FileChange{Path: d.rel, Old: data, New: out, Repairs: repairs}
		}
	}
}

// rewriteWikilinks replaces a document's resolvable wikilinks, last first
// so earlier offsets stay valid.
func rewriteWikilinks(d docResult, data []byte, offset int, byName map[string][]string, anchorsOf func(string) map[string]bool) ([]byte, []contracts.FixRepair) {
	out := slices.Clone(data)
	var repairs []contracts.FixRepair
	for _, wl := range slices.Backward(d.wikilinks) {
		found := byName[strings.ToLower(wl.Target)]
		if len(found) != 1 {
			continue
		}
		target, frag := found[0], ""
		if wl.Heading != "" {
			frag = Slug(wl.Heading)
			if !anchorsOf(target)[strings.ToLower(frag)] {
				continue
			}
		}
		label := wl.Label
		if label == "" {
			label = wl.Target
			if wl.Heading != "" {
				label += " › " + wl.Heading
			}
		}
		link := "[" + strings.NewReplacer(`\`, `\\`, `[`, `\[`, `]`, `\]`).Replace(label) + "](" + relativeLink(path.Dir(d.rel), target)
		if frag != "" {
			link += "#" + url.PathEscape(frag)
		}
		link += ")"
		start, end := offset+wl.Start, offset+wl.End
		out = append(out[:start:start], append([]byte(link), out[end:]...)...)
		repairs = append(repairs, contracts.FixRepair{Code: contracts.FindingWikilinkBroken, Line: bodyLine(data, offset) + wl.Line - 1,
			Message: fmt.Sprintf("rewrite the wikilink %s as a Markdown link to %s (readers other than Obsidian do not follow wikilinks)", wl.Text, target)})
	}
	slices.Reverse(repairs)
	return out, repairs
}

// bodyLine is the file line on which a body starting at offset begins.
func bodyLine(data []byte, offset int) int {
	return bytes.Count(data[:offset], []byte("\n")) + 1
}

// relativeLink is target (a tree path) from directory dir, each segment
// escaped so the link stays one.
func relativeLink(dir, target string) string {
	rel, err := filepath.Rel(filepath.FromSlash("/"+dir), filepath.FromSlash("/"+target))
	if err != nil {
		rel = target
	}
	segs := strings.Split(filepath.ToSlash(rel), "/")
	for i, s := range segs {
		if s != ".." {
			segs[i] = url.PathEscape(s)
		}
	}
	return strings.Join(segs, "/")
}
