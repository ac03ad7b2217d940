// Package doctor is `git context-tree doctor`: it checks this machine's and
// this project's setup area by area (git, the declared trees, the commit
// hook, agent skills, cleanup schedules, the state directory, MCP host
// entries), says for every line that is not ok the command that fixes it,
// and with --fix makes the repairs that are safe and local. It builds on
// internal/operations and the feature packages beside it; none of them
// imports it.
package doctor

import (
	"context"
	"errors"
	"io/fs"
	"os"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/operations"
)

// Request says whether doctor repairs what it safely can.
type Request struct {
	Fix bool
}

// Run checks this machine's and this project's setup, area by area:
// git, the project's declared trees, the commit hook, agent skills,
// cleanup schedules, the state directory and MCP host entries. Every line
// that is not ok carries the command that fixes it. With Fix, only repairs
// that are safe and local are made first (state permissions, stale locks
// whose owner has exited), and the report shows the state after them.
func Run(ctx context.Context, env operations.Env, req Request) (*contracts.DoctorResult, error) {
	res := &contracts.DoctorResult{SchemaVersion: contracts.CLIVersion, OK: true, Fixed: []contracts.DoctorFix{}}
	if req.Fix {
		fixed, err := doctorFix(ctx, env)
		if err != nil {
			return nil, err
		}
		res.Fixed = append(res.Fixed, fixed...)
	}
	// Looked at first: the other checks read the state through paths that
	// create its empty directories.
	_, err := os.Lstat(env.Home.Root)
	stateMissing := errors.Is(err, fs.ErrNotExist)
	r := &doctorReport{res: res}
	if checkGit(ctx, env, r) {
		checkProject(ctx, env, r)
	} else {
		r.fail("project", "project.config", "not checked: every project check needs git (see git.version)", "put git on PATH, then: git context-tree doctor")
	}
	checkSkills(ctx, env, r)
	checkSchedules(ctx, env, r)
	checkState(ctx, env, stateMissing, r)
	checkMCP(ctx, env, r)
	checkAgentHooks(ctx, env, r)
	return res, nil
}

// doctorReport collects the lines of a report.
type doctorReport struct {
	res *contracts.DoctorResult
}

func (r *doctorReport) add(c contracts.DoctorCheck) {
	if c.Status == contracts.DoctorFail {
		r.res.OK = false
	}
	r.res.Checks = append(r.res.Checks, c)
}

func (r *doctorReport) ok(area, name, msg string, paths ...string) {
	r.add(contracts.DoctorCheck{Area: area, Name: name, Status: contracts.DoctorOK, Message: msg, Paths: paths})
}

func (r *doctorReport) warn(area, name, msg, fix string, paths ...string) {
	r.add(contracts.DoctorCheck{Area: area, Name: name, Status: contracts.DoctorWarn, Message: msg, Fix: fix, Paths: paths})
}

func (r *doctorReport) fail(area, name, msg, fix string, paths ...string) {
	r.add(contracts.DoctorCheck{Area: area, Name: name, Status: contracts.DoctorFail, Message: msg, Fix: fix, Paths: paths})
}
