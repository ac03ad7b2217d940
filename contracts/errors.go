package contracts

import "fmt"

// ErrorCode is a stable UPPER_SNAKE identifier of a failure. Scripts match
// codes, never messages.
type ErrorCode string

// Error codes. Each has one exit code, given by ExitCode.
const (
	// Usage and internal.
	CodeUsage          ErrorCode = "USAGE"
	CodeInternal       ErrorCode = "INTERNAL"
	CodeIO             ErrorCode = "IO_ERROR"
	CodeSchemaNotFound ErrorCode = "SCHEMA_NOT_FOUND"
	CodeGit            ErrorCode = "GIT_FAILED"
	// CodePlatformUnsupported: the binary was built for an operating
	// system the tool does not run on (only Linux and macOS; see
	// docs/decisions.md). Every command fails with it.
	CodePlatformUnsupported ErrorCode = "PLATFORM_UNSUPPORTED"

	// Tree roots and trees.
	CodeNotATree     ErrorCode = "NOT_A_TREE"
	CodeRootSymlink  ErrorCode = "TREE_ROOT_SYMLINK"
	CodeTreeNotFound ErrorCode = "TREE_NOT_FOUND"
	CodeTreeInvalid  ErrorCode = "TREE_INVALID"
	CodeTreeExists   ErrorCode = "TREE_EXISTS"
	// CodeFixUnsupported: fix was pointed at a tree it must not write (a
	// git source's snapshot; edit it in a write session).
	CodeFixUnsupported ErrorCode = "FIX_UNSUPPORTED"
	// CodeFixConflict: a file fix planned to write changed before it was
	// written; nothing was written.
	CodeFixConflict ErrorCode = "FIX_CONFLICT"

	// Indexed reads.
	CodeReadNotFound       ErrorCode = "READ_NOT_FOUND"
	CodeReadPathEscape     ErrorCode = "READ_PATH_ESCAPE"
	CodeReadSymlink        ErrorCode = "READ_SYMLINK"
	CodeReadInfrastructure ErrorCode = "READ_INFRASTRUCTURE"
	CodeReadNotMarkdown    ErrorCode = "READ_NOT_MARKDOWN"
	CodeReadNotRegular     ErrorCode = "READ_NOT_REGULAR"
	CodeReadTooLarge       ErrorCode = "READ_TOO_LARGE"

	// Project configuration, connections and selectors.
	CodeConfigInvalid     ErrorCode = "CONFIG_INVALID"
	CodeSourceInvalid     ErrorCode = "SOURCE_INVALID"
	CodeSelectorAmbiguous ErrorCode = "SELECTOR_AMBIGUOUS"
	CodeSelectorNotFound  ErrorCode = "SELECTOR_NOT_FOUND"
	CodeLockHeld          ErrorCode = "LOCK_HELD"
	CodeNotSynced         ErrorCode = "NOT_SYNCED"

	// Machine state, caches, snapshots and sync.
	CodeStateInvalid    ErrorCode = "STATE_INVALID"
	CodeCacheMissing    ErrorCode = "CACHE_MISSING"
	CodeOriginMismatch  ErrorCode = "ORIGIN_MISMATCH"
	CodeSnapshotCorrupt ErrorCode = "SNAPSHOT_CORRUPT"
	// CodeCacheTampered: a cache's ref of a branch is not where the tool
	// last fetched or published it (recorded outside the cache); nothing
	// is read from, started on or published from it until an online sync.
	CodeCacheTampered  ErrorCode = "CACHE_TAMPERED"
	CodeNestedRepo     ErrorCode = "NESTED_REPOSITORY"
	CodeSubtreeMissing ErrorCode = "SUBTREE_NOT_FOUND"
	CodeBranchNotFound ErrorCode = "BRANCH_NOT_FOUND"
	// CodeRefNotFound: connect asked the remote, which has no such branch
	// (a refusal: nothing is declared; --offline declares without asking).
	CodeRefNotFound ErrorCode = "REF_NOT_FOUND"
	CodeFetchFailed ErrorCode = "FETCH_FAILED"

	// Write sessions and publication.
	CodeNoRepository    ErrorCode = "NO_REPOSITORY"
	CodeSubtreeDirty    ErrorCode = "SUBTREE_DIRTY"
	CodeSessionNotFound ErrorCode = "SESSION_NOT_FOUND"
	CodeSessionStale    ErrorCode = "SESSION_STALE"
	CodeSessionMoved    ErrorCode = "SESSION_MOVED"
	// CodeSessionTampered: the session's .git holds something the tool
	// never writes (commondir, gitdir, worktrees/, another alternate, a
	// configuration key); details name the file and the entry.
	CodeSessionTampered    ErrorCode = "SESSION_TAMPERED"
	CodeSessionNotEmpty    ErrorCode = "SESSION_NOT_EMPTY"
	CodePathOutsideTree    ErrorCode = "PATH_OUTSIDE_TREE"
	CodeIgnoredContent     ErrorCode = "IGNORED_CONTENT"
	CodeHiddenContent      ErrorCode = "HIDDEN_CONTENT"
	CodeUpdateRefused      ErrorCode = "UPDATE_REFUSED"
	CodeUpdateConflict     ErrorCode = "UPDATE_CONFLICT"
	CodeIdentityMissing    ErrorCode = "GIT_IDENTITY_MISSING"
	CodePublishUnsupported ErrorCode = "PUBLISH_UNSUPPORTED"
	CodePublishRejected    ErrorCode = "PUBLISH_REJECTED"
	CodePushFailed         ErrorCode = "PUSH_FAILED"
)

// CodeEvidenceUnresolved: evidence stamp cannot stamp an entry (it is
// malformed, its file was deleted, its cited lines were all removed, or
// its repository is not synced); nothing was written (a refusal).
const CodeEvidenceUnresolved ErrorCode = "EVIDENCE_UNRESOLVED"

// CodeMessageSecret: write finish -m was given a commit message that a
// secret rule matches; nothing was committed (a refusal).
const CodeMessageSecret ErrorCode = "COMMIT_MESSAGE_SECRET"

// CodeSessionTooLarge: a write session's work tree adds a file, or files
// in all, over the size a session may add (git config
// context-tree.sessionMaxFileSize, context-tree.sessionMaxSize); details
// name the path (for a file), its bytes, the limit and the setting.
// Nothing was hashed into the repository (a refusal).
const CodeSessionTooLarge ErrorCode = "SESSION_TOO_LARGE"

// CodeIDAmbiguous: an id prefix names several sessions or cleanup runs;
// details.candidates lists their full ids (a refusal).
const CodeIDAmbiguous ErrorCode = "ID_AMBIGUOUS"

// CodeInitRepositoryRoot: init was run without a directory at the root of
// a git repository holding code, which it would adopt whole; details name
// the folder to init instead (a refusal).
const CodeInitRepositoryRoot ErrorCode = "INIT_REPOSITORY_ROOT"

// CodeRepositoryNotFound: connect asked for a repository whose address
// git rewrites (url.<base>.insteadOf) to a local path that does not exist
// (a refusal: nothing is declared; --offline declares without asking). Over
// the network git cannot tell a missing repository from an unreachable one
// by its exit status, and connect only warns.
const CodeRepositoryNotFound ErrorCode = "REPOSITORY_NOT_FOUND"

// Exit codes (DESIGN §3). A refusal (ExitRefused) means a precondition does
// not hold and nothing was changed.
const (
	ExitOK      = 0
	ExitFailed  = 1
	ExitRefused = 3
	ExitFatal   = 128
	ExitUsage   = 129
	ExitSignal  = 130
)

var refusals = map[ErrorCode]bool{
	CodeTreeExists:         true,
	CodeFixUnsupported:     true,
	CodeFixConflict:        true,
	CodeSelectorAmbiguous:  true,
	CodeLockHeld:           true,
	CodeNoRepository:       true,
	CodeSubtreeDirty:       true,
	CodeSessionStale:       true,
	CodeSessionMoved:       true,
	CodeSessionTampered:    true,
	CodeSessionNotEmpty:    true,
	CodePathOutsideTree:    true,
	CodeIgnoredContent:     true,
	CodeHiddenContent:      true,
	CodeUpdateRefused:      true,
	CodeIDAmbiguous:        true,
	CodeSessionTooLarge:    true,
	CodeUpdateConflict:     true,
	CodePublishUnsupported: true,
	CodePublishRejected:    true,
	CodeHookForeign:        true,
	CodeHooksPathOutside:   true,
	CodeSkillsPathUnsafe:   true,
	CodeNoUserScheduler:    true,
	CodeScheduleExists:     true,
	CodeRefNotFound:        true,
	CodeHostConfigInvalid:  true,
	CodeEvidenceUnresolved: true,
	CodeSiteOutputForeign:  true,
	CodeEvalSetChanged:     true,
	CodeMessageSecret:      true,
	CodeInitRepositoryRoot: true,
	CodeRepositoryNotFound: true,
	// A submodule or nested repository in a tree: finish refuses the
	// session as it refuses ignored or hidden content, and sync or read
	// refuse the fetched subtree; nothing is changed either way.
	CodeNestedRepo: true,
}

// ExitCode is the process exit code the CLI uses for an error with this code.
func (c ErrorCode) ExitCode() int {
	switch {
	case c == CodeUsage:
		return ExitUsage
	case c == CodeTreeInvalid:
		return ExitFailed
	case refusals[c]:
		return ExitRefused
	default:
		return ExitFatal
	}
}

// Error is the error object of the CLI's error envelope. It is also the Go
// error every layer returns for an expected failure, so the code survives
// wrapping with fmt.Errorf("…: %w").
type Error struct {
	Code    ErrorCode      `json:"code"`
	Message string         `json:"message"`
	Details map[string]any `json:"details,omitempty"`
}

func (e *Error) Error() string { return e.Message }

// Errorf builds an *Error with a formatted message.
func Errorf(code ErrorCode, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// WithDetails returns e with details set (for chaining at construction).
func (e *Error) WithDetails(details map[string]any) *Error {
	e.Details = details
	return e
}

// ErrorEnvelope is what `--json` prints on stdout when a command fails.
type ErrorEnvelope struct {
	SchemaVersion int    `json:"schemaVersion"`
	OK            bool   `json:"ok"`
	Error         *Error `json:"error"`
}
