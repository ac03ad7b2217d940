package contracts

// Error codes of agent skill installation.
const (
	// CodeSkillsPathUnsafe: a symlink or a non-directory lies on the way to a
	// skills directory; nothing was written (refused, exit 3).
	CodeSkillsPathUnsafe ErrorCode = "SKILLS_PATH_UNSAFE"
	// CodeSkillsHomeUnknown: HOME is unset or not a directory, so the
	// coding agents' directories cannot be found (fatal).
	CodeSkillsHomeUnknown ErrorCode = "SKILLS_HOME_UNKNOWN"
)

// Installed skill states reported by `skills list`.
const (
	// SkillCurrent: the skill is exactly what this binary installs.
	SkillCurrent = "current"
	// SkillStale: a versioned context-tree-* skill that `skills install`
	// would replace or remove (another version, other content, or a skill
	// this binary no longer ships).
	SkillStale = "stale"
	// SkillUnknown: a context-tree-* entry without a readable
	// metadata.version (a foreign skill, a symlink, not a directory).
	SkillUnknown = "unknown"
)

// SkillsTarget is one skills directory that `skills install` or `skills
// uninstall` wrote (or, with --dry-run, would write).
type SkillsTarget struct {
	// Host names the directory: claude, agents (the shared ~/.agents/skills
	// or <project>/.agents/skills) or cursor.
	Host string `json:"host"`
	// Hosts are the coding agents that read it.
	Hosts []string `json:"hosts"`
	Path  string   `json:"path"`
	// Skills are the skills installed (install) or removed (uninstall).
	Skills []string `json:"skills"`
	// Removed are other context-tree-* entries install removed (it owns
	// the prefix).
	Removed []string `json:"removed,omitempty"`
	// Changed is false when the directory already was as requested.
	Changed bool `json:"changed"`
}

// SkippedHost is a coding agent that got nothing, with the reason.
type SkippedHost struct {
	Host   string `json:"host"`
	Reason string `json:"reason"`
}

// SkillsInstallResult is the result of `skills install`.
type SkillsInstallResult struct {
	SchemaVersion int            `json:"schemaVersion"`
	Version       string         `json:"version"`
	DryRun        bool           `json:"dryRun,omitempty"`
	Installed     []SkillsTarget `json:"installed"`
	Skipped       []SkippedHost  `json:"skipped"`
}

// SkillsUninstallResult is the result of `skills uninstall`.
type SkillsUninstallResult struct {
	SchemaVersion int            `json:"schemaVersion"`
	Version       string         `json:"version"`
	DryRun        bool           `json:"dryRun,omitempty"`
	Uninstalled   []SkillsTarget `json:"uninstalled"`
	Skipped       []SkippedHost  `json:"skipped"`
}

// SkillsListResult is the result of `skills list`: every skills directory
// a detected host reads, with the context-tree-* entries in it.
type SkillsListResult struct {
	SchemaVersion int              `json:"schemaVersion"`
	Version       string           `json:"version"`
	Locations     []SkillsLocation `json:"locations"`
	Skipped       []SkippedHost    `json:"skipped"`
}

// SkillsLocation is one skills directory and its context-tree-* entries.
type SkillsLocation struct {
	Host  string   `json:"host"`
	Hosts []string `json:"hosts"`
	Path  string   `json:"path"`
	// Install is false for a directory install does not write (Cursor's
	// own when Cursor reads Claude Code's).
	Install bool             `json:"install"`
	Skills  []InstalledSkill `json:"skills"`
}

// InstalledSkill is one context-tree-* entry of a skills directory.
type InstalledSkill struct {
	Name    string `json:"name"`
	Path    string `json:"path"`
	Version string `json:"version,omitempty"`
	Status  string `json:"status"`
	Reason  string `json:"reason,omitempty"`
}
