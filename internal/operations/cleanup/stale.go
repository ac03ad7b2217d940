package cleanup

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/adapters/agent"
)

// recoverStale finds, under the run lock, the runs of this source and
// branch still recorded as interrupted and never finished: their process
// died (kill -9, a crash, a reboot) without recording an end. Each is
// finished with the reason, and an agent of it that still runs in its
// session is stopped (its process group killed), so no agent keeps editing
// a session nobody watches. The runs found are listed in this run's record.
func (r *cleanupRun) recoverStale() {
	ids, err := r.store.IDs()
	if err != nil {
		return
	}
	for _, id := range ids {
		rec, err := r.store.Load(id)
		if err != nil || rec.Outcome != contracts.OutcomeInterrupted || rec.FinishedAt != "" {
			continue
		}
		owner := "its process"
		if rec.Owner > 0 {
			owner = fmt.Sprintf("its process (pid %d)", rec.Owner)
		}
		rec.Reason = owner + " ended without recording an end (killed or crashed); found by run " + r.rec.ID
		if rec.AgentPID > 0 {
			switch stopAgentGroup(rec.AgentPID, rec.Worktree) {
			case groupStopped:
				rec.Reason += fmt.Sprintf("; its agent (process group %d) was still running and was stopped", rec.AgentPID)
			case groupUnknown:
				rec.Reason += fmt.Sprintf("; its agent (process group %d) may still be running: check it", rec.AgentPID)
			}
		}
		if rec.Worktree != "" {
			rec.Reason += "; the session " + rec.Session + " is kept"
		}
		rec.AgentPID = 0
		rec.FinishedAt = time.Now().UTC().Format(time.RFC3339Nano)
		if r.store.Save(rec) == nil {
			r.rec.Recovered = append(r.rec.Recovered, rec.ID)
			r.progress("recorded the run " + rec.ID + " left behind by a killed process")
		}
	}
}

const (
	groupGone = iota
	groupStopped
	groupUnknown
)

// stopAgentGroup kills process group pgid when one of its processes works
// in the session worktree (a pid reused by an unrelated program is left
// alone). Where processes cannot be inspected (no /proc) it kills nothing.
func stopAgentGroup(pgid int, worktree string) int {
	if runtime.GOOS != "linux" {
		return groupUnknown
	}
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return groupUnknown
	}
	wt, _ := filepath.EvalSymlinks(worktree)
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid pgrp …; comm may contain spaces.
		i := strings.LastIndexByte(string(stat), ')')
		f := strings.Fields(string(stat[i+1:]))
		if i < 0 || len(f) < 3 || f[2] != strconv.Itoa(pgid) || f[0] == "Z" {
			continue
		}
		cwd, err := os.Readlink(filepath.Join("/proc", strconv.Itoa(pid), "cwd"))
		if err != nil || worktree == "" || !(cwd == worktree || cwd == wt || strings.HasPrefix(cwd, worktree+"/") || wt != "" && strings.HasPrefix(cwd, wt+"/")) {
			continue
		}
		agent.KillGroup(pgid)
		return groupStopped
	}
	return groupGone
}
