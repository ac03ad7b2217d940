package contracts

// Report is a command result that can itself be a failed check: the
// command prints it in full and then exits with ExitCode (DESIGN §3: 1
// "a check failed and its full report was printed"). Deciding the code
// here, beside the result's fields, keeps text and JSON output and every
// caller agreeing on it.
type Report interface {
	ExitCode() int
}

var (
	_ Report = (*VerifyReport)(nil)
	_ Report = (*ResolveResult)(nil)
	_ Report = (*SyncResult)(nil)
	_ Report = (*HooksResult)(nil)
	_ Report = (*SkillsListResult)(nil)
	_ Report = (*CleanupRunResult)(nil)
	_ Report = (*DoctorResult)(nil)
	_ Report = (*GCResult)(nil)
	_ Report = (*FixResult)(nil)
	_ Report = (*DriftReport)(nil)
	_ Report = (*AgentHooksResult)(nil)
	_ Report = (*SessionList)(nil)
	_ Report = (*SessionPrune)(nil)
	_ Report = (*ScheduleList)(nil)
	_ Report = (*CleanupLogs)(nil)
)

// exitIf is ExitFailed when failed, else ExitOK.
func exitIf(failed bool) int {
	if failed {
		return ExitFailed
	}
	return ExitOK
}

// ExitCode is 1 when any tree has findings (OK false); skipped git sources
// without a snapshot do not fail verification.
func (r *VerifyReport) ExitCode() int { return exitIf(!r.OK) }

// ExitCode is 1 when any source could not be resolved.
func (r *ResolveResult) ExitCode() int {
	for _, e := range r.Resolutions {
		if !e.OK {
			return ExitFailed
		}
	}
	return ExitOK
}

// ExitCode is 1 when any source failed to sync, or a repository it
// pruned could not be pruned.
func (r *SyncResult) ExitCode() int {
	for _, e := range r.Connections {
		if !e.OK {
			return ExitFailed
		}
	}
	return exitIf(r.Prune.failed())
}

// ExitCode is 1 when `hooks status` finds that git will not run the tree
// check on commit. Install and uninstall report what they did and exit 0:
// a hook delegated to a manager's configuration is not a failure of theirs.
func (r *HooksResult) ExitCode() int {
	return exitIf(r.Action == HookStatus && !r.Effective)
}

// Stale counts the installed skills `skills install` would replace.
func (r *SkillsListResult) Stale() int {
	n := 0
	for _, l := range r.Locations {
		for _, s := range l.Skills {
			if s.Status == SkillStale {
				n++
			}
		}
	}
	return n
}

// ExitCode is 1 when any installed skill is stale.
func (r *SkillsListResult) ExitCode() int { return exitIf(r.Stale() > 0) }

// ExitCode is the run's outcome as an exit code: 0 when the run finished
// (with or without a change), ExitRefused when another run holds the
// schedule's lock (nothing was done), ExitFailed otherwise (rejected,
// cancelled, failed, interrupted: the record says why).
func (r *CleanupRunResult) ExitCode() int {
	if r.Run == nil {
		return ExitFatal
	}
	switch r.Run.Outcome {
	case OutcomeUnchanged, OutcomeNoop, OutcomeCommitted, OutcomePublished:
		return ExitOK
	case OutcomeRunning:
		return ExitRefused
	default:
		return ExitFailed
	}
}

// ExitCode is 1 when any doctor check failed; warnings pass.
func (r *DoctorResult) ExitCode() int { return exitIf(!r.OK) }
