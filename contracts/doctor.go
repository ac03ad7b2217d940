package contracts

// Doctor check statuses.
const (
	DoctorOK   = "ok"
	DoctorWarn = "warn"
	DoctorFail = "fail"
)

// DoctorResult is the result of `doctor`: every check of this machine's and
// this project's setup. OK is false when a check failed (exit 1); warnings
// leave it true.
type DoctorResult struct {
	SchemaVersion int           `json:"schemaVersion"`
	OK            bool          `json:"ok"`
	Checks        []DoctorCheck `json:"checks"`
	// Fixed lists what `doctor --fix` changed (empty without --fix).
	Fixed []DoctorFix `json:"fixed"`
}

// DoctorCheck is one line of the report. Name is stable ("git.version",
// "hook.path", "state.locks"); scripts match it, never Message.
type DoctorCheck struct {
	Area    string `json:"area"`
	Name    string `json:"name"`
	Status  string `json:"status"`
	Message string `json:"message"`
	// Fix is the exact command that fixes a warn or fail line, when one
	// command can.
	Fix string `json:"fix,omitempty"`
	// Paths are the files or directories the line is about.
	Paths []string `json:"paths,omitempty"`
}

// DoctorFix is one repair `doctor --fix` made.
type DoctorFix struct {
	Check  string `json:"check"`
	Action string `json:"action"`
	Path   string `json:"path"`
}
