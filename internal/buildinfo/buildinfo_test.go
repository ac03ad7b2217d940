package buildinfo

import (
	"runtime"
	"strings"
	"testing"

	"github.com/git-context-tree/git-context-tree/contracts"
)

func TestRead(t *testing.T) {
	v := Read()
	if v.SchemaVersion != contracts.CLIVersion || v.DocumentVersion != contracts.DocumentVersion || v.GoVersion != runtime.Version() {
		t.Errorf("got %+v", v)
	}
	if v.Version == "" || Version() != v.Version {
		t.Errorf("Version() = %q, Read().Version = %q", Version(), v.Version)
	}
}

func TestSemverPatterns(t *testing.T) {
	for v, release := range map[string]bool{
		"v0.3.0": true, "v1.2.3-rc.1": true, "(devel)": false,
		"v0.0.0-20260101120000-abcdefabcdef": false, "v1.2.4-0.20260101120000-abcdefabcdef": false,
	} {
		if got := semverRelease().MatchString(v) && !pseudoVersion().MatchString(v); got != release {
			t.Errorf("%s: release %v, want %v", v, got, release)
		}
	}
	if s := Semver(); !strings.HasPrefix(s, "0.0.0-dev") && !semverRelease().MatchString("v"+s) {
		t.Errorf("Semver() = %q", s)
	}
}
