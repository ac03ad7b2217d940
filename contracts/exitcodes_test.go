package contracts

import "testing"

func TestReportExitCodes(t *testing.T) {
	for _, tc := range []struct {
		name string
		r    Report
		want int
	}{
		{"verify ok", &VerifyReport{OK: true}, ExitOK},
		{"verify findings", &VerifyReport{OK: false}, ExitFailed},
		{"resolve ok", &ResolveResult{Resolutions: []Resolution{{OK: true}}}, ExitOK},
		{"resolve one failed", &ResolveResult{Resolutions: []Resolution{{OK: true}, {OK: false}}}, ExitFailed},
		{"resolve none", &ResolveResult{}, ExitOK},
		{"sync ok", &SyncResult{Connections: []SyncEntry{{OK: true}}}, ExitOK},
		{"sync one failed", &SyncResult{Connections: []SyncEntry{{OK: false}, {OK: true}}}, ExitFailed},
		{"hooks status effective", &HooksResult{Action: HookStatus, Effective: true}, ExitOK},
		{"hooks status not effective", &HooksResult{Action: HookStatus}, ExitFailed},
		{"hooks install delegated", &HooksResult{Action: HookDelegated}, ExitOK},
		{"hooks uninstall", &HooksResult{Action: HookRemoved}, ExitOK},
		{"skills current", &SkillsListResult{Locations: []SkillsLocation{{Skills: []InstalledSkill{{Status: SkillCurrent}, {Status: SkillUnknown}}}}}, ExitOK},
		{"skills stale", &SkillsListResult{Locations: []SkillsLocation{{}, {Skills: []InstalledSkill{{Status: SkillStale}}}}}, ExitFailed},
		{"cleanup published", &CleanupRunResult{Run: &RunRecord{Outcome: OutcomePublished}}, ExitOK},
		{"cleanup noop", &CleanupRunResult{Run: &RunRecord{Outcome: OutcomeNoop}}, ExitOK},
		{"cleanup running", &CleanupRunResult{Run: &RunRecord{Outcome: OutcomeRunning}}, ExitRefused},
		{"cleanup rejected", &CleanupRunResult{Run: &RunRecord{Outcome: OutcomeRejected}}, ExitFailed},
		{"cleanup interrupted", &CleanupRunResult{Run: &RunRecord{Outcome: OutcomeInterrupted}}, ExitFailed},
		{"cleanup no record", &CleanupRunResult{}, ExitFatal},
		{"fix nothing left", &FixResult{OK: true}, ExitOK},
		{"fix findings remain", &FixResult{OK: false}, ExitFailed},
		{"write list all read", &SessionList{Sessions: []*Session{{}}}, ExitOK},
		{"write list a record unreadable", &SessionList{Sessions: []*Session{{}}, Unreadable: []SessionUnreadable{{}}}, ExitFailed},
		{"write prune all read", &SessionPrune{Kept: []SessionKept{{}}}, ExitOK},
		{"write prune a record unreadable", &SessionPrune{Unreadable: []SessionUnreadable{{}}}, ExitFailed},
		{"cleanup list all read", &ScheduleList{Schedules: []ScheduleStatus{{}}}, ExitOK},
		{"cleanup list a record unreadable", &ScheduleList{Unreadable: []UnreadableRecord{{}}}, ExitFailed},
		{"cleanup logs all read", &CleanupLogs{Runs: []RunRecord{{}}}, ExitOK},
		{"cleanup logs a record unreadable", &CleanupLogs{Unreadable: []UnreadableRecord{{}}}, ExitFailed},
	} {
		if got := tc.r.ExitCode(); got != tc.want {
			t.Errorf("%s: exit code %d, want %d", tc.name, got, tc.want)
		}
	}
}
