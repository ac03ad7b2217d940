package contracts

import "encoding/json"

// Class is a content class (S17).
type Class string

const (
	ClassNormal         Class = "normal"
	ClassMember         Class = "member"
	ClassInfrastructure Class = "infrastructure"
)

// NodeKind tells a directory index (NODE.md, named by its directory) from a
// leaf document.
type NodeKind string

const (
	KindDirectory NodeKind = "directory"
	KindDocument  NodeKind = "document"
)

// VerifyReport is the result of `verify`.
type VerifyReport struct {
	SchemaVersion int          `json:"schemaVersion"`
	OK            bool         `json:"ok"`
	Trees         []TreeReport `json:"trees"`
	// Skipped lists declared trees that could not be verified here, such as
	// git sources without a local snapshot, with the reason.
	Skipped []SkippedTree `json:"skipped,omitempty"`
	// Note explains a staged verification that had nothing to check.
	Note string `json:"note,omitempty"`
	// Warnings are things the user should know that do not fail the
	// check, such as a staged verification that used the work tree's
	// configuration because the commit holds none.
	Warnings []string `json:"warnings,omitempty"`
	// EvidenceNotes (verify --staged; a merge's only with --evidence) are
	// the documents that cite code the commit changes without being
	// changed themselves.
	EvidenceNotes []EvidenceNote `json:"evidenceNotes,omitempty"`
}

// EvidenceNote is one staged change to cited code: Document (repository-
// relative) cites Source, which the commit changes, and the commit leaves
// Document alone.
type EvidenceNote struct {
	Document string `json:"document"`
	Source   string `json:"source"`
}

// SkippedTree is a declared tree verification did not check.
type SkippedTree struct {
	Selector string `json:"selector"`
	Error    *Error `json:"error"`
}

// TreeReport is the verification of one tree.
type TreeReport struct {
	Root     string    `json:"root"`
	Selector string    `json:"selector,omitempty"`
	OK       bool      `json:"ok"`
	Findings []Finding `json:"findings"`
	Scanned  Scanned   `json:"scanned"`
}

// Scanned counts what verification looked at. Documents and Directories
// cover content only (infrastructure is never walked); Normal and Member
// split Documents by class.
type Scanned struct {
	Documents   int `json:"documents"`
	Directories int `json:"directories"`
	Assets      int `json:"assets"`
	Normal      int `json:"normal"`
	Member      int `json:"member"`
}

// ReadResult is the result of `read`.
type ReadResult struct {
	SchemaVersion int         `json:"schemaVersion"`
	Tree          TreeRef     `json:"tree"`
	Node          Node        `json:"node"`
	Children      []ChildNode `json:"children"`
}

// TreeRef names the tree a read came from. Head and Dirty are present
// whenever the tree lies in a git checkout or snapshot, so a reader can say
// which commit it read.
type TreeRef struct {
	Root     string `json:"root"`
	Selector string `json:"selector,omitempty"`
	Head     string `json:"head,omitempty"`
	Dirty    *bool  `json:"dirty,omitempty"`
	Staleness
}

// Staleness marks a git source served from the last commit that verified
// because the newest fetched one does not: Head is the served commit,
// RejectedCommit the newest, Findings how many findings it has.
type Staleness struct {
	Stale          bool   `json:"stale,omitempty"`
	RejectedCommit string `json:"rejectedCommit,omitempty"`
	Findings       int    `json:"findings,omitempty"`
}

// Node is one document with its metadata and body. Frontmatter holds every
// frontmatter field, known or not, in document order.
type Node struct {
	Path        string   `json:"path"`
	Kind        NodeKind `json:"kind"`
	Class       Class    `json:"class"`
	Title       string   `json:"title"`
	Description string   `json:"description,omitempty"`
	SoftLinks   []string `json:"softLinks,omitempty"`
	// Sources are the document's well-formed evidence entries, so agents
	// cite them (the frontmatter has them too, as written).
	Sources     []EvidenceSource `json:"sources,omitempty"`
	Frontmatter json.RawMessage  `json:"frontmatter"`
	Body        string           `json:"body"`
	// Findings are the node's own metadata problems; read does not verify
	// the rest of the tree.
	Findings []Finding `json:"findings,omitempty"`
}

// ChildNode summarises an immediate child of a read node. A child whose
// metadata is invalid is still listed, with its findings.
type ChildNode struct {
	Path        string    `json:"path"`
	Kind        NodeKind  `json:"kind"`
	Class       Class     `json:"class"`
	Title       string    `json:"title,omitempty"`
	Description string    `json:"description,omitempty"`
	Findings    []Finding `json:"findings,omitempty"`
}

// InitResult is the result of `init`.
type InitResult struct {
	SchemaVersion int    `json:"schemaVersion"`
	Root          string `json:"root"`
	Document      string `json:"document"`
	// Title is the root's title when init wrote the root NODE.md.
	Title     string `json:"title,omitempty"`
	Connected bool   `json:"connected"`
	// Created is false when the directory already had a NODE.md, which
	// init adopted as it is.
	Created bool `json:"created"`
	// OK, Findings and Scanned are the verification of the tree after
	// init: an adopted folder's findings are for `fix`.
	OK       bool      `json:"ok"`
	Findings []Finding `json:"findings"`
	Scanned  Scanned   `json:"scanned"`
	// LinkFindings counts, for an adopted folder, its links that name
	// nothing (verify --links: missing targets, #fragments, wikilinks),
	// which do not make a tree invalid but break for its readers.
	LinkFindings int        `json:"linkFindings,omitempty"`
	Next         []NextStep `json:"next"`
}

// NextStep is a command to run next, with why.
type NextStep struct {
	Command string `json:"command"`
	Reason  string `json:"reason"`
}

// VersionInfo is the result of `version`.
type VersionInfo struct {
	SchemaVersion int `json:"schemaVersion"`
	// Version is the build's semantic version without a "v": a release's
	// (0.1.0), or 0.0.0-dev+<commit> for a build from a clone.
	Version  string `json:"version"`
	Revision string `json:"revision,omitempty"`
	Modified bool   `json:"modified,omitempty"`
	// Date is a release build's date: the commit date of the commit it
	// was built from (RFC 3339), so that a rebuild is the same binary.
	Date            string `json:"date,omitempty"`
	GoVersion       string `json:"goVersion"`
	DocumentVersion int    `json:"documentVersion"`
}
