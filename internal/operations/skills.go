package operations

import (
	"context"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/adapters/skills"
	"github.com/git-context-tree/git-context-tree/internal/buildinfo"
)

// SkillsRequest selects where skills go: a project's directories when
// Project is set, else the detected hosts' global directories; Hosts
// narrows either to those hosts (all when empty).
type SkillsRequest struct {
	Project string
	Hosts   []string
	DryRun  bool
}

// skillLocations resolves the request to skills directories and the hosts
// skipped, with the bundle this binary installs.
func skillLocations(env Env, req SkillsRequest) (*skills.Bundle, []skills.Location, []contracts.SkippedHost, error) {
	b, err := skills.Load(buildinfo.Version())
	if err != nil {
		return nil, nil, nil, contracts.Errorf(contracts.CodeInternal, "embedded skills: %v", err)
	}
	skipped := []contracts.SkippedHost{}
	if req.Project != "" {
		locs, err := skills.Project(env.Abs(req.Project), req.Hosts)
		return b, locs, skipped, err
	}
	home, _ := env.Vars.HomeDir()
	locs, skips, err := skills.Global(skills.Environment{Home: home, Getenv: env.Vars.Get, Dir: env.Dir}, req.Hosts)
	for _, s := range skips {
		skipped = append(skipped, contracts.SkippedHost{Host: s.Host, Reason: s.Reason})
	}
	return b, locs, skipped, err
}

// InstallSkills installs the embedded context-tree-* skills into every
// selected location (S20). Every location is checked before any is
// written, so an unsafe path refuses the whole request with nothing
// changed. It never writes project instruction files.
func InstallSkills(ctx context.Context, env Env, req SkillsRequest) (*contracts.SkillsInstallResult, error) {
	b, locs, skipped, err := skillLocations(env, req)
	if err != nil {
		return nil, err
	}
	res := &contracts.SkillsInstallResult{SchemaVersion: contracts.CLIVersion, Version: b.Version, DryRun: req.DryRun, Installed: []contracts.SkillsTarget{}, Skipped: skipped}
	var targets []skills.Location
	for _, l := range locs {
		if l.Install {
			targets = append(targets, l)
		}
	}
	changes, err := applySkills(env, "skills install", targets, req.DryRun, func(l skills.Location, dry bool) (skills.Change, error) {
		return skills.Install(l, b, dry)
	})
	for _, ch := range changes {
		res.Installed = append(res.Installed, skillsTarget(ch))
	}
	return res, err
}

// UninstallSkills removes every context-tree-* entry from the selected
// locations; other skills stay.
func UninstallSkills(ctx context.Context, env Env, req SkillsRequest) (*contracts.SkillsUninstallResult, error) {
	b, locs, skipped, err := skillLocations(env, req)
	if err != nil {
		return nil, err
	}
	res := &contracts.SkillsUninstallResult{SchemaVersion: contracts.CLIVersion, Version: b.Version, DryRun: req.DryRun, Uninstalled: []contracts.SkillsTarget{}, Skipped: skipped}
	changes, err := applySkills(env, "skills uninstall", locs, req.DryRun, skills.Uninstall)
	for _, ch := range changes {
		res.Uninstalled = append(res.Uninstalled, skillsTarget(ch))
	}
	return res, err
}

// applySkills plans every location (refusing before anything is written),
// then, unless dry, applies the changes under the machine's skills lock.
func applySkills(env Env, purpose string, locs []skills.Location, dry bool, apply func(skills.Location, bool) (skills.Change, error)) ([]skills.Change, error) {
	var plans []skills.Change
	for _, l := range locs {
		ch, err := apply(l, true)
		if err != nil {
			return nil, err
		}
		plans = append(plans, ch)
	}
	if dry {
		return plans, nil
	}
	lk, err := env.HomeLock("skills", "git-context-tree "+purpose)
	if err != nil {
		return nil, err
	}
	defer lk.Release()
	var done []skills.Change
	for _, l := range locs {
		ch, err := apply(l, false)
		if err != nil {
			return done, err
		}
		done = append(done, ch)
	}
	return done, nil
}

func skillsTarget(ch skills.Change) contracts.SkillsTarget {
	return contracts.SkillsTarget{
		Host: ch.Location.Name, Hosts: ch.Location.Hosts, Path: ch.Location.Dir(),
		Skills: ch.Skills, Removed: ch.Removed, Changed: ch.Changed,
	}
}

// ListSkills reports every location a selected host reads and the
// context-tree-* entries in it.
func ListSkills(ctx context.Context, env Env, req SkillsRequest) (*contracts.SkillsListResult, error) {
	b, locs, skipped, err := skillLocations(env, req)
	if err != nil {
		return nil, err
	}
	res := &contracts.SkillsListResult{SchemaVersion: contracts.CLIVersion, Version: b.Version, Locations: []contracts.SkillsLocation{}, Skipped: skipped}
	for _, l := range locs {
		found, err := skills.Inspect(l, b)
		if err != nil {
			return nil, err
		}
		res.Locations = append(res.Locations, contracts.SkillsLocation{Host: l.Name, Hosts: l.Hosts, Path: l.Dir(), Install: l.Install, Skills: found})
	}
	return res, nil
}
