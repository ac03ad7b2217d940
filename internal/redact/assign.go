package redact

import "strings"

// genericAPIKey is the pattern of gitleaks' generic-api-key rule, the one
// rule whose keywords ("key", "token", "access", "auth") are everyday words
// of documentation and whose secret run is met by any file path: on prose
// its regexp ran on most lines (~30 µs each). assignmentAllows is a
// necessary condition derived by hand from exactly this pattern, so it
// gates the rule only while the shipped pattern is this text.
const genericAPIKey = `(?i)[\w.-]{0,50}?(?:access|auth|(?-i:[Aa]pi|API)|credential|creds|key|passw(?:or)?d|secret|token)(?:[ \t\w.-]{0,20})[\s'"]{0,3}(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[\x60'"\s=]{0,5}([\w.=-]{10,150}|[a-z0-9][a-z0-9+/]{11,}={0,3})(?:[\x60'"\s;]|\\[nr]|$)`

// genericKeywords are the pattern's names, folded ("api" stands for its
// three spellings).
var genericKeywords = []string{"access", "auth", "api", "credential", "creds", "key", "passwd", "password", "secret", "token"}

// assignmentAllows reports whether line can hold a match of genericAPIKey:
// a name, then at most 23 bytes of [ \t\w.-] or [\s'"], an operator's first
// byte (= > : | ? ,), then within 9 bytes (the operator's rest and
// [\x60'"\s=]) the start of a run of at least 10 bytes of [\w.=+/-]. The
// line is folded first as (?i) folds: ASCII letters, and the Kelvin sign
// and long s, which Go's regexp matches as k and s.
func assignmentAllows(line string) bool {
	folded := foldForRules(line)
	for _, kw := range genericKeywords {
		for from := 0; ; {
			i := strings.Index(folded[from:], kw)
			if i < 0 {
				break
			}
			end := from + i + len(kw)
			if operatorFollows(folded, end) {
				return true
			}
			from += i + 1
		}
	}
	return false
}

// operatorFollows checks the part of the pattern after the name, from end.
func operatorFollows(s string, end int) bool {
	for j := end; j < len(s) && j <= end+23; j++ {
		c := s[j]
		if strings.IndexByte("=>:|?,", c) >= 0 {
			for q := j + 1; q < len(s) && q <= j+9; q++ {
				if secretRunAt(s, q) {
					return true
				}
				if !inOperatorTail(s[q]) {
					break
				}
			}
		}
		if !isWord(c) && strings.IndexByte(" \t\n\f\r.-'\"", c) < 0 {
			return false
		}
	}
	return false
}

// secretRunAt: at least 10 bytes of [\w.=+/-] start at q.
func secretRunAt(s string, q int) bool {
	n := 0
	for ; q < len(s) && n < 10; q++ {
		c := s[q]
		if !isWord(c) && strings.IndexByte(".=+/-", c) < 0 {
			return false
		}
		n++
	}
	return n >= 10
}

// inOperatorTail: a byte an operator's rest (: = | >) or [\x60'"\s=] holds.
func inOperatorTail(c byte) bool { return strings.IndexByte(":=|>`'\" \t\n\f\r", c) >= 0 }

func isWord(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}

// foldForRules lowercases ASCII and turns the two non-ASCII runes that
// case-fold to ASCII letters (K U+212A, ſ U+017F) into k and s.
func foldForRules(line string) string {
	if !strings.Contains(line, "\u212a") && !strings.Contains(line, "\u017f") {
		return asciiLower(line)
	}
	return asciiLower(strings.NewReplacer("\u212a", "k", "\u017f", "s").Replace(line))
}

func asciiLower(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 'A' && c <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if c := b[j]; c >= 'A' && c <= 'Z' {
					b[j] = c + 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}
