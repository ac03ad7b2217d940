package contracts

// FixResult is the result of `fix`: for each tree, the files fix writes
// (with --write) or would write, and the findings it cannot repair.
type FixResult struct {
	SchemaVersion int `json:"schemaVersion"`
	// OK is true when no finding remains once the changes are made.
	OK bool `json:"ok"`
	// Written is true when the changes were applied (--write).
	Written bool      `json:"written"`
	Trees   []FixTree `json:"trees"`
	// Next lists the commands to run next.
	Next []NextStep `json:"next,omitempty"`
}

// FixTree is fix's plan for one tree.
type FixTree struct {
	Root     string      `json:"root"`
	Selector string      `json:"selector,omitempty"`
	Changes  []FixChange `json:"changes"`
	// Remaining is what verification still finds once the changes are
	// made: what fix cannot repair.
	Remaining []Finding `json:"remaining"`
	// Skipped lists the tree-relative paths fix left alone because git
	// ignores them.
	Skipped []string `json:"skipped,omitempty"`
	// LinkFindings counts the links that name nothing (verify --links:
	// missing targets, #fragments, wikilinks), which fix does not repair
	// and which do not make a tree invalid.
	LinkFindings int `json:"linkFindings,omitempty"`
}

// FixChange is one file fix creates or rewrites.
type FixChange struct {
	Path    string      `json:"path"`
	Action  string      `json:"action"` // FixCreate or FixUpdate
	Repairs []FixRepair `json:"repairs"`
	// Diff is the change as a unified diff of the file (paths a/<path>
	// and b/<path>, tree-relative).
	Diff string `json:"diff"`
}

// Fix actions.
const (
	FixCreate = "create"
	FixUpdate = "update"
)

// FixRepair is one mechanical repair: the finding it removes and what it does.
type FixRepair struct {
	Code    FindingCode `json:"code"`
	Line    int         `json:"line,omitempty"`
	Message string      `json:"message"`
}

// ExitCode is 1 when findings remain that fix cannot repair.
func (r *FixResult) ExitCode() int { return exitIf(!r.OK) }
