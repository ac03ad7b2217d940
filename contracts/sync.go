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

	// A git source's entry also says what the sync changed (issue 14).
	PreviousCommit *string  `json:"previousCommit"` // the branch's cached commit before (null: none)
	Changed        bool     `json:"changed"`        // the commit differs from previousCommit
	ChangedFiles   *int     `json:"changedFiles"`   // files of the subtree that changed (null: unknown or unchanged)
	FetchedAt      *string  `json:"fetchedAt"`      // the branch's last successful fetch (null: unknown)
	Offline        bool     `json:"offline"`        // cached data only, nothing fetched
	Notes          []string `json:"notes,omitempty"`
	// Rebuilt is true when the snapshot was damaged and sync rebuilt it.
	Rebuilt bool `json:"rebuilt,omitempty"`
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
	type common struct {
		OK         bool             `json:"ok"`
		Connection ConnectionRef    `json:"connection"`
		TreeRoot   string           `json:"treeRoot"`
		Repository *RepositoryState `json:"repository"`
		Dirty      *bool            `json:"dirty"`
	}
	c := common{e.OK, e.Connection, e.TreeRoot, e.Repository, e.Dirty}
	if e.Repository == nil || e.Repository.Repository == "" {
		return json.Marshal(c)
	}
	return json.Marshal(struct {
		common
		PreviousCommit *string  `json:"previousCommit"`
		Changed        bool     `json:"changed"`
		ChangedFiles   *int     `json:"changedFiles"`
		FetchedAt      *string  `json:"fetchedAt"`
		Offline        bool     `json:"offline"`
		Notes          []string `json:"notes,omitempty"`
		Rebuilt        bool     `json:"rebuilt,omitempty"`
	}{c, e.PreviousCommit, e.Changed, e.ChangedFiles, e.FetchedAt, e.Offline, e.Notes, e.Rebuilt})
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
