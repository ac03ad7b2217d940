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
// commits and merges: through our shims, or through a hook manager's
// configuration. Hook, Installed, ShimVersion and Chained describe the
// pre-commit hook; Hooks describes every hook.
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
	// Ctxfile: commits refresh and stage the .ctxfile envelope
	// (git config context-tree.ctxfile refresh, set by install --ctxfile).
	Ctxfile bool `json:"ctxfile,omitempty"`
	// Manager is a hook manager in use (husky, lefthook, pre-commit), and
	// Snippet the configuration to add to it instead of installing a shim.
	Manager string `json:"manager,omitempty"`
	Snippet string `json:"snippet,omitempty"`
	// SnippetTarget says where the snippet goes.
	SnippetTarget string `json:"snippetTarget,omitempty"`
	// Reason explains why the check is not effective.
	Reason string `json:"reason,omitempty"`
	// Fix is the command that makes the check effective when it is not
	// (a hook manager's own install when its configuration runs the check
	// already, else hooks install).
	Fix string `json:"fix,omitempty"`
	// Warnings are setups that work but cost: a hook manager that runs
	// the check twice on every commit.
	Warnings []string `json:"warnings,omitempty"`
	// DeclaredTrees counts the directory trees inside this repository that
	// the index's configuration declares, the trees the hook verifies
	// (install and status, when the hooks run the check). With none the
	// check is not effective.
	DeclaredTrees *int `json:"declaredTrees,omitempty"`
	// UncommittedConfig is the work tree's configuration when the index
	// holds none: the hook then verifies the trees it declares, with a
	// warning, but the commit does not declare them.
	UncommittedConfig string `json:"uncommittedConfig,omitempty"`
	// Hooks is every git hook the check runs in: pre-commit (commits,
	// amends, the commit concluding a conflicted merge or cherry-pick),
	// pre-merge-commit (merges), prepare-commit-msg (the commits
	// cherry-pick, revert and rebase make without running pre-commit) and
	// pre-applypatch (git am). Effective above needs the first two.
	Hooks []HookFile `json:"hooks"`
}

// HookFile is one git hook the tree check runs in.
type HookFile struct {
	Name string `json:"name"`
	Path string `json:"path"`
	// Action is what install or uninstall did to this hook: installed,
	// upgraded, unchanged, removed or absent (none for status).
	Action string `json:"action,omitempty"`
	// Installed is true when the hook is our shim (any version).
	Installed   bool   `json:"installed"`
	ShimVersion int    `json:"shimVersion,omitempty"`
	Chained     string `json:"chained,omitempty"`
	// Effective says whether git runs the check in this hook, through our
	// shim or a hook manager's configuration; Reason says why not.
	Effective bool   `json:"effective"`
	Reason    string `json:"reason,omitempty"`
	// Manager is the hook manager that runs the check in this hook.
	Manager string `json:"manager,omitempty"`
}
