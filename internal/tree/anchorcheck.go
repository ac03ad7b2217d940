package tree

import (
	"net/url"
	"path"
	"slices"
	"strings"

	"github.com/git-context-tree/git-context-tree/contracts"
)

// fragmentOf is a link's #fragment, decoded; ok false when it has none
// (or an empty one).
func fragmentOf(dest string) (string, bool) {
	_, frag, ok := strings.Cut(strings.TrimSpace(dest), "#")
	if !ok || frag == "" {
		return "", false
	}
	if d, err := url.PathUnescape(frag); err == nil {
		frag = d
	}
	return frag, true
}

// checkAnchors checks, once every document is read, each link's
// #fragment against its target's anchors and each wikilink against the
// documents' titles and file names.
func checkAnchors(docs []docResult) []contracts.Finding {
	anchors := map[string]map[string]bool{}
	byName := map[string][]string{}
	for _, d := range docs {
		set := map[string]bool{}
		for _, a := range d.anchors {
			set[strings.ToLower(a)] = true
		}
		anchors[d.rel] = set
		for _, name := range wikiNames(d) {
			key := strings.ToLower(name)
			if !slices.Contains(byName[key], d.rel) {
				byName[key] = append(byName[key], d.rel)
			}
		}
	}
	var out []contracts.Finding
	for _, d := range docs {
		for _, l := range d.fragLinks {
			target, ok := documentAt(l.path, anchors)
			if ok && !anchors[target][strings.ToLower(l.frag)] {
				out = append(out, contracts.Finding{Code: contracts.FindingLinkFragmentMissing, Path: d.rel, Line: l.line, Target: l.dest,
					Message: "link fragment #" + l.frag + " names no heading or anchor of " + target})
			}
		}
		for _, w := range d.wikilinks {
			found := byName[strings.ToLower(w.Target)]
			switch {
			case len(found) == 0:
				out = append(out, contracts.Finding{Code: contracts.FindingWikilinkBroken, Path: d.rel, Line: w.Line, Target: w.Text,
					Message: "wikilink names no document of the tree by title or file name"})
			case len(found) > 1:
				slices.Sort(found)
				out = append(out, contracts.Finding{Code: contracts.FindingWikilinkAmbiguous, Path: d.rel, Line: w.Line, Target: w.Text,
					Message: "wikilink names several documents (" + strings.Join(found, ", ") + "); write a relative Markdown link instead"})
			case w.Heading != "" && !anchors[found[0]][strings.ToLower(Slug(w.Heading))] && !anchors[found[0]][strings.ToLower(w.Heading)]:
				out = append(out, contracts.Finding{Code: contracts.FindingLinkFragmentMissing, Path: d.rel, Line: w.Line, Target: w.Text,
					Message: "wikilink heading #" + w.Heading + " names no heading of " + found[0]})
			}
		}
	}
	return out
}

// wikiNames are the names a wikilink may use for a document: its title,
// its file name without .md (a directory's name for its NODE.md), and its
// tree path without .md.
func wikiNames(d docResult) []string {
	var names []string
	if d.title != "" {
		names = append(names, d.title)
	}
	noExt := strings.TrimSuffix(d.rel, ".md")
	if path.Base(d.rel) == NodeFile {
		if dir := path.Dir(d.rel); dir != "." {
			names = append(names, path.Base(dir), dir)
		}
		return names
	}
	return append(names, path.Base(noExt), noExt)
}

// documentAt is the document a link target names: itself, or a
// directory's NODE.md; ok false for anything else (an asset, nothing).
func documentAt(p string, anchors map[string]map[string]bool) (string, bool) {
	if _, ok := anchors[p]; ok {
		return p, true
	}
	idx := path.Join(p, NodeFile)
	if _, ok := anchors[idx]; ok {
		return idx, true
	}
	return "", false
}
