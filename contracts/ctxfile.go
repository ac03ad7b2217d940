package contracts

// CtxfileSchema is the version of the .ctxfile envelope this tool writes.
// Its snake_case keys are frozen by the .ctxfile convention: fields are
// never renamed or removed; anything breaking bumps it.
const CtxfileSchema = "1"

// Ctxfile profiles: what the envelope may carry.
const (
	ProfileRepoSafe = "repo-safe" // manifest only, no bodies (default)
	ProfileFull     = "full"      // adds document bodies
	ProfileCustom   = "custom"    // sections from .ctxfile.json export.include
)

// Ctxfile sections: the convention's names. This tool has no plan, Notion
// pages, sessions or notes: those members are null or empty when listed.
const (
	SectionPlan           = "plan"
	SectionGitState       = "gitState"
	SectionKeyFiles       = "keyFiles"
	SectionKeyFileContent = "keyFileContent"
	SectionNotionPages    = "notionPages"
	SectionSessions       = "sessions"
	SectionSessionSummary = "sessionSummary"
	SectionNotes          = "notes"
	SectionNoteContent    = "noteContent"
)

// CtxfileSections are the convention's section names, in envelope order.
var CtxfileSections = []string{SectionPlan, SectionGitState, SectionKeyFiles, SectionKeyFileContent, SectionNotionPages,
	SectionSessions, SectionSessionSummary, SectionNotes, SectionNoteContent}

// CtxfileEnvelope is .ctxfile/context.json (`git context-tree schema
// ctxfile`). Absolute paths never appear in it.
type CtxfileEnvelope struct {
	CtxfileSchema       string  `json:"ctxfile_schema"`
	CtxfileVersion      string  `json:"ctxfile_version"`
	Profile             string  `json:"profile"`
	GeneratedAt         string  `json:"generated_at"`
	SnapshotGeneratedAt string  `json:"snapshot_generated_at"`
	GitSHA              *string `json:"git_sha"`
	// RootName is the project directory's basename.
	RootName string         `json:"root_name"`
	Sections []string       `json:"sections"`
	Context  CtxfileContext `json:"context"`
}

// CtxfileContext is the envelope's camelCase context object, with every
// member the convention's producer types (a reader typed from them
// accepts it): plan and sessionSummary are null, notionPages empty, and a
// section not listed in the envelope's sections is null or empty.
type CtxfileContext struct {
	Meta           CtxfileMeta      `json:"meta"`
	Plan           *string          `json:"plan"`
	KeyFiles       []CtxfileKeyFile `json:"keyFiles"`
	GitState       *CtxfileGitState `json:"gitState"`
	NotionPages    []any            `json:"notionPages"`
	SessionSummary *string          `json:"sessionSummary"`
}

// CtxfileMeta says what produced the context and from which trees.
type CtxfileMeta struct {
	Tool        string        `json:"tool"`
	ToolVersion string        `json:"toolVersion"`
	Encoding    string        `json:"encoding"`
	Trees       []CtxfileTree `json:"trees"`
	// Commit is the project checkout's HEAD (the envelope's git_sha);
	// Dirty whether any exported tree had uncommitted changes.
	Commit *string `json:"commit"`
	Dirty  bool    `json:"dirty"`
}

// CtxfileTree is one exported tree.
type CtxfileTree struct {
	// Selector is the short selector; Exact the exact one only when it is
	// a URL (a directory's exact selector is an absolute path).
	Selector string `json:"selector"`
	Exact    string `json:"exact,omitempty"`
	// Path is the tree root relative to the project root, when inside it.
	Path string `json:"path,omitempty"`
	// Prefix begins the keyFiles paths of the tree's documents: its path
	// in the project, or for a git source its repository's name.
	Prefix    string `json:"prefix"`
	Title     string `json:"title"`
	Commit    string `json:"commit,omitempty"`
	Dirty     *bool  `json:"dirty,omitempty"`
	Documents int    `json:"documents"`
	Tokens    int    `json:"tokens"`
}

// CtxfileKeyFile is one document in the manifest. Path is relative to the
// project's repository root: the tree's prefix joined with the document's
// path in the tree.
type CtxfileKeyFile struct {
	Path       string `json:"path"`
	Tree       string `json:"tree"`
	Title      string `json:"title"`
	Class      Class  `json:"class"`
	Tokens     int    `json:"tokens"`
	Truncated  bool   `json:"truncated"`
	Redactions int    `json:"redactions"`
	// Content is the document without frontmatter, redacted (section
	// keyFileContent: profile full, or custom naming it).
	Content *string `json:"content,omitempty"`
}

// CtxfileGitState is the project checkout's state, as the convention's
// producer types it (branch, ahead, behind, the staged, modified and
// untracked paths, the last commits, a diff summary), plus head, upstream
// and dirty. Paths are repository-relative; .ctxfile/ itself is left out.
type CtxfileGitState struct {
	Branch      *string         `json:"branch"` // null when detached
	Ahead       int             `json:"ahead"`  // 0 without an upstream
	Behind      int             `json:"behind"`
	Staged      []string        `json:"staged"`
	Modified    []string        `json:"modified"`
	Untracked   []string        `json:"untracked"`
	Commits     []CtxfileCommit `json:"commits"`
	DiffSummary string          `json:"diffSummary"`
	Head        string          `json:"head,omitempty"`
	Upstream    string          `json:"upstream,omitempty"`
	Dirty       bool            `json:"dirty"`
}

// CtxfileCommit is one of the last commits: full hash, subject
// (redacted), author name and author date (RFC 3339).
type CtxfileCommit struct {
	Hash    string `json:"hash"`
	Message string `json:"message"`
	Author  string `json:"author"`
	Date    string `json:"date"`
}
