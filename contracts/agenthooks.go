package contracts

// Agent-host hooks (`agent-hooks install|uninstall|status <host>`): the
// host runs `git context-tree cites --hook <host>` after the agent reads
// or edits a file, and the documents citing it reach the agent as context.

// Agent hook actions.
const (
	AgentHookInstall   = "install"
	AgentHookUninstall = "uninstall"
	AgentHookStatus    = "status"
)

// AgentHooksResult is the result of every agent-hooks command: the host,
// what was done, the command the hook runs and each settings file looked
// at (install and uninstall: the one they edit; status: the user's and the
// project's).
type AgentHooksResult struct {
	SchemaVersion int                 `json:"schemaVersion"`
	Host          string              `json:"host"`
	Action        string              `json:"action"`
	Command       string              `json:"command"`
	Settings      []AgentHookSettings `json:"settings"`
}

// AgentHookSettings is one settings file: Scope "user" or "project";
// State no-file, absent, current, differs (an older or edited entry) or
// invalid (Message says why); Changed whether this command rewrote it.
type AgentHookSettings struct {
	Scope   string `json:"scope"`
	File    string `json:"file"`
	State   string `json:"state"`
	Changed bool   `json:"changed"`
	Message string `json:"message,omitempty"`
}

// ExitCode is 1 when status finds the hook in no settings file as install
// leaves it, or a file holding an entry that differs.
func (r *AgentHooksResult) ExitCode() int {
	if r.Action != AgentHookStatus {
		return ExitOK
	}
	current := false
	for _, s := range r.Settings {
		switch s.State {
		case "current":
			current = true
		case "differs", "invalid":
			return ExitFailed
		}
	}
	return exitIf(!current)
}
