package contracts

// Session states.
const (
	SessionOpen      = "open"
	SessionCommitted = "committed"
	SessionPublished = "published"
)

// Finish results.
const (
	ResultUnchanged = "unchanged"
	ResultCommitted = "committed"
	ResultPublished = "published"
)

// Session is a write session (S12): an isolated worktree on its own branch,
// started at a committed revision, pinned to one source. It is stored as
// sessions/<id>.json in the machine state and printed by the write commands.
type Session struct {
	ID    string `json:"id"`
	State string `json:"state"`
	// Connection is the pinned source with the exact selector it had when
	// the session was prepared; finish checks the project still declares it.
	Connection  ConnectionRef     `json:"connection"`
	Identity    string            `json:"identity"`
	ProjectRoot string            `json:"projectRoot"`
	Repository  SessionRepository `json:"repository"`
	// Subtree is the tree's repository-relative path ("." for the root).
	Subtree string `json:"subtree"`
	// TargetBranch is where the work is meant to land: the git source's
	// branch, or the branch the checkout was on ("" when detached).
	TargetBranch string `json:"targetBranch,omitempty"`
	Base         string `json:"base"`
	Branch       string `json:"branch"`
	Worktree     string `json:"worktree"`
	ContentRoot  string `json:"contentRoot"`
	// Head is the worktree's current commit when shown ("" if unknown).
	Head string `json:"head,omitempty"`
	// Commit is the session's commit once finished.
	Commit    string `json:"commit,omitempty"`
	CreatedAt string `json:"createdAt"`
}

// SessionRepository pins the repository a session works in: the checkout's
// root (directory sources) or the bare cache (git sources), its git common
// dir and, for git sources, the stored origin URL.
type SessionRepository struct {
	Kind      SourceKind `json:"kind"`
	Root      string     `json:"root"`
	CommonDir string     `json:"commonDir"`
	Origin    string     `json:"origin,omitempty"`
}

// SessionResult is the result of `write prepare`, `write finish`, `write
// abort` and `write show`.
type SessionResult struct {
	SchemaVersion int      `json:"schemaVersion"`
	Session       *Session `json:"session"`
	// Snapshot is, from prepare of a git source, how fresh the snapshot
	// the session starts from is.
	Snapshot *SessionSnapshot `json:"snapshot,omitempty"`
	// Result is what finish did: unchanged, committed or published.
	Result string `json:"result,omitempty"`
	Commit string `json:"commit,omitempty"`
	// Removed is true after abort removed the session.
	Removed bool `json:"removed,omitempty"`
}

// SessionSnapshot describes the snapshot a git source's session starts
// from (issue 13): its commit, that commit's committer date, when the
// branch was last fetched on this machine (absent when unknown) and
// whether that fetch is over an hour old or unknown, so the session may
// start behind upstream and its publication be rejected.
type SessionSnapshot struct {
	Commit      string `json:"commit"`
	CommittedAt string `json:"committedAt,omitempty"`
	SyncedAt    string `json:"syncedAt,omitempty"`
	Stale       bool   `json:"stale"`
}

// SessionList is the result of `write list`.
type SessionList struct {
	SchemaVersion int        `json:"schemaVersion"`
	Sessions      []*Session `json:"sessions"`
}
