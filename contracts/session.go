package contracts

// Session states.
const (
	SessionOpen      = "open"
	SessionCommitted = "committed"
	SessionPublished = "published"
)

// Session statuses: where a session's work stands, derived from its state
// and the repositories whenever it is shown.
const (
	StatusOpen      = "open"      // no commit yet
	StatusCommitted = "committed" // its commit exists only on its branch
	StatusRejected  = "rejected"  // publication was refused: the target moved on
	StatusPublished = "published" // its commit is on the git source's branch
	StatusMerged    = "merged"    // its commit is on the checkout's branch
	// StatusBroken: the session's base or commit is gone from the home
	// repository, so it cannot be finished; its files are kept.
	StatusBroken = "broken"
)

// Finish results.
const (
	ResultUnchanged = "unchanged"
	ResultCommitted = "committed"
	ResultPublished = "published"
	// ResultUpdated: write update moved the session onto the new tip of its
	// target; its work is edits again, for finish to verify and commit.
	ResultUpdated = "updated"
)

// Session is a write session (S12): an isolated worktree on its own branch,
// started at a committed revision, pinned to one source. It is stored as
// sessions/<id>.json in the machine state and printed by the write commands.
type Session struct {
	ID    string `json:"id"`
	State string `json:"state"`
	// Connection is the pinned source with its selectors, generated from
	// Identity when the record is read (the record stores the source only,
	// S6); finish checks the project still declares the identity.
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
	// Message is the message given to the session's last finish (-m); a
	// finish without -m (after write update, say) commits with it again.
	Message string `json:"message,omitempty"`
	// Update is set while `write update` waits for conflicts to be resolved.
	Update *SessionUpdate `json:"update,omitempty"`
	// Rejected is set when a publication was refused as not a fast-forward.
	Rejected bool `json:"rejected,omitempty"`
	// ClosedAt is when the session's worktree and branch were removed
	// because its work is safe elsewhere; the record stays as history.
	ClosedAt string `json:"closedAt,omitempty"`
	// Status is where the work stands, computed when shown (never stored).
	Status string `json:"status,omitempty"`
	// Missing names the parts removed by hand ("worktree", "branch"),
	// computed when shown.
	Missing []string `json:"missing,omitempty"`
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
	// Paths are the repository-relative paths the session's commit changes.
	Paths []string `json:"paths,omitempty"`
	// MessageReused is true when finish, given no -m, committed with the
	// message of the session's earlier finish.
	MessageReused bool `json:"messageReused,omitempty"`
	// Closed is true when finish closed the session after publishing it.
	Closed bool `json:"closed,omitempty"`
}

// SessionUpdate is a `write update` in progress: the session's commit From
// being applied onto Onto, the new tip of its target branch; Conflicts
// are the repository paths whose files hold conflict markers to resolve.
type SessionUpdate struct {
	From      string   `json:"from"`
	Onto      string   `json:"onto"`
	Conflicts []string `json:"conflicts,omitempty"`
}

// SessionPrune is the result of `write prune`: the sessions removed because
// their work is published, merged or empty, and those kept with why.
type SessionPrune struct {
	SchemaVersion int           `json:"schemaVersion"`
	Removed       []*Session    `json:"removed"`
	Kept          []SessionKept `json:"kept"`
	// Unknown are folders among the session worktrees that no record
	// names, kept: the paths of UnknownKept.
	Unknown []string `json:"unknown,omitempty"`
	// UnknownKept are those folders with what keeps each: an agent's
	// edits, or what stops the tool judging them, or only the want of
	// --force.
	UnknownKept []SessionUnknown `json:"unknownKept,omitempty"`
	// UnknownRemoved are such folders removed on request (--force), each
	// judged to hold nothing of its own.
	UnknownRemoved []string `json:"unknownRemoved,omitempty"`
	// Unreadable are the records prune could not read: kept, untouched.
	Unreadable []SessionUnreadable `json:"unreadable,omitempty"`
}

// SessionUnknown is a folder among the session worktrees that no record
// names, which prune kept, with the reason.
type SessionUnknown struct {
	Worktree string `json:"worktree"`
	Reason   string `json:"reason"`
}

// SessionKept is a session prune left alone, with the reason.
type SessionKept struct {
	ID     string `json:"id"`
	Status string `json:"status"`
	Reason string `json:"reason"`
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
	// Unknown are folders among the session worktrees that no record
	// names (see SessionPrune).
	Unknown []string `json:"unknown,omitempty"`
	// Unreadable are the records that could not be read; the sessions
	// that could are listed all the same.
	Unreadable []SessionUnreadable `json:"unreadable,omitempty"`
}

// SessionUnreadable is a session record that cannot be read (not JSON,
// lacking a required part, a symlink): named by its session id (the file's
// name), the record's absolute path and the error reading it gave, so that
// one damaged record neither hides the other sessions nor goes unnoticed,
// and the user can repair or remove it. Worktree is the session's folder
// when it exists: the files an agent left there are kept.
type SessionUnreadable struct {
	ID       string `json:"id"`
	Record   string `json:"record"`
	Worktree string `json:"worktree,omitempty"`
	Error    *Error `json:"error"`
}

// ExitCode is 1 when a session record could not be read: what could be
// read was listed (DESIGN §3, as sync's failed entries).
func (r *SessionList) ExitCode() int { return exitIf(len(r.Unreadable) > 0) }

// ExitCode is 1 when a session record could not be read: its session was
// kept, and every other one pruned or kept as usual.
func (r *SessionPrune) ExitCode() int { return exitIf(len(r.Unreadable) > 0) }
