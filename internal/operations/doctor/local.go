package doctor

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/adapters/scheduler"
	"github.com/git-context-tree/git-context-tree/internal/operations"
	"github.com/git-context-tree/git-context-tree/internal/operations/cleanup"
	"github.com/git-context-tree/git-context-tree/internal/sources"
)

// checkSkills reports, per skills directory of a detected coding agent
// (and of the project, when it has any), whether the context-tree-*
// skills are installed and match this binary, and skills installed both
// for the project and for the user, which an agent then loads twice.
func checkSkills(ctx context.Context, env operations.Env, r *doctorReport) {
	const area = "skills"
	global, err := operations.ListSkills(ctx, env, operations.SkillsRequest{})
	if err != nil {
		r.warn(area, "skills.user", "cannot inspect the agents' skills directories: "+errorText(err), "git context-tree skills list")
		return
	}
	if len(global.Locations) == 0 {
		r.ok(area, "skills.user", "no coding agent detected (skills install writes only for detected agents)")
	}
	for _, l := range global.Locations {
		checkSkillLocation(l, "git context-tree skills install", "skills.user", r)
	}
	root := ""
	if p, err := sources.Discover(ctx, env.Git, env.Dir); err == nil && p.Config != nil {
		root = p.Root
	}
	if root == "" {
		return
	}
	project, err := operations.ListSkills(ctx, env, operations.SkillsRequest{Project: root})
	if err != nil {
		r.warn(area, "skills.project", "cannot inspect the project's skills directories: "+errorText(err), "git context-tree skills list --project "+shellArg(root))
		return
	}
	inUser := map[string]string{} // "host skill" → path
	for _, l := range global.Locations {
		for _, s := range l.Skills {
			for _, h := range l.Hosts {
				inUser[h+" "+s.Name] = s.Path
			}
		}
	}
	for _, l := range project.Locations {
		if len(l.Skills) == 0 {
			continue
		}
		checkSkillLocation(l, "git context-tree skills install --project "+shellArg(root), "skills.project", r)
		for _, s := range l.Skills {
			for _, h := range l.Hosts {
				if other, ok := inUser[h+" "+s.Name]; ok {
					r.warn(area, "skills.duplicates", fmt.Sprintf("%s is installed for the project (%s) and for the user (%s): %s loads both", s.Name, s.Path, other, h),
						"git context-tree skills uninstall --project "+shellArg(root)+" --host "+h, s.Path, other)
				}
			}
		}
	}
}

func checkSkillLocation(l contracts.SkillsLocation, fix, name string, r *doctorReport) {
	hosts := strings.Join(l.Hosts, ", ")
	var stale []string
	for _, s := range l.Skills {
		if s.Status != contracts.SkillCurrent {
			stale = append(stale, s.Name+" ("+s.Status+")")
		}
	}
	switch {
	case len(stale) > 0:
		r.warn("skills", name, fmt.Sprintf("%s: %s not what this binary installs", l.Path, strings.Join(stale, ", ")), fix, l.Path)
	case len(l.Skills) == 0 && l.Install:
		r.warn("skills", name, fmt.Sprintf("no context-tree skills in %s (read by %s)", l.Path, hosts), fix, l.Path)
	case len(l.Skills) > 0:
		r.ok("skills", name, fmt.Sprintf("%d context-tree skill(s) current in %s (read by %s)", len(l.Skills), l.Path, hosts), l.Path)
	}
}

// checkSchedules reports every cleanup schedule: loaded by the system
// scheduler, its captured executables still there, its last outcome; and
// on Linux whether the user manager outlives the login (lingering).
func checkSchedules(ctx context.Context, env operations.Env, r *doctorReport) {
	const area = "schedules"
	list, err := cleanup.List(ctx, env, "")
	if err != nil {
		r.warn(area, "schedules.list", "cannot read the cleanup schedules: "+errorText(err), "git context-tree cleanup list")
		return
	}
	if len(list.Schedules) == 0 && len(list.Unreadable) == 0 {
		r.ok(area, "schedules.list", "no cleanup schedules")
	}
	for _, u := range list.Unreadable {
		r.warn(area, "schedules.list", fmt.Sprintf("%s cannot be read (%s): %s", u.ID, u.Error.Code, u.Error.Message), "repair "+u.Record+" by hand, or remove it", u.Record)
	}
	systemd := false
	for _, st := range list.Schedules {
		s := st.Schedule
		name := s.Connection.Selector + " (" + s.Branch + ")"
		again := rescheduleCommand(s)
		systemd = systemd || s.Scheduler == scheduler.Systemd
		switch {
		case len(st.Missing) > 0:
			r.fail(area, "schedules.executables", name+": the schedule runs programs that are gone: "+strings.Join(st.Missing, ", "), again, st.Missing...)
		case !st.Loaded:
			r.fail(area, "schedules.loaded", name+": "+s.Scheduler+" does not have the job loaded, so it never runs", again, s.Files...)
		default:
			r.ok(area, "schedules.loaded", name+": loaded ("+s.Scheduler+", "+s.Calendar+")"+nextRun(s), s.Files...)
		}
		if run := st.LastRun; run != nil {
			switch run.Outcome {
			case contracts.OutcomeFailed, contracts.OutcomeInterrupted, contracts.OutcomeRejected:
				r.warn(area, "schedules.last-run", fmt.Sprintf("%s: last run %s %s", name, run.ID, run.Outcome), "git context-tree cleanup logs --run "+run.ID)
			default:
				r.ok(area, "schedules.last-run", fmt.Sprintf("%s: last run %s %s", name, run.ID, run.Outcome))
			}
		}
	}
	if len(list.Orphans) > 0 {
		r.warn(area, "schedules.orphans", "scheduler jobs of ours without a schedule record", "git context-tree cleanup unschedule --orphans", list.Orphans...)
	}
	if systemd {
		if sch, err := scheduler.Detect(env.Vars, env.Dir); err == nil && sch.LingerOff(ctx) {
			r.warn(area, "schedules.linger", "lingering is off: your systemd user manager, and the cleanup timers, stop when you log out", "loginctl enable-linger \"$USER\"")
		}
	}
}

// rescheduleCommand is the cleanup schedule command that recreates s,
// capturing the executables found now.
func rescheduleCommand(s *contracts.Schedule) string {
	args := []string{"git context-tree cleanup schedule", shellArg(s.Connection.Exact)}
	switch {
	case s.Every != "":
		args = append(args, "--every", s.Every)
	case s.At != "":
		args = append(args, "--at", shellArg(s.At))
	}
	if s.Publish {
		args = append(args, "--publish")
	}
	switch s.Agent {
	case "claude", "codex", "pi":
		args = append(args, "--agent", s.Agent)
	default:
		if len(s.AgentArgs) > 0 {
			args = append(args, "--agent-command", shellArg(strings.Join(s.AgentArgs, " ")))
		}
	}
	return strings.Join(args, " ")
}

// nextRun says when the schedule fires next, as the scheduler computes it
// from the same calendar (systemd may add its randomized delay).
func nextRun(s *contracts.Schedule) string {
	c, err := scheduler.Of(s.Every, s.At)
	if err != nil {
		return ""
	}
	next := c.Next(time.Now())
	if next.IsZero() {
		return ""
	}
	return "; next run " + next.Format("2006-01-02 15:04 MST")
}
