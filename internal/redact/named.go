package redact

import "strings"

// namesSecret reports whether lower (a lowercased line) could match a rule
// that needs a secret name followed by its value: an assignment
// (name=, name:, "name": …) or a flag (--name value). It is a necessary
// condition, checked without regexps, so prose that only mentions a token
// or a key ("rotate the API token and password") skips those rules, which
// cost ~60 µs a line (FuzzNamesSecret checks it never skips a match).
//
// Why it is exact enough: every such match ends its name with a trigger
// word, and the name is a run of [a-z0-9_.-]; what follows the run must be
// what the rule wants next, since a name character cannot be.
func namesSecret(lower string) bool {
	for _, t := range keyTriggers {
		for from := 0; ; {
			i := strings.Index(lower[from:], t)
			if i < 0 {
				break
			}
			i += from
			if assignedAfter(lower, i) {
				return true
			}
			from = i + 1
		}
	}
	return false
}

// assignedAfter looks at the name run holding position i.
func assignedAfter(s string, i int) bool {
	end := i
	for end < len(s) && isNameByte(s[end]) {
		end++
	}
	start := i
	for start > 0 && isNameByte(s[start-1]) {
		start--
	}
	// --name value
	if s[start] == '-' && end < len(s) && (s[end] == ' ' || s[end] == '\t') {
		return true
	}
	// name = value, name: value, "name": value, \"name\": value
	j := end
	if j < len(s) && s[j] == '\\' {
		j++
	}
	if j < len(s) && (s[j] == '"' || s[j] == '\'') {
		j++
	}
	for j < len(s) && strings.IndexByte(" \t\r\n\v\f", s[j]) >= 0 {
		j++
	}
	return j < len(s) && (s[j] == ':' || s[j] == '=')
}

func isNameByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '.' || c == '-'
}
