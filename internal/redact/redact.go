// Package redact removes credentials from text before it is shown or
// stored: userinfo in URLs, well-known token shapes, Authorization header
// values and NAME=secret assignments.
package redact

import "regexp"

const mask = "***"

var rules = []struct {
	re   *regexp.Regexp
	repl string
}{
	// scheme://user:password@host → scheme://***@host
	{regexp.MustCompile(`([A-Za-z][A-Za-z0-9+.-]*://)[^/@\s]+@`), "${1}" + mask + "@"},
	// Authorization: Bearer xyz / Basic xyz
	{regexp.MustCompile(`(?i)(authorization:\s*(?:(?:bearer|basic|token)\s+)?)\S+`), "${1}" + mask},
	// A bare bearer token (curl -v output, logs).
	{regexp.MustCompile(`(?i)(\bbearer\s+)[A-Za-z0-9._~+/=-]{8,}`), "${1}" + mask},
	// GitHub, OpenAI/Anthropic-style, AWS, GitLab and Slack tokens.
	{regexp.MustCompile(`\b(?:gh[pousr]_[A-Za-z0-9]{16,}|github_pat_[A-Za-z0-9_]{20,}|sk-[A-Za-z0-9_-]{16,}|AKIA[0-9A-Z]{16}|glpat-[A-Za-z0-9_-]{20,}|xox[abprs]-[A-Za-z0-9-]{10,})\b`), mask},
	// NAME=secret where NAME looks like a credential.
	{regexp.MustCompile(`(?i)\b([A-Z0-9_]*(?:TOKEN|SECRET|PASSWORD|PASSWD|API_KEY|APIKEY|ACCESS_KEY|PRIVATE_KEY)[A-Z0-9_]*\s*=\s*)("[^"]*"|'[^']*'|\S+)`), "${1}" + mask},
}

// String returns s with every credential it recognises masked.
func String(s string) string {
	for _, r := range rules {
		s = r.re.ReplaceAllString(s, r.repl)
	}
	return s
}
