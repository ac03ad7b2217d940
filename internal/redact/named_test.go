package redact

import (
	"strings"
	"testing"
)

// namedRules are the patterns namesSecret gates.
func namedRules() []*lazyRegexp {
	rs := []*lazyRegexp{midLine}
	for _, r := range lineRules {
		if r.named {
			rs = append(rs, r.re)
		}
	}
	return rs
}

func TestNamesSecret(t *testing.T) {
	for _, tc := range []struct {
		line string
		want bool
	}{
		{"How the platform team rotates the API token and password of service 1.", false},
		{"Key rotation for the auth service", false},
		{"password=hunter2", true},
		{"  DB_PASSWORD: hunter2", true},
		{`{"apiKey" : "x"}`, true},
		{`{\"clientSecret\": \"x\"}`, true},
		{"run --token abc", true},
		{"export GITHUB_TOKEN = abc", true},
		{"log: password: x", true},
		{"monkey business", false},
	} {
		if got := namesSecret(strings.ToLower(tc.line)); got != tc.want {
			t.Errorf("namesSecret(%q) = %v, want %v", tc.line, got, tc.want)
		}
	}
}

// FuzzNamesSecret: namesSecret is a necessary condition, so no line any
// gated rule matches may fail it.
func FuzzNamesSecret(f *testing.F) {
	for _, s := range []string{"password=x", `"token": "y"`, "a --secret-key v", "K: x", "ſecret=1", "auth\t:\tz", `\"pwd\" : 1`} {
		f.Add(s)
	}
	rules := namedRules()
	f.Fuzz(func(t *testing.T, s string) {
		for _, line := range strings.Split(s, "\n") {
			if namesSecret(strings.ToLower(line)) {
				continue
			}
			if !containsAny(strings.ToLower(line), keyTriggers) {
				continue // gated by the triggers already
			}
			for _, r := range rules {
				if r.get().MatchString(line) {
					t.Fatalf("namesSecret skips %q, which %s matches", line, r.src)
				}
			}
		}
	})
}
