package semver

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParse(t *testing.T) {
	for in, want := range map[string]Version{
		"0.1.0":                    {Minor: 1},
		"v1.2.3":                   {Major: 1, Minor: 2, Patch: 3},
		"1.0.0-rc.1":               {Major: 1, Pre: []string{"rc", "1"}},
		"0.0.0-dev+1a2b3c4d5e6f":   {Pre: []string{"dev"}, Build: []string{"1a2b3c4d5e6f"}},
		"0.0.0-dev+1a2b.dirty":     {Pre: []string{"dev"}, Build: []string{"1a2b", "dirty"}},
		"1.0.0+20130313144700":     {Major: 1, Build: []string{"20130313144700"}},
		"1.0.0-x-y-z.--":           {Major: 1, Pre: []string{"x-y-z", "--"}},
		"1.0.0-alpha+001":          {Major: 1, Pre: []string{"alpha"}, Build: []string{"001"}},
		"10.20.30":                 {Major: 10, Minor: 20, Patch: 30},
		"1.0.0-0A.is.legal":        {Major: 1, Pre: []string{"0A", "is", "legal"}},
		"99999999999999999.0.0":    {Major: 99999999999999999},
		"1.1.2-prerelease+meta":    {Major: 1, Minor: 1, Patch: 2, Pre: []string{"prerelease"}, Build: []string{"meta"}},
		"v0.0.0-20260101120000-ab": {Pre: []string{"20260101120000-ab"}},
	} {
		got, err := Parse(in)
		if err != nil {
			t.Errorf("Parse(%q): %v", in, err)
			continue
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("Parse(%q) (-want +got):\n%s", in, diff)
		}
		if s := got.String(); "v"+s != in && s != in {
			t.Errorf("Parse(%q).String() = %q", in, s)
		}
	}
}

func TestParseRejects(t *testing.T) {
	for _, in := range []string{
		"", "1", "1.2", "1.2.3.4", "01.1.1", "1.01.1", "1.1.01", "1.2.3-", "1.2.3+", "1.2.3-0123",
		"1.2.3-alpha..1", "1.2.3+a..b", "1.2.3-a_b", "-1.2.3", "1.2.-3", "a.b.c", "(devel)", "main",
		"3f1a2b4c5d6e7f8091a2b3c4d5e6f708192a3b4c", "vv1.2.3", " 1.2.3", "99999999999999999999.0.0",
	} {
		if v, err := Parse(in); err == nil {
			t.Errorf("Parse(%q) = %+v, want an error", in, v)
		}
		if Valid(in) {
			t.Errorf("Valid(%q)", in)
		}
	}
}

// TestPrecedence is semver.org §11's example chain, then more.
func TestPrecedence(t *testing.T) {
	chain := []string{
		"0.0.0-dev", "0.0.0", "0.1.0-rc.1", "0.1.0", "0.1.1", "0.2.0", "0.10.0",
		"1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-alpha.beta", "1.0.0-beta", "1.0.0-beta.2",
		"1.0.0-beta.11", "1.0.0-rc.1", "1.0.0", "2.0.0", "2.1.0", "2.1.1", "10.0.0",
	}
	for i, a := range chain {
		for j, b := range chain {
			want := 0
			switch {
			case i < j:
				want = -1
			case i > j:
				want = 1
			}
			got, err := Compare(a, b)
			if err != nil || got != want {
				t.Errorf("Compare(%s, %s) = %d, %v; want %d", a, b, got, err, want)
			}
		}
	}
	for _, pair := range [][2]string{{"1.0.0+a", "1.0.0+b"}, {"v1.0.0", "1.0.0"}, {"0.0.0-dev+abc", "0.0.0-dev+def.dirty"}} {
		if got, err := Compare(pair[0], pair[1]); err != nil || got != 0 {
			t.Errorf("Compare(%s, %s) = %d, %v; want 0 (build metadata has no precedence)", pair[0], pair[1], got, err)
		}
	}
	if _, err := Compare("1.0.0", "main"); err == nil {
		t.Error("Compare with a branch name: no error")
	}
	if _, err := Compare("(devel)", "1.0.0"); err == nil {
		t.Error("Compare with (devel): no error")
	}
}

func TestPrerelease(t *testing.T) {
	for in, want := range map[string]bool{"0.0.0-dev+abc": true, "1.0.0-rc.1": true, "1.0.0": false, "1.0.0+meta": false} {
		v, err := Parse(in)
		if err != nil || v.Prerelease() != want {
			t.Errorf("%s: Prerelease() = %v, %v; want %v", in, v.Prerelease(), err, want)
		}
	}
}
