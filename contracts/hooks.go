package contracts

// Hook actions.
const (
	HookInstalled = "installed"
	HookUpgraded  = "upgraded"
	HookUnchanged = "unchanged"
	HookRemoved   = "removed"
	HookAbsent    = "absent"
	HookDelegated = "delegated"
	HookStatus    = "status"
)

// Hook refusals.
const (
	CodeHookForeign      ErrorCode = "HOOK_FOREIGN"
	CodeHooksPathOutside ErrorCode = "HOOKS_PATH_OUTSIDE"
)

// HooksResult is the result of `hooks install`, `hooks uninstall` and
// `hooks status`. Effective says whether git will run the tree check on
// commit: through our shim, or through a hook manager's configuration.
type HooksResult struct {
	SchemaVersion int    `json:"schemaVersion"`
	Action        string `json:"action"`
	HooksDir      string `json:"hooksDir"`
	Hook          string `json:"hook"`
	Installed     bool   `json:"installed"`
	Effective     bool   `json:"effective"`
	// ShimVersion is the installed shim's version (0 when none).
	ShimVersion int `json:"shimVersion,omitempty"`
	// Chained is the previous hook kept as pre-commit.local and run first.
	Chained string `json:"chained,omitempty"`
	// Manager is a hook manager in use (husky, lefthook, pre-commit), and
	// Snippet the configuration to add to it instead of installing a shim.
	Manager string `json:"manager,omitempty"`
	Snippet string `json:"snippet,omitempty"`
	// Reason explains why the check is not effective.
	Reason string `json:"reason,omitempty"`
}
