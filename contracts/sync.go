package contracts

import "encoding/json"

// SyncResult is the result of `sync` (S10). One source's failure keeps the
// others' results; a configuration failure fails the whole request instead.
type SyncResult struct {
	SchemaVersion int         `json:"schemaVersion"`
	Connections   []SyncEntry `json:"connections"`
	// Prune is what pruning freed when sync pruned (--prune, or more old
	// snapshots than CONTEXT_TREE_AUTO_PRUNE allows).
	Prune *GCReport `json:"prune,omitempty"`
}

// SyncEntry is one source after sync: {ok: true, connection, treeRoot,
// repository, dirty} or {ok: false, connection, error} (S10). A successful
// entry always has repository and dirty: both null for a directory outside
// git (Repository and Dirty nil).
type SyncEntry struct {
	OK         bool             `json:"ok"`
	Connection ConnectionRef    `json:"connection"`
	TreeRoot   string           `json:"treeRoot,omitempty"`
	Repository *RepositoryState `json:"repository,omitempty"`
	Dirty      *bool            `json:"dirty,omitempty"`
	Error      *Error           `json:"error,omitempty"`
}

// MarshalJSON writes exactly the keys of the entry's shape, so that a
// successful entry has "repository" and "dirty" even when they are null.
func (e SyncEntry) MarshalJSON() ([]byte, error) {
	if !e.OK {
		return json.Marshal(struct {
			OK         bool          `json:"ok"`
			Connection ConnectionRef `json:"connection"`
			Error      *Error        `json:"error"`
		}{e.OK, e.Connection, e.Error})
	}
	return json.Marshal(struct {
		OK         bool             `json:"ok"`
		Connection ConnectionRef    `json:"connection"`
		TreeRoot   string           `json:"treeRoot"`
		Repository *RepositoryState `json:"repository"`
		Dirty      *bool            `json:"dirty"`
	}{e.OK, e.Connection, e.TreeRoot, e.Repository, e.Dirty})
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
