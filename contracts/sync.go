package contracts

// SyncResult is the result of `sync` (S10). One source's failure keeps the
// others' results; a configuration failure fails the whole request instead.
type SyncResult struct {
	SchemaVersion int         `json:"schemaVersion"`
	Connections   []SyncEntry `json:"connections"`
}

// SyncEntry is one source after sync: {ok: true, connection, treeRoot,
// repository, dirty} or {ok: false, connection, error}. Repository and Dirty
// are absent for a directory outside git.
type SyncEntry struct {
	OK         bool             `json:"ok"`
	Connection ConnectionRef    `json:"connection"`
	TreeRoot   string           `json:"treeRoot,omitempty"`
	Repository *RepositoryState `json:"repository,omitempty"`
	Dirty      *bool            `json:"dirty,omitempty"`
	Error      *Error           `json:"error,omitempty"`
}

// RepositoryState is the repository a tree was resolved from. For a git
// source: its identity, branch, the commit of the snapshot, the snapshot
// and the cache. For a directory source in a checkout: the checkout root,
// branch (or detached) and HEAD.
type RepositoryState struct {
	Repository string `json:"repository,omitempty"`
	Root       string `json:"root,omitempty"`
	Subtree    string `json:"subtree"`
	Branch     string `json:"branch,omitempty"`
	Detached   bool   `json:"detached,omitempty"`
	Commit     string `json:"commit,omitempty"`
	Snapshot   string `json:"snapshot,omitempty"`
	Cache      string `json:"cache,omitempty"`
}
