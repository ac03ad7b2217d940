package redact

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/git-context-tree/git-context-tree/internal/redact/internal/gen"
)

// TestRulesGenerated: rules_gen.go is what go generate writes from the
// gitleaks module go.mod pins, and the data compiled in are gitleaks' own
// rules as its loader reads them. gitleaks is linked into this test only.
func TestRulesGenerated(t *testing.T) {
	version, licence, err := gen.Locate()
	if err != nil {
		t.Fatal(err)
	}
	want, err := gen.Source(version, licence)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("rules_gen.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("rules_gen.go is not gitleaks %s's rules: run go generate ./internal/redact (-want +got):\n%s",
			version, cmp.Diff(strings.Split(string(want), "\n"), strings.Split(string(got), "\n")))
	}
	if gitleaksVersion != version {
		t.Errorf("rules_gen.go has gitleaks %s, go.mod pins %s: run go generate ./internal/redact", gitleaksVersion, version)
	}

	global, rules, err := gen.Rules()
	if err != nil {
		t.Fatal(err)
	}
	if len(rules) < 200 {
		t.Fatalf("gitleaks %s has %d rules with a regex, want the ~220 of its default file", version, len(rules))
	}
	if diff := cmp.Diff(global, genAllowlists(gitleaksGlobal)); diff != "" {
		t.Errorf("global allowlists differ from gitleaks' (-gitleaks +compiled in); run go generate ./internal/redact:\n%s", diff)
	}
	var compiled []gen.Rule
	for _, r := range gitleaksRules {
		compiled = append(compiled, gen.Rule{
			ID: r.id, Regex: r.regex, SecretGroup: r.secretGroup, Entropy: r.entropy,
			Keywords: r.keywords, Allowlists: genAllowlists(r.allowlists),
		})
	}
	if diff := cmp.Diff(rules, compiled); diff != "" {
		t.Errorf("rules differ from gitleaks' (-gitleaks +compiled in); run go generate ./internal/redact:\n%s", diff)
	}
}

func genAllowlists(list []allowlistData) []gen.Allowlist {
	var out []gen.Allowlist
	for _, a := range list {
		out = append(out, gen.Allowlist{And: a.and, RegexTarget: a.regexTarget, Regexes: a.regexes, Paths: a.paths, StopWords: a.stopWords})
	}
	return out
}
