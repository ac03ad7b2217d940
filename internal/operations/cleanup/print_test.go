package cleanup

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/adapters/scheduler"
	"github.com/git-context-tree/git-context-tree/internal/environ"
	"github.com/git-context-tree/git-context-tree/internal/operations"
)

// printedSchedule renders what `cleanup schedule --print` prints for a
// schedule whose strings need escaping, running this test binary.
func printedSchedule(t *testing.T, dir string) *contracts.PrintedSchedule {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	env := operations.Env{Dir: dir, Vars: environ.Vars{"HOME=" + dir, "XDG_CONFIG_HOME=" + filepath.Join(dir, "xdg")}}
	cal, err := scheduler.At("fri 18:05")
	if err != nil {
		t.Fatal(err)
	}
	rec := &contracts.Schedule{
		ID: "0123456789abcdef", Connection: contracts.ConnectionRef{Exact: "/p/100% $HOME/docs"}, ProjectRoot: dir, Branch: "main",
		Publish: true, Agent: "custom", AgentArgs: []string{"/bin/agent", "--flag", "it's"}, Timeout: "45m0s",
		Executable: exe, Path: "/usr/bin:/bin", StateDir: filepath.Join(dir, "state"),
	}
	job := scheduleJob(rec, cal)
	job.Args = adHocArgs(rec)
	p, err := printSchedule(env, job)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestPrintedUnitsVerify lints the units `schedule --print` prints with
// systemd's own checker.
func TestPrintedUnitsVerify(t *testing.T) {
	sa, err := exec.LookPath("systemd-analyze")
	if err != nil {
		t.Skip("systemd-analyze not installed (Debian package systemd; .ci/run installs it)")
	}
	dir := t.TempDir()
	p := printedSchedule(t, dir)
	args := []string{"verify"}
	if os.Geteuid() != 0 {
		args = append([]string{"--user"}, args...)
	}
	units := filepath.Join(dir, "units")
	os.MkdirAll(units, 0o755)
	for _, f := range p.Files {
		if f.Scheduler != scheduler.Systemd {
			continue
		}
		path := filepath.Join(units, filepath.Base(f.Path))
		os.WriteFile(path, []byte(f.Content), 0o644)
		args = append(args, path)
	}
	if len(args) < 3 {
		t.Fatalf("printed %d systemd files", len(args))
	}
	out, err := exec.Command(sa, args...).CombinedOutput()
	if strings.Contains(string(out), "Failed to initialize manager") {
		t.Skipf("systemd-analyze cannot run here: %s", strings.TrimSpace(string(out)))
	}
	if err != nil || len(bytes.TrimSpace(out)) > 0 {
		t.Errorf("systemd-analyze %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	if !strings.Contains(p.Files[0].Content, `"run" "/p/100%% $$HOME/docs" "--quiet" "--agent-command" "/bin/agent --flag it's" "--timeout" "45m0s" "--publish"`) {
		t.Errorf("the printed service does not run the ad hoc form:\n%s", p.Files[0].Content)
	}
}

// TestPrintedPlistParses parses the printed plist with plistutil.
func TestPrintedPlistParses(t *testing.T) {
	pu, err := exec.LookPath("plistutil")
	if err != nil {
		t.Skip("plistutil not installed (Debian package libplist-utils; .ci/run installs it)")
	}
	dir := t.TempDir()
	p := printedSchedule(t, dir)
	last := p.Files[len(p.Files)-1]
	if last.Scheduler != scheduler.Launchd || last.Path != filepath.Join(dir, "Library", "LaunchAgents", "git-context-tree.cleanup.0123456789abcdef.plist") {
		t.Fatalf("last printed file %s %s", last.Scheduler, last.Path)
	}
	src := filepath.Join(dir, "job.plist")
	os.WriteFile(src, []byte(last.Content), 0o644)
	if out, err := exec.Command(pu, "-i", src, "-o", filepath.Join(dir, "job.bin"), "-f", "bin").CombinedOutput(); err != nil {
		t.Fatalf("plistutil rejects the printed plist: %v\n%s\n%s", err, out, last.Content)
	}
	if !strings.HasPrefix(p.Crontab, "5 18 * * 5 cd ") || strings.Contains(strings.ReplaceAll(p.Crontab, `\%`, ""), "%") {
		t.Errorf("crontab line %q", p.Crontab)
	}
}

// TestStopAgentGroupSparesOtherProcesses: a process group whose processes
// do not work in the session worktree (a reused pid) is never killed; one
// that does is.
func TestStopAgentGroupSparesOtherProcesses(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("no /proc")
	}
	wt, other := t.TempDir(), t.TempDir()
	start := func(dir string) *exec.Cmd {
		cmd := exec.Command("sleep", "3600")
		cmd.Dir = dir
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); cmd.Wait() })
		return cmd
	}
	stranger := start(other)
	if got := stopAgentGroup(stranger.Process.Pid, wt); got != groupGone {
		t.Errorf("a group working elsewhere: %d, want gone (untouched)", got)
	}
	if err := syscall.Kill(stranger.Process.Pid, 0); err != nil {
		t.Errorf("the stranger was killed: %v", err)
	}
	agent := start(wt)
	if got := stopAgentGroup(agent.Process.Pid, wt); got != groupStopped {
		t.Errorf("the agent's group: %d, want stopped", got)
	}
	done := make(chan error, 1)
	go func() { done <- agent.Wait() }()
	select {
	case <-done: // killed
	case <-time.After(time.Minute):
		t.Error("the agent's group was not killed")
	}
}
