package scheduler

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/adapters/atomicfile"
	"github.com/git-context-tree/git-context-tree/internal/environ"
)

// Kinds of scheduler.
const (
	Systemd = "systemd"
	Launchd = "launchd"
)

// KindVar overrides the detected scheduler (tests and sandboxes only; the
// commands still run the systemctl or launchctl found on PATH).
const KindVar = "CONTEXT_TREE_SCHEDULER"

// Scheduler is the user's native scheduler.
type Scheduler struct {
	Kind string
	// Dir holds the unit files (systemd) or plists (launchd).
	Dir string
	// UID is the launchd gui/<uid> domain.
	UID int
	// Tool is the absolute path of systemctl or launchctl.
	Tool string

	// env and dir are the command's environment and directory: where the
	// tools are found (env's PATH) and what they run with.
	env environ.Vars
	dir string
}

// Detect finds the scheduler of this platform: systemd user units in
// ${XDG_CONFIG_HOME:-~/.config}/systemd/user on Linux, launchd agents in
// ~/Library/LaunchAgents on macOS. It fails with SCHEDULER_UNSUPPORTED
// elsewhere. It checks nothing about the user manager (see Check). env
// and dir are the command's environment and directory.
func Detect(env environ.Vars, dir string) (*Scheduler, error) {
	kind := env.Get(KindVar)
	if kind == "" {
		switch runtime.GOOS {
		case "linux":
			kind = Systemd
		case "darwin":
			kind = Launchd
		default:
			return nil, contracts.Errorf(contracts.CodeSchedulerUnsupported,
				"scheduled cleanup needs systemd user timers (Linux) or launchd (macOS); %s has neither: run `git context-tree cleanup run` from your own scheduler", runtime.GOOS)
		}
	}
	return New(kind, env, dir)
}

// New is the scheduler of a kind (systemd or launchd) whatever the
// platform: for rendering (`schedule --print`) as much as for installing.
func New(kind string, env environ.Vars, dir string) (*Scheduler, error) {
	home, err := env.HomeDir()
	if err != nil {
		return nil, contracts.Errorf(contracts.CodeSchedulerUnsupported, "cannot find the home directory: %v", err)
	}
	s := &Scheduler{Kind: kind, UID: os.Getuid(), env: env, dir: dir}
	switch kind {
	case Systemd:
		cfg := env.Get("XDG_CONFIG_HOME")
		if cfg == "" || !filepath.IsAbs(cfg) {
			cfg = filepath.Join(home, ".config")
		}
		s.Dir = filepath.Join(cfg, "systemd", "user")
	case Launchd:
		s.Dir = filepath.Join(home, "Library", "LaunchAgents")
	default:
		return nil, contracts.Errorf(contracts.CodeSchedulerUnsupported, "%s=%q: use systemd or launchd", KindVar, kind)
	}
	return s, nil
}

func (s *Scheduler) toolName() string {
	if s.Kind == Systemd {
		return "systemctl"
	}
	return "launchctl"
}

// Check confirms the user manager answers (`systemctl --user
// show-environment`, `launchctl print gui/<uid>`), before anything is
// written: SCHEDULER_UNAVAILABLE otherwise, naming the ways out.
func (s *Scheduler) Check(ctx context.Context) error {
	tool, err := s.env.LookPath(s.toolName(), s.dir)
	if err != nil {
		return contracts.Errorf(contracts.CodeNoUserScheduler, "%s is not on PATH, so no %s user manager can run the schedule; nothing was written. %s",
			s.toolName(), s.Kind, s.waysOut()).WithDetails(map[string]any{"waysOut": s.waysOutList()})
	}
	s.Tool = tool
	args := []string{"--user", "show-environment"}
	if s.Kind == Launchd {
		args = []string{"print", s.domain()}
	}
	if out, err := s.run(ctx, args...); err != nil {
		return contracts.Errorf(contracts.CodeNoUserScheduler, "the %s user manager is not available (%s %s: %s); nothing was written. %s",
			s.Kind, s.toolName(), strings.Join(args, " "), firstLine(out, err), s.waysOut()).
			WithDetails(map[string]any{"command": append([]string{tool}, args...), "waysOut": s.waysOutList()})
	}
	return nil
}

// waysOutList are what a user without a reachable user manager can do.
func (s *Scheduler) waysOutList() []string {
	if s.Kind == Launchd {
		return []string{
			"log in to a graphical session (launchd agents run in gui/<uid>)",
			"`git context-tree cleanup schedule --print` for a crontab line to install yourself",
			"`git context-tree cleanup run <tree> --agent …` from cron or CI (no schedule needed)",
		}
	}
	return []string{
		"`loginctl enable-linger` (a user manager that runs without a login; may need an administrator)",
		"run it from a user session with a systemd user manager (a login shell, not a container or `su`)",
		"`git context-tree cleanup schedule --print` for a crontab line to install yourself",
		"`git context-tree cleanup run <tree> --agent …` from cron or CI (no schedule needed)",
	}
}

func (s *Scheduler) waysOut() string {
	return "Ways out: " + strings.Join(s.waysOutList(), "; ") + "."
}

// LingerOff reports, for systemd, that the user's lingering is off
// (`loginctl show-user <uid> --property=Linger --value` says "no"): the
// user manager, and so the timer, stops when the user's last session
// ends. Unknown (no loginctl, no answer) is not off.
func (s *Scheduler) LingerOff(ctx context.Context) bool {
	if s.Kind != Systemd {
		return false
	}
	tool, err := s.env.LookPath("loginctl", s.dir)
	if err != nil {
		return false
	}
	out, err := s.command(ctx, tool, "show-user", strconv.Itoa(s.UID), "--property=Linger", "--value").Output()
	return err == nil && strings.TrimSpace(string(out)) == "no"
}

func (s *Scheduler) domain() string { return "gui/" + strconv.Itoa(s.UID) }

func firstLine(out []byte, err error) string {
	msg := strings.TrimSpace(string(out))
	if msg == "" {
		return err.Error()
	}
	line, _, _ := strings.Cut(msg, "\n")
	return line
}

func (s *Scheduler) run(ctx context.Context, args ...string) ([]byte, error) {
	return s.command(ctx, s.Tool, args...).CombinedOutput()
}

// command is a tool run in the command's directory and environment.
func (s *Scheduler) command(ctx context.Context, tool string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, tool, args...)
	cmd.Dir, cmd.Env = s.dir, s.env.List()
	return cmd
}

// Render are the job's files: their paths and contents.
func (s *Scheduler) Render(j Job) (paths []string, contents [][]byte) {
	return s.Files(j), s.render(j)
}

// Files are the paths a job's files have.
func (s *Scheduler) Files(j Job) []string {
	if s.Kind == Systemd {
		return []string{filepath.Join(s.Dir, j.Name()+".service"), filepath.Join(s.Dir, j.Name()+".timer")}
	}
	return []string{filepath.Join(s.Dir, j.Name()+".plist")}
}

func (s *Scheduler) render(j Job) [][]byte {
	if s.Kind == Systemd {
		return [][]byte{j.Service(), j.Timer()}
	}
	return [][]byte{j.Plist()}
}

// Install writes the job's files (only those whose bytes differ) and loads
// them: systemd daemon-reload and enable --now of the timer; launchd
// bootout (ignored when not loaded) and bootstrap. It returns the commands
// run. Check must have succeeded.
func (s *Scheduler) Install(ctx context.Context, j Job) ([][]string, error) {
	if err := os.MkdirAll(s.Dir, 0o755); err != nil {
		return nil, contracts.Errorf(contracts.CodeIO, "cannot create %s: %v", s.Dir, err)
	}
	for i, f := range s.Files(j) {
		data := s.render(j)[i]
		if old, err := os.ReadFile(f); err == nil && bytes.Equal(old, data) {
			continue
		}
		if err := atomicfile.Write(f, data, 0o644); err != nil {
			return nil, contracts.Errorf(contracts.CodeIO, "cannot write %s: %v", f, err)
		}
	}
	if s.Kind == Systemd {
		return s.runAll(ctx, [][]string{{"--user", "daemon-reload"}, {"--user", "enable", "--now", j.Name() + ".timer"}})
	}
	// Replace a loaded job: bootout fails when it is not loaded, which is fine.
	bootout := []string{"bootout", s.domain() + "/" + j.Name()}
	s.run(ctx, bootout...)
	ran, err := s.runAll(ctx, [][]string{{"bootstrap", s.domain(), s.Files(j)[0]}})
	return append([][]string{append([]string{s.Tool}, bootout...)}, ran...), err
}

func (s *Scheduler) runAll(ctx context.Context, cmds [][]string) ([][]string, error) {
	var ran [][]string
	for _, c := range cmds {
		out, err := s.run(ctx, c...)
		ran = append(ran, append([]string{s.Tool}, c...))
		if err != nil {
			return ran, contracts.Errorf(contracts.CodeSchedulerFailed, "%s %s failed: %s", s.toolName(), strings.Join(c, " "), firstLine(out, err))
		}
	}
	return ran, nil
}

// Remove unloads a job by name and removes its files. Unloading a job that
// is not loaded is not an error; nor is removing files that are gone. With
// manager false (the user manager is unreachable) no command is run: the
// files are removed and managerUpdated is false. A failing daemon-reload
// also leaves managerUpdated false rather than failing: the files are gone.
func (s *Scheduler) Remove(ctx context.Context, name string, manager bool) (ran [][]string, present, managerUpdated bool, err error) {
	j := Job{ID: strings.TrimPrefix(name, Prefix+".")}
	files := s.Files(j)
	for _, f := range files {
		if _, err := os.Lstat(f); err == nil {
			present = true
		}
	}
	managerUpdated = manager || !present
	if present && manager {
		args := []string{"bootout", s.domain() + "/" + j.Name()}
		if s.Kind == Systemd {
			args = []string{"--user", "disable", "--now", j.Name() + ".timer"}
		}
		s.run(ctx, args...) // not loaded: nothing to disable
		ran = append(ran, append([]string{s.Tool}, args...))
	}
	for _, f := range files {
		if err := os.Remove(f); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return ran, present, managerUpdated, contracts.Errorf(contracts.CodeIO, "cannot remove %s: %v", f, err)
		}
	}
	if s.Kind == Systemd && present && manager {
		args := []string{"--user", "daemon-reload"}
		_, err := s.run(ctx, args...)
		ran = append(ran, append([]string{s.Tool}, args...))
		if err != nil {
			managerUpdated = false
		}
	}
	return ran, present, managerUpdated, nil
}

// Loaded reports whether the scheduler has the job loaded (systemctl
// --user is-enabled <timer>; launchctl print gui/<uid>/<label>).
func (s *Scheduler) Loaded(ctx context.Context, j Job) bool {
	if s.Tool == "" {
		tool, err := s.env.LookPath(s.toolName(), s.dir)
		if err != nil {
			return false
		}
		s.Tool = tool
	}
	var err error
	if s.Kind == Systemd {
		_, err = s.run(ctx, "--user", "is-enabled", "--quiet", j.Name()+".timer")
	} else {
		_, err = s.run(ctx, "print", s.domain()+"/"+j.Name())
	}
	return err == nil
}

// Names lists the job names (<Prefix>.<id>) that have files in Dir.
func (s *Scheduler) Names() ([]string, error) {
	entries, err := os.ReadDir(s.Dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, contracts.Errorf(contracts.CodeIO, "cannot list %s: %v", s.Dir, err)
	}
	var names []string
	for _, e := range entries {
		n := e.Name()
		if !strings.HasPrefix(n, Prefix+".") {
			continue
		}
		for _, ext := range []string{".service", ".timer", ".plist"} {
			if base, ok := strings.CutSuffix(n, ext); ok && !slices.Contains(names, base) {
				names = append(names, base)
			}
		}
	}
	slices.Sort(names)
	return names, nil
}

// FilesOf are the files present for a job name.
func (s *Scheduler) FilesOf(name string) []string {
	var out []string
	for _, f := range s.Files(Job{ID: strings.TrimPrefix(name, Prefix+".")}) {
		if _, err := os.Lstat(f); err == nil {
			out = append(out, f)
		}
	}
	return out
}
