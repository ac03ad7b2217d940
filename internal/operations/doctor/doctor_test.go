package doctor

import (
	"strings"
	"testing"

	"github.com/git-context-tree/git-context-tree/contracts"
)

func TestAffectsGitHub(t *testing.T) {
	for pattern, want := range map[string]bool{
		"https://github.com/":          true,
		"https://github.com/acme/":     true,
		"https://":                     true,
		"https://gitlab.com/":          false,
		"git@github.com:":              false,
		"https://github.com.evil.com/": false,
	} {
		if got := affectsGitHub(pattern); got != want {
			t.Errorf("affectsGitHub(%q) = %v, want %v", pattern, got, want)
		}
	}
}

func TestShellArg(t *testing.T) {
	for in, want := range map[string]string{
		"docs":                     "docs",
		"/tmp/a b":                 "'/tmp/a b'",
		"it's":                     `'it'\''s'`,
		"":                         "''",
		"https://github.com/a/b/x": "https://github.com/a/b/x",
		"$HOME":                    "'$HOME'",
	} {
		if got := shellArg(in); got != want {
			t.Errorf("shellArg(%q) = %s, want %s", in, got, want)
		}
	}
}

func TestJudgeGitVersion(t *testing.T) {
	for _, tc := range []struct {
		version string
		parsed  [3]int
		status  string
		fix     string
	}{
		{"2.30.9", [3]int{2, 30, 9}, contracts.DoctorFail, "install git 2.31 or later"},
		{"1.9.5", [3]int{1, 9, 5}, contracts.DoctorFail, "install git 2.31 or later"},
		{"2.31.0", [3]int{2, 31, 0}, contracts.DoctorOK, ""},
		{"2.45.0.windows.1", [3]int{2, 45, 0}, contracts.DoctorOK, ""},
	} {
		r := &doctorReport{res: &contracts.DoctorResult{OK: true}}
		judgeGitVersion(tc.version, tc.parsed, r)
		c := r.res.Checks[0]
		if c.Name != "git.version" || c.Status != tc.status || c.Fix != tc.fix || !strings.Contains(c.Message, tc.version) {
			t.Errorf("%s: %+v", tc.version, c)
		}
		if r.res.OK != (tc.status == contracts.DoctorOK) {
			t.Errorf("%s: ok %v", tc.version, r.res.OK)
		}
	}
}
