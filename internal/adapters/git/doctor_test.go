package git

import (
	"context"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseVersion(t *testing.T) {
	for in, want := range map[string][3]int{
		"2.39.5":                 {2, 39, 5},
		"2.45.0.windows.1":       {2, 45, 0},
		"2.50.1 (Apple Git-155)": {2, 50, 1},
		"2.31":                   {2, 31, 0},
		"3.0.0-rc1":              {3, 0, 0},
	} {
		if diff := cmp.Diff(want, parseVersion(in)); diff != "" {
			t.Errorf("parseVersion(%q) (-want +got):\n%s", in, diff)
		}
	}
}

func TestVersionAtLeast(t *testing.T) {
	for _, tc := range []struct {
		have [3]int
		want bool
	}{
		{[3]int{2, 31, 0}, true},
		{[3]int{2, 30, 9}, false},
		{[3]int{2, 39, 5}, true},
		{[3]int{3, 0, 0}, true},
		{[3]int{1, 99, 0}, false},
	} {
		if got := VersionAtLeast(tc.have, MinVersion); got != tc.want {
			t.Errorf("VersionAtLeast(%v, %v) = %v", tc.have, MinVersion, got)
		}
	}
}

// The git running the tests is one the tool supports.
func TestInstalledVersion(t *testing.T) {
	v, parsed, err := New(os.Environ()).Version(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if !VersionAtLeast(parsed, MinVersion) {
		t.Errorf("git %s is older than MinVersion %v", v, MinVersion)
	}
}
