package sources

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestCloseNames(t *testing.T) {
	branches := []string{"main", "master", "Main-2", "develop", "release/1.0", "feature/login", "mian"}
	for _, tc := range []struct {
		want string
		got  []string
	}{
		{"mian", []string{"mian", "main"}},
		{"man", []string{"main", "mian"}},
		{"MAIN", []string{"main", "Main-2", "mian"}},
		{"release", []string{"release/1.0"}},
		{"relase", []string{"release/1.0"}},
		{"login", []string{"feature/login"}},
		{"devlop", []string{"develop"}},
		{"zzzzzz", []string{}},
	} {
		if diff := cmp.Diff(tc.got, CloseNames(tc.want, branches, 5)); diff != "" {
			t.Errorf("CloseNames(%q) (-want +got):\n%s", tc.want, diff)
		}
	}
}

func TestEditDistance(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		d    int
	}{{"", "", 0}, {"main", "main", 0}, {"main", "mian", 2}, {"kitten", "sitting", 3}, {"", "abc", 3}} {
		if got := editDistance(tc.a, tc.b); got != tc.d {
			t.Errorf("editDistance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.d)
		}
	}
}
