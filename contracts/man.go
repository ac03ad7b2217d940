package contracts

// Man page actions.
const (
	ManPrinted   = "printed"
	ManInstalled = "installed"
	ManUnchanged = "unchanged"
)

// ManResult is the result of `man`: the page itself, or where --install
// put it.
type ManResult struct {
	SchemaVersion int    `json:"schemaVersion"`
	Action        string `json:"action"`
	// Page is the man page in roff (action printed).
	Page string `json:"page,omitempty"`
	// Path is the installed page (installed or unchanged).
	Path string `json:"path,omitempty"`
	// Found says whether man, as git runs it for `git context-tree
	// --help`, searches the directory (from MANPATH, or derived from
	// PATH); Hint says what to do when it does not.
	Found bool   `json:"found"`
	Hint  string `json:"hint,omitempty"`
}
