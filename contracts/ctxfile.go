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

// Ctxfile sections this tool can produce (the convention names more:
// plan, notionPages, sessions, sessionSummary).
const (
	SectionGitState = "gitState"
	SectionKeyFiles = "keyFiles"
)

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

// CtxfileContext is the envelope's camelCase context object. Sections not
// listed in the envelope's sections are absent.
type CtxfileContext struct {
	Meta     CtxfileMeta      `json:"meta"`
	GitState *CtxfileGitState `json:"gitState,omitempty"`
	KeyFiles []CtxfileKeyFile `json:"keyFiles,omitzero"`
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
	Path      string `json:"path,omitempty"`
	Title     string `json:"title"`
	Commit    string `json:"commit,omitempty"`
	Dirty     *bool  `json:"dirty,omitempty"`
	Documents int    `json:"documents"`
	Tokens    int    `json:"tokens"`
}

// CtxfileKeyFile is one document in the manifest. Path is relative to the
// project root when the tree lies inside it, else to the tree root.
type CtxfileKeyFile struct {
	Path       string `json:"path"`
	Tree       string `json:"tree"`
	Title      string `json:"title"`
	Class      Class  `json:"class"`
	Tokens     int    `json:"tokens"`
	Truncated  bool   `json:"truncated"`
	Redactions int    `json:"redactions"`
	// Body is the document without frontmatter, redacted (profile full).
	Body *string `json:"body,omitempty"`
}

// CtxfileGitState is the project checkout's state.
type CtxfileGitState struct {
	Branch   *string `json:"branch"` // null when detached
	Head     string  `json:"head,omitempty"`
	Upstream string  `json:"upstream,omitempty"`
	Ahead    *int    `json:"ahead,omitempty"`
	Behind   *int    `json:"behind,omitempty"`
	Dirty    bool    `json:"dirty"`
}
