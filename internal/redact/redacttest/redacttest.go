// Package redacttest holds the leak corpus every sink's tests check: secret
// shapes of the gitleaks default rules (values generated to their regexes),
// the leaks reported in issue 12, and structural shapes (URL userinfo,
// headers, assignments, private-key blocks).
package redacttest

import (
	_ "embed"
	"encoding/json"
	"strings"
)

// Case is a text holding one secret.
type Case struct{ Text, Secret string }

//go:embed secrets.json
var corpus []byte

// Corpus returns the leak corpus.
func Corpus() []Case {
	var cs []Case
	if err := json.Unmarshal(corpus, &cs); err != nil {
		panic("redacttest: " + err.Error()) // the file is embedded
	}
	return cs
}

// Leaks returns the corpus secrets that appear in out, raw or JSON-escaped.
func Leaks(out string, cs []Case) []string {
	var leaked []string
	for _, c := range cs {
		esc, _ := json.Marshal(c.Secret)
		if strings.Contains(out, c.Secret) || strings.Contains(out, strings.Trim(string(esc), `"`)) {
			leaked = append(leaked, c.Secret)
		}
	}
	return leaked
}
