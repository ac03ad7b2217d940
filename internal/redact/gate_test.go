package redact

import (
	"strings"
	"testing"
)

// gateSkipsSecret returns the id of a rule whose gate refuses line although
// the rule finds a secret in it.
func gateSkipsSecret(t testing.TB, set *ruleSet, line string) string {
	for _, r := range set.rules {
		re, err := r.regexp()
		if err != nil {
			t.Fatal(err)
		}
		if r.gate.allows(line) {
			continue
		}
		for _, m := range re.FindAllStringSubmatchIndex(line, -1) {
			if _, ok := r.secret(line, m, set.global); ok {
				return r.id
			}
		}
	}
	return ""
}

func TestRuleGates(t *testing.T) {
	set, err := loadRules()
	if err != nil {
		t.Fatal(err)
	}
	gated := 0
	for _, r := range set.rules {
		if _, err := r.regexp(); err != nil {
			t.Fatal(err)
		}
		if r.gate != nil {
			gated++
		}
	}
	// Most token shapes are runs of letters and digits; if this drops, a
	// change to secretGate or to the rules lost the fast path.
	if gated < len(set.rules)/2 {
		t.Errorf("%d of %d rules have a gate, want most", gated, len(set.rules))
	}
	for _, c := range corpus(t) {
		for _, line := range strings.Split(c.Text, "\n") {
			if id := gateSkipsSecret(t, set, line); id != "" {
				t.Errorf("rule %s: gate skips the secret in %q", id, line)
			}
		}
	}
	prose := "How the platform team rotates the API token and password of service 1, with secret storage."
	for _, r := range set.rules {
		if r.id == "generic-api-key" && r.gate.allows(prose) {
			t.Errorf("generic-api-key: gate lets prose through: %q", prose)
		}
	}
}

// FuzzRuleGates: no gate refuses a line its rule finds a secret in.
func FuzzRuleGates(f *testing.F) {
	for _, c := range corpus(f) {
		f.Add(c.Text)
	}
	f.Add(`password = "abcdefgh12"`)
	set, err := loadRules()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, line := range strings.Split(s, "\n") {
			if id := gateSkipsSecret(t, set, line); id != "" {
				t.Fatalf("rule %s: gate skips the secret in %q", id, line)
			}
		}
	})
}
