package contracts

// EvidenceSource is one entry of a document's optional "sources"
// frontmatter list: the code the document was written from. Path is
// relative to the repository root of the project the tree describes, or,
// with Repository (a declared git source's selector), of that source's
// repository. Lines is "N" or "N-M" (1-based, inclusive; empty: the whole
// file). Commit is the commit the code was read at; Sha256 a hex prefix
// (at least 12 digits) of the SHA-256 of the cited lines' bytes exactly as
// the file holds them, each line's terminator included (of the whole file
// without Lines). Other keys of an entry are allowed and preserved.
type EvidenceSource struct {
	Path       string `json:"path" yaml:"path"`
	Lines      string `json:"lines,omitempty" yaml:"lines,omitempty"`
	Commit     string `json:"commit,omitempty" yaml:"commit,omitempty"`
	Sha256     string `json:"sha256,omitempty" yaml:"sha256,omitempty"`
	Repository string `json:"repository,omitempty" yaml:"repository,omitempty"`
}

// MinDigestHex is the shortest sha256 prefix an entry may record;
// StampDigestHex is the length `evidence stamp` writes.
const (
	MinDigestHex   = 12
	StampDigestHex = 16
)

// Drift statuses of a cited source.
const (
	// DriftChanged: commits since the entry's commit changed the cited
	// file (or, with lines, the cited line range).
	DriftChanged = "changed"
	// DriftDeleted: the cited file no longer exists at HEAD.
	DriftDeleted = "deleted"
	// DriftUnstamped: the entry records no commit and no --since was
	// given, so there is nothing to compare with; stamp it.
	DriftUnstamped = "unstamped"
	// DriftUnknownCommit: the entry's commit (or --since) is not in the
	// repository's history up to HEAD.
	DriftUnknownCommit = "unknown-commit"
	// DriftUnavailable: the entry's repository is not a declared git
	// source with a synced snapshot.
	DriftUnavailable = "unavailable"
)

// DriftReport is the result of `drift`: the documents whose cited code
// changed, and the entries it cannot compare. OK is false (exit 1) when
// anything drifted; an unstamped entry (nothing recorded to compare with)
// is listed with its status but does not count as drifted.
type DriftReport struct {
	SchemaVersion int         `json:"schemaVersion"`
	OK            bool        `json:"ok"`
	Trees         []DriftTree `json:"trees"`
}

// DriftTree is one tree's drifted documents, and the findings of entries
// that could not be checked at all (malformed ones).
type DriftTree struct {
	Root      string          `json:"root"`
	Selector  string          `json:"selector,omitempty"`
	Documents []DriftDocument `json:"documents"`
	Findings  []Finding       `json:"findings"`
	// Sources is how many entries the tree's documents cite.
	Sources int `json:"sources"`
}

// Drifted reports whether any entry of the tree drifted: every listed
// status but unstamped (changed, deleted, an unknown commit, a repository
// that cannot be read).
func (t DriftTree) Drifted() bool { return t.Count(false) > 0 }

// Count is how many listed entries are unstamped (unstamped true) or
// drifted (false).
func (t DriftTree) Count(unstamped bool) int {
	n := 0
	for _, d := range t.Documents {
		for _, s := range d.Sources {
			if (s.Status == DriftUnstamped) == unstamped {
				n++
			}
		}
	}
	return n
}

// DriftDocument is a document with at least one drifted source.
type DriftDocument struct {
	Path    string        `json:"path"`
	Sources []DriftSource `json:"sources"`
}

// DriftSource is one drifted entry. Index is its 0-based position in the
// document's sources list; Since the full commit compared from; Commits
// the commits (oldest first) that changed it. CurrentPath and
// CurrentLines are where the cited code is at HEAD, following renames and
// the diff's hunks (absent when it was deleted).
type DriftSource struct {
	Index        int      `json:"index"`
	Line         int      `json:"line,omitempty"` // the entry's line in the document
	Path         string   `json:"path"`
	Lines        string   `json:"lines,omitempty"`
	Repository   string   `json:"repository,omitempty"`
	Status       string   `json:"status"`
	Since        string   `json:"since,omitempty"`
	Head         string   `json:"head,omitempty"`
	Commits      []string `json:"commits"`
	CurrentPath  string   `json:"currentPath,omitempty"`
	CurrentLines string   `json:"currentLines,omitempty"`
	Message      string   `json:"message,omitempty"`
}

// Cited is what the entry cites in words: [repository:]path[:lines].
func (s DriftSource) Cited() string {
	cited := s.Path
	if s.Lines != "" {
		cited += ":" + s.Lines
	}
	if s.Repository != "" {
		cited = s.Repository + ":" + cited
	}
	return cited
}

// ExitCode is 1 when anything drifted.
func (r *DriftReport) ExitCode() int { return exitIf(!r.OK) }

// StampResult is the result of `evidence stamp`.
type StampResult struct {
	SchemaVersion int               `json:"schemaVersion"`
	Documents     []StampedDocument `json:"documents"`
}

// StampedDocument is one named document: File is its absolute path;
// Changed says whether its bytes were rewritten.
type StampedDocument struct {
	File    string          `json:"file"`
	Changed bool            `json:"changed"`
	Sources []StampedSource `json:"sources"`
}

// StampedSource is one entry as stamp left it, with what it was before
// when that differs.
type StampedSource struct {
	Index         int    `json:"index"`
	Path          string `json:"path"`
	Lines         string `json:"lines,omitempty"`
	Commit        string `json:"commit"`
	Sha256        string `json:"sha256"`
	Repository    string `json:"repository,omitempty"`
	PreviousPath  string `json:"previousPath,omitempty"`
	PreviousLines string `json:"previousLines,omitempty"`
}
