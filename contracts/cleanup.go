package contracts

// Cleanup error codes (S19).
const (
	// CodeSchedulerUnsupported: this platform has no supported user
	// scheduler (systemd user timers on Linux, launchd on macOS).
	CodeSchedulerUnsupported ErrorCode = "SCHEDULER_UNSUPPORTED"
	// CodeNoUserScheduler: the platform's scheduler exists but its
	// user manager does not answer (no `systemctl --user`, no gui/<uid>
	// domain); nothing was written. A refusal.
	CodeNoUserScheduler ErrorCode = "SCHEDULER_UNAVAILABLE"
	// CodeSchedulerFailed: systemctl or launchctl failed after the files
	// were written.
	CodeSchedulerFailed ErrorCode = "SCHEDULER_FAILED"
	// CodeScheduleNotFound: no schedule for that source or id.
	CodeScheduleNotFound ErrorCode = "SCHEDULE_NOT_FOUND"
	// CodeAgentNotFound: the agent executable cannot be found.
	CodeAgentNotFound ErrorCode = "AGENT_NOT_FOUND"
	// CodeScheduleExists: the source already has a schedule made from
	// another project; --replace moves it. A refusal.
	CodeScheduleExists ErrorCode = "SCHEDULE_EXISTS"
)

// Schedule actions.
const (
	ScheduleCreated   = "created"
	ScheduleReplaced  = "replaced"
	ScheduleUnchanged = "unchanged"
	ScheduleRemoved   = "removed"
	ScheduleAbsent    = "absent"
	// SchedulePrinted: `schedule --print` rendered the files, installed nothing.
	SchedulePrinted = "printed"
)

// Cleanup run outcomes.
const (
	OutcomeUnchanged   = "unchanged"
	OutcomeNoop        = "noop"
	OutcomeCommitted   = "committed"
	OutcomePublished   = "published"
	OutcomeRejected    = "rejected"
	OutcomeCancelled   = "cancelled"
	OutcomeRunning     = "running"
	OutcomeFailed      = "failed"
	OutcomeInterrupted = "interrupted"
)

// Schedule is a cleanup schedule (S19), stored as schedules/<id>.toml. It
// pins one source (identity and branch) and its publication policy, and
// captures the executables and PATH the scheduler runs with.
type Schedule struct {
	// ID is a digest of the source identity and the branch.
	ID          string        `json:"id" toml:"id"`
	Connection  ConnectionRef `json:"connection" toml:"connection"`
	Identity    string        `json:"identity" toml:"identity"`
	ProjectRoot string        `json:"projectRoot" toml:"project_root"`
	Branch      string        `json:"branch" toml:"branch"`
	// Calendar is the systemd OnCalendar expression; Every or At is what
	// the user asked for.
	Calendar string `json:"calendar" toml:"calendar"`
	Every    string `json:"every,omitempty" toml:"every,omitempty"`
	At       string `json:"at,omitempty" toml:"at,omitempty"`
	// Publish is the publication policy: push (true) or commit only.
	Publish bool `json:"publish" toml:"publish"`
	// Agent names the agent (claude, codex, pi or custom); AgentArgs is
	// its full command line, the executable first as an absolute path.
	Agent     string   `json:"agent" toml:"agent"`
	AgentArgs []string `json:"agentArgs" toml:"agent_args"`
	// Timeout bounds one agent run (a Go duration).
	Timeout string `json:"timeout" toml:"timeout"`
	// Executable and Git are the captured absolute paths of
	// git-context-tree and git; Path the PATH runs get.
	Executable string `json:"executable" toml:"executable"`
	Git        string `json:"git" toml:"git"`
	Path       string `json:"path" toml:"path"`
	// StateDir is the machine state directory the run uses.
	StateDir string `json:"stateDir" toml:"state_dir"`
	// KeepRuns and LogBytes bound the history.
	KeepRuns int `json:"keepRuns" toml:"keep_runs"`
	LogBytes int `json:"logBytes" toml:"log_bytes"`
	// Scheduler is systemd or launchd; Files its unit files or plist.
	Scheduler string   `json:"scheduler" toml:"scheduler"`
	Files     []string `json:"files" toml:"files"`
}

// ScheduleResult is the result of `cleanup schedule` and `cleanup
// unschedule`.
type ScheduleResult struct {
	SchemaVersion int       `json:"schemaVersion"`
	Action        string    `json:"action"`
	Schedule      *Schedule `json:"schedule,omitempty"`
	// Commands are the scheduler commands that were run.
	Commands [][]string `json:"commands"`
	// Orphans are unit files or plists without a schedule record that
	// `unschedule --orphans` removed.
	Orphans []string `json:"orphans,omitempty"`
	// ManagerUpdated is false when `unschedule` removed our files and
	// records but the user manager could not be told (it is unreachable);
	// absent when the manager was told or nothing needed telling.
	ManagerUpdated *bool `json:"managerUpdated,omitempty"`
	// Warnings are things the user should know (lingering off, an
	// unreachable manager).
	Warnings []string `json:"warnings,omitempty"`
	// Printed are the files and crontab line of `schedule --print`.
	Printed *PrintedSchedule `json:"printed,omitempty"`
}

// PrintedSchedule is what `cleanup schedule --print` renders without
// installing anything: the systemd units, the launchd plist and a crontab
// line, each running `cleanup run --schedule <id>`.
type PrintedSchedule struct {
	Files   []PrintedFile `json:"files"`
	Crontab string        `json:"crontab"`
}

// PrintedFile is one rendered file and where it would be installed.
type PrintedFile struct {
	Scheduler string `json:"scheduler"`
	Path      string `json:"path"`
	Content   string `json:"content"`
}

// ScheduleList is the result of `cleanup list` and `cleanup status`.
type ScheduleList struct {
	SchemaVersion int              `json:"schemaVersion"`
	Schedules     []ScheduleStatus `json:"schedules"`
	// Orphans are unit files or plists with our prefix whose record is
	// gone (remove them with `cleanup unschedule --orphans`).
	Orphans []string `json:"orphans"`
	// Unreadable are the schedule records, and the records of listed
	// schedules' last runs, that could not be read.
	Unreadable []UnreadableRecord `json:"unreadable,omitempty"`
}

// UnreadableRecord is a record of the machine state (a cleanup schedule, a
// cleanup run) that a listing could not read: named by the id its file is
// named by, the file's absolute path and the error reading it gave, so
// that one damaged record neither hides the others nor goes unnoticed.
type UnreadableRecord struct {
	ID     string `json:"id"`
	Record string `json:"record"`
	Error  *Error `json:"error"`
}

// ExitCode is 1 when a record could not be read: the rest was listed.
func (r *ScheduleList) ExitCode() int { return exitIf(len(r.Unreadable) > 0) }

// ScheduleStatus is one schedule with its live state.
type ScheduleStatus struct {
	Schedule *Schedule `json:"schedule"`
	// Loaded says whether the scheduler has the timer or job loaded.
	Loaded bool `json:"loaded"`
	// Missing lists captured executables that no longer exist.
	Missing []string   `json:"missing"`
	LastRun *RunRecord `json:"lastRun,omitempty"`
}

// RunRecord is one cleanup run, stored in history/<schedule>/<run>.json.
type RunRecord struct {
	ID         string `json:"id"`
	ScheduleID string `json:"scheduleId"`
	Outcome    string `json:"outcome"`
	StartedAt  string `json:"startedAt"`
	FinishedAt string `json:"finishedAt,omitempty"`
	DurationMs int64  `json:"durationMs"`
	// Input is the digest of the input subtree (the git tree id).
	Input    string `json:"input,omitempty"`
	Session  string `json:"session,omitempty"`
	Worktree string `json:"worktree,omitempty"`
	Commit   string `json:"commit,omitempty"`
	// AgentExit is the agent's exit code (-1 when killed).
	AgentExit *int   `json:"agentExit,omitempty"`
	TimedOut  bool   `json:"timedOut,omitempty"`
	Reason    string `json:"reason,omitempty"`
	Error     *Error `json:"error,omitempty"`
	// Paths are the offending paths of a rejected run.
	Paths []string `json:"paths,omitempty"`
	// OutputBytes is the agent output's size; OutputTruncated says the
	// stored log was cut to the schedule's cap.
	OutputBytes     int64 `json:"outputBytes"`
	OutputTruncated bool  `json:"outputTruncated,omitempty"`
	// AdHoc marks a run started by `cleanup run --agent…` rather than from
	// a schedule record.
	AdHoc bool `json:"adHoc,omitempty"`
	// Owner is the pid of the git-context-tree process running it; AgentPID
	// the agent's pid (its process group) while it runs.
	Owner    int `json:"owner,omitempty"`
	AgentPID int `json:"agentPid,omitempty"`
	// Recovered are the runs a killed process left behind (interrupted,
	// never finished) that this run found, recorded and whose agent it
	// stopped.
	Recovered []string `json:"recovered,omitempty"`
}

// CleanupRunResult is the result of `cleanup run`.
type CleanupRunResult struct {
	SchemaVersion int        `json:"schemaVersion"`
	Run           *RunRecord `json:"run"`
}

// CleanupLogs is the result of `cleanup logs`.
type CleanupLogs struct {
	SchemaVersion int         `json:"schemaVersion"`
	Runs          []RunRecord `json:"runs"`
	// Output is the redacted agent output of the run asked for with --run.
	Output *string `json:"output,omitempty"`
	// Unreadable are the run records that could not be read.
	Unreadable []UnreadableRecord `json:"unreadable,omitempty"`
}

// ExitCode is 1 when a run record could not be read: the rest was listed.
func (r *CleanupLogs) ExitCode() int { return exitIf(len(r.Unreadable) > 0) }
