package contracts

// ConfigFile is the project configuration's file name, at the project root.
const ConfigFile = ".context-tree.json"

// SourceKind tells directory sources from git sources.
type SourceKind string

const (
	SourceDirectory SourceKind = "directory"
	SourceGit       SourceKind = "git"
)

// Config is the project configuration (.context-tree.json), contract
// version 3: exactly schemaVersion and trees.
type Config struct {
	SchemaVersion int      `json:"schemaVersion"`
	Trees         []Source `json:"trees"`
}

// Source declares one tree. A directory source has Kind and Path (relative
// to the project root, or absolute). A git source has Kind, Repository
// ("owner/repo"), Path (the subtree, "." for the whole repository) and Ref
// (an explicit branch).
type Source struct {
	Kind       SourceKind `json:"kind"`
	Repository string     `json:"repository,omitempty"`
	Path       string     `json:"path"`
	Ref        string     `json:"ref,omitempty"`
}

// ProjectRef names the project a command ran in.
type ProjectRef struct {
	Root   string `json:"root"`
	Config string `json:"config"`
	Exists bool   `json:"exists"`
}

// ConnectionRef is a declared source with its generated selectors.
// Selectors are never stored (S6): a schedule record (TOML) keeps the
// source only, and they are generated again when it is read.
type ConnectionRef struct {
	Selector string `json:"selector" toml:"-"`
	Exact    string `json:"exact" toml:"-"`
	// SubtreeSelector is a git source's repository name joined with its
	// subtree (handbook/teams/platform), generated like the others; only
	// for a subtree other than ".", where it would equal Selector.
	SubtreeSelector string `json:"subtreeSelector,omitempty" toml:"-"`
	Source          Source `json:"source"`
}

// ListResult is the result of `list`.
type ListResult struct {
	SchemaVersion int             `json:"schemaVersion"`
	Project       ProjectRef      `json:"project"`
	Connections   []ConnectionRef `json:"connections"`
}

// ConnectionChange is the result of `connect` and `disconnect`. Changed is
// false when the declaration already was as asked (connect is idempotent).
type ConnectionChange struct {
	SchemaVersion int           `json:"schemaVersion"`
	Changed       bool          `json:"changed"`
	Project       ProjectRef    `json:"project"`
	Connection    ConnectionRef `json:"connection"`
	// Warnings are also printed on stderr: a short selector the new source
	// shares with another, a branch connect could not check.
	Warnings []string `json:"warnings,omitempty"`
}

// ResolveResult is the result of `resolve`.
type ResolveResult struct {
	SchemaVersion int          `json:"schemaVersion"`
	Project       ProjectRef   `json:"project"`
	Resolutions   []Resolution `json:"resolutions"`
}

// Resolution is directory resolution (S7) of one connection. ContentRoot is
// the real content root; the repository fields are present when it lies in
// a git checkout, or in a git source's snapshot: that one is Detached (it
// has no .git) and its Branch is the source's. A connection that cannot be
// resolved has OK false and an Error; the others are still resolved.
type Resolution struct {
	OK             bool          `json:"ok"`
	Connection     ConnectionRef `json:"connection"`
	ContentRoot    string        `json:"contentRoot,omitempty"`
	RepositoryRoot string        `json:"repositoryRoot,omitempty"`
	Subtree        string        `json:"subtree,omitempty"`
	Branch         string        `json:"branch,omitempty"`
	Detached       bool          `json:"detached,omitempty"`
	Head           string        `json:"head,omitempty"`
	Dirty          *bool         `json:"dirty,omitempty"`
	Staleness
	Error *Error `json:"error,omitempty"`
}
