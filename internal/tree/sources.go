package tree

import (
	"fmt"
	"path"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/git-context-tree/git-context-tree/contracts"
)

// Source is one well-formed entry of a document's "sources" list.
type Source struct {
	contracts.EvidenceSource
	Index int       // 0-based position in the list
	Line  int       // file line of the entry
	Range LineRange // zero: the whole file
}

// LineRange is a 1-based inclusive line range; the zero value is the
// whole file.
type LineRange struct{ Start, End int }

// Whole reports the zero range: the whole file.
func (r LineRange) Whole() bool { return r.Start == 0 }

// String is "N" or "N-M", "" for the whole file.
func (r LineRange) String() string {
	switch {
	case r.Whole():
		return ""
	case r.Start == r.End:
		return strconv.Itoa(r.Start)
	}
	return fmt.Sprintf("%d-%d", r.Start, r.End)
}

// ParseLineRange reads "N" or "N-M" with 1 <= N <= M, digits only and no
// leading zeros.
func ParseLineRange(s string) (LineRange, error) {
	a, b, dash := strings.Cut(s, "-")
	start, ok1 := positive(a)
	end, ok2 := start, true
	if dash {
		end, ok2 = positive(b)
	}
	switch {
	case !ok1 || !ok2:
		return LineRange{}, fmt.Errorf("lines must be \"N\" or \"N-M\" with line numbers from 1, not %q", s)
	case end < start:
		return LineRange{}, fmt.Errorf("lines %q ends before it starts; write it as \"%d-%d\"", s, end, start)
	}
	return LineRange{Start: start, End: end}, nil
}

func positive(s string) (int, bool) {
	if s == "" || len(s) > 9 || s[0] == '0' {
		return 0, false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return 0, false
		}
	}
	n, err := strconv.Atoi(s)
	return n, err == nil
}

// CleanSourcePath checks an evidence path: relative to a repository root,
// "/"-separated, already clean, and inside the repository.
func CleanSourcePath(p string) error {
	switch {
	case strings.TrimSpace(p) == "":
		return fmt.Errorf("path must be a non-empty string")
	case strings.ContainsAny(p, "\\\x00\n\r"):
		return fmt.Errorf("path %q must use / separators", p)
	case strings.HasPrefix(p, "/"):
		return fmt.Errorf("path %q must be relative to the repository root, not absolute", p)
	case p == ".." || strings.HasPrefix(p, "../"):
		return fmt.Errorf("path %q leaves the repository", p)
	case path.Clean(p) != p || p == ".":
		if c := path.Clean(p); c != "." && !strings.HasPrefix(c, "../") && c != ".." {
			return fmt.Errorf("path %q is not clean; write it as %q", p, c)
		}
		return fmt.Errorf("path %q does not name a file of the repository", p)
	}
	return nil
}

func isHex(s string, min, max int) bool {
	if len(s) < min || len(s) > max {
		return false
	}
	for _, c := range s {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

// checkSources reads the sources list, reporting every malformed entry
// (EVIDENCE_INVALID) and returning the well-formed ones.
func (d *Document) checkSources(k, v *yaml.Node) []Source {
	if v.Kind != yaml.SequenceNode || len(v.Content) == 0 {
		d.add(contracts.FindingEvidenceInvalid, fileLine(k), "sources must be a non-empty list of entries {path, lines?, commit?, sha256?, repository?}")
		return nil
	}
	var out []Source
	for i, item := range v.Content {
		item = deref(item)
		s, msg := parseSource(item)
		if msg != "" {
			d.add(contracts.FindingEvidenceInvalid, fileLine(item), fmt.Sprintf("sources entry %d: %s", i+1, msg))
			continue
		}
		s.Index, s.Line = i, fileLine(item)
		out = append(out, s)
	}
	return out
}

// parseSource reads one entry, or says what is wrong with it.
func parseSource(item *yaml.Node) (Source, string) {
	if item.Kind != yaml.MappingNode {
		return Source{}, fmt.Sprintf("must be a mapping with at least a path, not %s", describe(item))
	}
	var s Source
	str := func(key string) (string, bool, string) {
		k, v := field(item, key)
		if k == nil {
			return "", false, ""
		}
		if v.Kind != yaml.ScalarNode || v.ShortTag() != "!!str" {
			return "", true, fmt.Sprintf("%s must be a string, not %s", key, describe(v))
		}
		return v.Value, true, ""
	}
	p, ok, msg := str("path")
	switch {
	case msg != "":
		return s, msg
	case !ok:
		return s, "has no path"
	}
	if err := CleanSourcePath(p); err != nil {
		return s, err.Error()
	}
	s.Path = p
	if k, v := field(item, "lines"); k != nil {
		text := v.Value
		if v.Kind != yaml.ScalarNode || (v.ShortTag() != "!!str" && v.ShortTag() != "!!int") {
			return s, fmt.Sprintf("lines must be \"N\" or \"N-M\", not %s", describe(v))
		}
		r, err := ParseLineRange(text)
		if err != nil {
			return s, err.Error()
		}
		s.Range, s.Lines = r, r.String()
	}
	c, _, msg := str("commit")
	if msg != "" {
		return s, msg
	}
	if c != "" && !isHex(c, 7, 64) {
		return s, fmt.Sprintf("commit must be a commit id (7 to 64 hex digits), not %q", c)
	}
	s.Commit = strings.ToLower(c)
	h, _, msg := str("sha256")
	if msg != "" {
		return s, msg
	}
	if h != "" && !isHex(h, contracts.MinDigestHex, 64) {
		return s, fmt.Sprintf("sha256 must be %d to 64 hex digits of the cited code's SHA-256, not %q", contracts.MinDigestHex, h)
	}
	s.Sha256 = strings.ToLower(h)
	r, ok, msg := str("repository")
	if msg != "" {
		return s, msg
	}
	if ok && strings.TrimSpace(r) == "" {
		return s, "repository must name a declared git source"
	}
	s.Repository = r
	return s, ""
}
