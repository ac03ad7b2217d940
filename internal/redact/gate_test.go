package redact

import (
	"regexp"
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
	set := loadRules()
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
	f.Add("my \u212aey ::= `Zx81Qw7Lm2Nv5Kp9`")
	f.Add("\u017fecret_of_the_service\t'\" ?= Zx81/Qw7L+m2Nv5Kp9==")
	set := loadRules()
	f.Fuzz(func(t *testing.T, s string) {
		for _, line := range strings.Split(s, "\n") {
			if id := gateSkipsSecret(t, set, line); id != "" {
				t.Fatalf("rule %s: gate skips the secret in %q", id, line)
			}
		}
	})
}

// TestAssignmentGate: generic-api-key is gated by assignmentAllows while
// gitleaks ships the pattern it was derived from; the condition holds on
// lines the rule's regexp matches (operators of every kind, quotes and
// spaces around them, the runes (?i) folds to k and s, the longest gaps)
// and refuses prose and file listings that only name keys and tokens.
func TestAssignmentGate(t *testing.T) {
	set := loadRules()
	var generic *rule
	for _, r := range set.rules {
		if r.id == "generic-api-key" {
			generic = r
		}
	}
	if generic == nil || generic.source != genericAPIKey {
		t.Fatal("gitleaks' generic-api-key pattern changed: derive assignmentAllows again from the new one")
	}
	re, err := generic.regexp()
	if err != nil || generic.gate == nil || !generic.gate.assignment {
		t.Fatalf("generic-api-key is not gated by assignmentAllows (%v)", err)
	}
	for _, line := range []string{
		`api_key = "Zx81Qw7Lm2Nv5Kp9"`,
		`token: Zx81Qw7Lm2Nv5Kp9`,
		`ACCESS_TOKEN=Zx81Qw7Lm2Nv5Kp9`,
		`my password ::= 'Zx81Qw7Lm2Nv5Kp9'`,
		`secret => Zx81Qw7Lm2Nv5Kp9`,
		`creds || Zx81Qw7Lm2Nv5Kp9`,
		`auth ?= Zx81Qw7Lm2Nv5Kp9`,
		`key, Zx81Qw7Lm2Nv5Kp9`,
		"KEY\t'\"\t:=\t`\"' Zx81/Qw7L+m2Nv5Kp9==",
		"\u212aey = Zx81Qw7Lm2Nv5Kp9",
		"\u017fecret: Zx81Qw7Lm2Nv5Kp9",
		`token_name_of_twenty_c  "= Zx81Qw7Lm2Nv5Kp9`,
		"passwd=zx81qw7lm2\u212anv5ab",
	} {
		if re.FindStringSubmatchIndex(line) == nil {
			t.Errorf("the rule does not match %q: not a test of the gate", line)
		}
		if !assignmentAllows(line) {
			t.Errorf("assignmentAllows refuses %q, which the rule matches", line)
		}
	}
	for _, line := range []string{
		"  wide/item-00159.md           Rotate the API token and the access key: see the runbook, quarterly.",
		"How the platform team rotates the API token and password of service 1, with secret storage.",
		"see also: wide/item-00375.md",
	} {
		if assignmentAllows(line) {
			t.Errorf("assignmentAllows lets %q through", line)
		}
	}
}

// FuzzAssignmentGate: assignmentAllows holds on every line the
// generic-api-key pattern matches at all (before entropy and allowlists).
func FuzzAssignmentGate(f *testing.F) {
	for _, s := range []string{
		`api_key = "Zx81Qw7Lm2Nv5Kp9"`, `my password ::= 'Zx81Qw7Lm2Nv5Kp9'`, "KEY\t'\"\t:=\t`\"' Zx81/Qw7L+m2Nv5Kp9==",
		"\u212aey = Zx81Qw7Lm2Nv5Kp9", "passwd=zx81qw7lm2\u212anv5ab", `token_name_of_twenty_c  "= Zx81Qw7Lm2Nv5Kp9`,
		"  wide/item-00159.md           Rotate the API token and the access key: see the runbook, quarterly.",
	} {
		f.Add(s)
	}
	re := regexp.MustCompile(genericAPIKey)
	f.Fuzz(func(t *testing.T, s string) {
		for _, line := range strings.Split(s, "\n") {
			if re.MatchString(line) && !assignmentAllows(line) {
				t.Fatalf("assignmentAllows refuses %q, which generic-api-key matches", line)
			}
		}
	})
}
