package contracts

// FindingCode identifies one kind of problem verification reports in a tree.
type FindingCode string

// Finding codes. The TREE_* names before TREE_SYMLINK_UNSUPPORTED are the
// established codes of earlier Context Tree tools, kept so their consumers
// migrate unchanged.
const (
	FindingRootMissing            FindingCode = "TREE_ROOT_MISSING"
	FindingRootNodeInvalid        FindingCode = "TREE_ROOT_NODE_INVALID"
	FindingRootOnlyFields         FindingCode = "TREE_ROOT_ONLY_FIELDS"
	FindingDirectoryNodeMissing   FindingCode = "TREE_DIRECTORY_NODE_MISSING"
	FindingFrontmatterMissing     FindingCode = "TREE_FRONTMATTER_MISSING"
	FindingFrontmatterParse       FindingCode = "TREE_FRONTMATTER_PARSE"
	FindingTitleMissing           FindingCode = "TREE_TITLE_MISSING"
	FindingTitleInvalid           FindingCode = "TREE_TITLE_INVALID"
	FindingDescriptionInvalid     FindingCode = "TREE_DESCRIPTION_INVALID"
	FindingSoftLinksInvalid       FindingCode = "TREE_SOFT_LINKS_INVALID"
	FindingSoftLinkBroken         FindingCode = "TREE_SOFT_LINK_BROKEN"
	FindingSoftLinkPathEscape     FindingCode = "TREE_SOFT_LINK_PATH_ESCAPE"
	FindingMarkdownLinkPathEscape FindingCode = "TREE_MARKDOWN_LINK_PATH_ESCAPE"
	FindingSymlinkUnsupported     FindingCode = "TREE_SYMLINK_UNSUPPORTED"

	// FindingDocumentUnreadable: a document or directory could not be read
	// (permissions, a name too long for the OS, a file that is not valid
	// UTF-8 text, or one over MaxDocumentBytes).
	FindingDocumentUnreadable FindingCode = "TREE_DOCUMENT_UNREADABLE"
	// FindingNotRegular: a content entry that is neither a regular file, a
	// directory nor a symlink (a FIFO, socket or device).
	FindingNotRegular FindingCode = "TREE_ENTRY_UNSUPPORTED"
	// FindingHardLinkUnsupported: a document with more than one hard link,
	// which read refuses because another link may lie outside the tree.
	FindingHardLinkUnsupported FindingCode = "TREE_HARD_LINK_UNSUPPORTED"
	// FindingMarkdownLinkBroken: a relative Markdown link whose target does
	// not exist. Reported only by `verify --links` (opt-in): S16 checks
	// Markdown links for containment, not existence.
	FindingMarkdownLinkBroken FindingCode = "TREE_MARKDOWN_LINK_BROKEN"
	// FindingLinkFragmentMissing: with --links, a link's #fragment (or a
	// wikilink's #heading) names no heading or anchor of its target
	// document (GitHub's heading ids).
	FindingLinkFragmentMissing FindingCode = "TREE_LINK_FRAGMENT_MISSING"
	// FindingWikilinkBroken: with --links, a [[wikilink]] names no
	// document of the tree by title or file name.
	FindingWikilinkBroken FindingCode = "TREE_WIKILINK_BROKEN"
	// FindingWikilinkAmbiguous: with --links, a [[wikilink]] names
	// several documents.
	FindingWikilinkAmbiguous FindingCode = "TREE_WIKILINK_AMBIGUOUS"
)

// FindingEvidenceInvalid is the one evidence finding plain verify
// reports (sources entries: contracts.EvidenceSource); the others, below,
// come from verify --evidence.
const (
	// FindingEvidenceInvalid: the sources field or one of its entries is
	// not well formed (not a list of mappings, a missing or unclean path,
	// a path that leaves the repository, lines that are not "N" or "N-M"
	// with 1 <= N <= M, a commit or sha256 that is not hex).
	FindingEvidenceInvalid FindingCode = "EVIDENCE_INVALID"
)

// Evidence finding codes of `verify --evidence` (and the hook's
// --evidence), which reads the cited files from git; plain verify reports
// only FindingEvidenceInvalid, from the frontmatter alone.
const (
	// FindingEvidenceMissing: the cited file does not exist at the
	// revision checked (HEAD, --at, or the index).
	FindingEvidenceMissing FindingCode = "EVIDENCE_MISSING"
	// FindingEvidenceRange: the cited line range goes past the file's end.
	FindingEvidenceRange FindingCode = "EVIDENCE_RANGE"
	// FindingEvidenceChanged: the cited lines (or file) no longer have
	// the recorded sha256; the finding carries the old and new digests.
	FindingEvidenceChanged FindingCode = "EVIDENCE_CHANGED"
	// FindingEvidenceUnsupported: the cited path is not a regular file
	// (a symlink, a directory, a submodule), or is a binary file cited by
	// line range.
	FindingEvidenceUnsupported FindingCode = "EVIDENCE_UNSUPPORTED"
	// FindingEvidenceUnavailable: the entry's repository names no declared
	// git source, or one with no synced snapshot, or the cited object is
	// not in its (partial) cache.
	FindingEvidenceUnavailable FindingCode = "EVIDENCE_UNAVAILABLE"
)

// MaxDocumentBytes is the largest Markdown document verification parses.
const MaxDocumentBytes = 8 << 20

// MaxRootBytes is the size limit of a tree's root NODE.md (16 KiB, inclusive).
const MaxRootBytes = 16384

// Finding is one problem found in a tree. Path is tree-relative with "/"
// separators ("." is the root directory); Line is 1-based when known; Target
// is the offending link or soft link as written.
type Finding struct {
	Code    FindingCode `json:"code"`
	Message string      `json:"message"`
	Path    string      `json:"path"`
	Line    int         `json:"line,omitempty"`
	Target  string      `json:"target,omitempty"`
	// Old and New are the recorded and the current sha256 prefix of an
	// EVIDENCE_CHANGED finding.
	Old string `json:"old,omitempty"`
	New string `json:"new,omitempty"`
}
