package scheduler

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// testJob is a job whose strings need every kind of escaping.
func testJob(t *testing.T, dir string) Job {
	exe := filepath.Join(dir, "bin 100% $HOME", "git-context-tree")
	if err := os.MkdirAll(filepath.Dir(exe), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(exe, []byte("#!/bin/sh\nexit 0\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	cal, err := Every(6 * time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	return Job{
		ID: "0123456789abcdef", Description: "cleanup of /p/100% $USER <x&y>",
		Args:       []string{exe, "cleanup", "run", "--schedule", "0123456789abcdef", `quote" back\slash $VAR %h`},
		WorkingDir: filepath.Join(dir, "project %i"),
		Env:        map[string]string{"PATH": "/usr/bin:/bin:/odd%dir$x", "LC_ALL": "C.UTF-8", "GIT_TERMINAL_PROMPT": "0"},
		Calendar:   cal,
	}
}

func TestServiceEscaping(t *testing.T) {
	j := testJob(t, "/base")
	got := string(j.Service())
	for _, want := range []string{
		"Type=oneshot\n",
		"WorkingDirectory=/base/project %%i\n",
		"Environment=\"GIT_TERMINAL_PROMPT=0\"\nEnvironment=\"LC_ALL=C.UTF-8\"\nEnvironment=\"PATH=/usr/bin:/bin:/odd%%dir$x\"\n",
		`ExecStart="/base/bin 100%% $HOME/git-context-tree" "cleanup" "run" "--schedule" "0123456789abcdef" "quote\" back\\slash $$VAR %%h"` + "\n",
		"Description=cleanup of /p/100%% $USER <x&y>\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("service lacks %q:\n%s", want, got)
		}
	}
	timer := string(j.Timer())
	for _, want := range []string{"OnCalendar=*-*-* 00/6:00:00\n", "Persistent=true\n", "RandomizedDelaySec=900\n", "Unit=git-context-tree.cleanup.0123456789abcdef.service\n", "WantedBy=timers.target\n"} {
		if !strings.Contains(timer, want) {
			t.Errorf("timer lacks %q:\n%s", want, timer)
		}
	}
}

func TestRenderingIsDeterministic(t *testing.T) {
	j := testJob(t, t.TempDir())
	for i := 0; i < 20; i++ {
		if !bytes.Equal(j.Service(), testJobCopy(j).Service()) || !bytes.Equal(j.Plist(), testJobCopy(j).Plist()) || !bytes.Equal(j.Timer(), testJobCopy(j).Timer()) {
			t.Fatal("rendering differs between calls")
		}
	}
}

func testJobCopy(j Job) Job {
	env := map[string]string{}
	for k, v := range j.Env {
		env[k] = v
	}
	j.Env = env
	return j
}

// TestSystemdAnalyzeVerify lints the generated units with systemd's own
// checker (Debian package systemd). It needs the ExecStart binary to exist.
func TestSystemdAnalyzeVerify(t *testing.T) {
	sa, err := exec.LookPath("systemd-analyze")
	if err != nil {
		t.Skip("systemd-analyze not installed (Debian package systemd; .ci/run installs it)")
	}
	dir := t.TempDir()
	for _, cal := range []string{"5m", "1h", "6h", "24h", "168h", "at:07:30", "at:fri 18:05"} {
		j := testJob(t, dir)
		var err error
		if at, ok := strings.CutPrefix(cal, "at:"); ok {
			j.Calendar, err = At(at)
		} else {
			d, _ := time.ParseDuration(cal)
			j.Calendar, err = Every(d)
		}
		if err != nil {
			t.Fatal(err)
		}
		j.WorkingDir = dir
		units := filepath.Join(dir, "units")
		os.MkdirAll(units, 0o755)
		svc, tmr := filepath.Join(units, j.Name()+".service"), filepath.Join(units, j.Name()+".timer")
		os.WriteFile(svc, j.Service(), 0o644)
		os.WriteFile(tmr, j.Timer(), 0o644)
		args := []string{"verify", svc, tmr}
		if os.Geteuid() != 0 {
			args = append([]string{"--user"}, args...)
		}
		out, err := exec.Command(sa, args...).CombinedOutput()
		if strings.Contains(string(out), "Failed to initialize manager") {
			t.Skipf("systemd-analyze cannot run here: %s", strings.TrimSpace(string(out)))
		}
		if err != nil || len(bytes.TrimSpace(out)) > 0 {
			t.Errorf("%s: systemd-analyze %s: %v\n%s\n%s", cal, strings.Join(args, " "), err, out, j.Service())
		}
	}
}

// TestPlistParses parses the generated plist with libplist's plistutil
// (Debian package libplist-utils) and checks the round trip.
func TestPlistParses(t *testing.T) {
	pu, err := exec.LookPath("plistutil")
	if err != nil {
		t.Skip("plistutil not installed (Debian package libplist-utils; .ci/run installs it)")
	}
	dir := t.TempDir()
	j := testJob(t, dir)
	src, bin := filepath.Join(dir, "job.plist"), filepath.Join(dir, "job.bin")
	os.WriteFile(src, j.Plist(), 0o644)
	if out, err := exec.Command(pu, "-i", src, "-o", bin, "-f", "bin").CombinedOutput(); err != nil {
		t.Fatalf("plistutil rejects the plist: %v\n%s\n%s", err, out, j.Plist())
	}
	back, err := exec.Command(pu, "-i", bin, "-f", "xml").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"<string>" + j.Args[0] + "</string>",
		"<string>quote\" back\\slash $VAR %h</string>",
		"<key>RunAtLoad</key>\n\t<false/>",
		"<key>Hour</key>\n\t\t\t<integer>18</integer>",
		"<key>PATH</key>\n\t\t<string>/usr/bin:/bin:/odd%dir$x</string>",
	} {
		if !strings.Contains(string(back), want) {
			t.Errorf("parsed plist lacks %q:\n%s", want, back)
		}
	}
}

func TestCalendars(t *testing.T) {
	tests := []struct {
		every    time.Duration
		at       string
		cal      string
		launchd  []map[string]int
		spreadOK time.Duration
	}{
		{every: 15 * time.Minute, cal: "*-*-* *:00/15:00", launchd: []map[string]int{{"Minute": 0}, {"Minute": 15}, {"Minute": 30}, {"Minute": 45}}, spreadOK: 90 * time.Second},
		{every: time.Hour, cal: "*-*-* *:00:00", launchd: []map[string]int{}, spreadOK: 6 * time.Minute},
		{every: 12 * time.Hour, cal: "*-*-* 00/12:00:00", launchd: []map[string]int{{"Hour": 0, "Minute": 0}, {"Hour": 12, "Minute": 0}}, spreadOK: 15 * time.Minute},
		{every: 24 * time.Hour, cal: "*-*-* 03:00:00", launchd: []map[string]int{{"Hour": 3, "Minute": 0}}, spreadOK: 15 * time.Minute},
		{at: "Fri 18:05", cal: "Fri *-*-* 18:05:00", launchd: []map[string]int{{"Weekday": 5, "Hour": 18, "Minute": 5}}, spreadOK: 15 * time.Minute},
	}
	for _, tt := range tests {
		var c Calendar
		var err error
		if tt.at != "" {
			c, err = At(tt.at)
		} else {
			c, err = Every(tt.every)
		}
		if err != nil {
			t.Fatal(err)
		}
		if c.OnCalendar != tt.cal || c.Spread != tt.spreadOK {
			t.Errorf("%v%s: got %q spread %v", tt.every, tt.at, c.OnCalendar, c.Spread)
		}
		if len(tt.launchd) > 0 {
			if diff := cmp.Diff(tt.launchd, c.Intervals); diff != "" {
				t.Errorf("%v%s: launchd intervals (-want +got):\n%s", tt.every, tt.at, diff)
			}
		}
	}
	for _, bad := range []time.Duration{time.Minute, 7 * time.Minute, 5 * time.Hour, 48 * time.Hour} {
		if _, err := Every(bad); err == nil {
			t.Errorf("Every(%v) accepted", bad)
		}
	}
	for _, bad := range []string{"25:00", "7", "funday 01:00", "01:5"} {
		if _, err := At(bad); err == nil {
			t.Errorf("At(%q) accepted", bad)
		}
	}
}

// TestCrontabRunsTheJob runs a rendered crontab line's command with sh the
// way cron does (an unescaped "%" ends the command; "\%" is a "%") and
// checks the program gets exactly the job's arguments, environment and
// working directory.
func TestCrontabRunsTheJob(t *testing.T) {
	dir := t.TempDir()
	j := testJob(t, dir)
	out := filepath.Join(dir, "out")
	script := "#!/bin/sh\npwd > '" + out + "'\necho \"$LC_ALL\" >> '" + out + "'\nfor a in \"$@\"; do echo \"$a\" >> '" + out + "'; done\n"
	if err := os.WriteFile(j.Args[0], []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(j.WorkingDir, 0o755); err != nil {
		t.Fatal(err)
	}
	line := j.Crontab()
	f := strings.SplitN(line, " ", 6)
	if got := strings.Join(f[:5], " "); got != "0 0,6,12,18 * * *" {
		t.Errorf("schedule fields %q", got)
	}
	if strings.Contains(strings.ReplaceAll(f[5], `\%`, ""), "%") {
		t.Fatalf("unescaped %% in %q", f[5])
	}
	cmd := strings.ReplaceAll(f[5], `\%`, "%")
	if b, err := exec.Command("sh", "-c", cmd).CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", cmd, err, b)
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	want := j.WorkingDir + "\nC.UTF-8\n" + strings.Join(j.Args[1:], "\n") + "\n"
	if diff := cmp.Diff(want, string(got)); diff != "" {
		t.Errorf("the job ran with (-want +got):\n%s", diff)
	}
}

func TestCalendarNext(t *testing.T) {
	now := time.Date(2026, 12, 1, 11, 37, 42, 0, time.UTC) // a Tuesday
	for _, tc := range []struct {
		every, at string
		want      time.Time
	}{
		{"6h0m0s", "", time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)},
		{"15m0s", "", time.Date(2026, 12, 1, 11, 45, 0, 0, time.UTC)},
		{"", "03:00", time.Date(2026, 12, 2, 3, 0, 0, 0, time.UTC)},
		{"", "", time.Date(2026, 12, 2, 3, 0, 0, 0, time.UTC)},
		{"", "mon 09:30", time.Date(2026, 12, 7, 9, 30, 0, 0, time.UTC)},
		{"168h0m0s", "", time.Date(2026, 12, 7, 3, 0, 0, 0, time.UTC)},
	} {
		c, err := Of(tc.every, tc.at)
		if err != nil {
			t.Fatal(err)
		}
		if got := c.Next(now); !got.Equal(tc.want) {
			t.Errorf("Of(%q, %q).Next = %v, want %v", tc.every, tc.at, got, tc.want)
		}
	}
}
