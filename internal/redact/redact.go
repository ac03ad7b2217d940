// Package redact removes credentials from text before it is shown or
// stored. Secrets are found with gitleaks' maintained default rules (token
// shapes of ~200 services) and, on top, structural rules that need no shape:
// URL userinfo, Authorization headers, assignments and members whose name
// says "secret", and private-key blocks.
package redact

import (
	"slices"
	"strings"
)

const mask = "***"

// String returns s with every credential it recognises masked.
func String(s string) string { return redactText(s, true) }

// redactText runs every rule; wrapped also looks inside base64 words.
func redactText(s string, wrapped bool) string {
	if s == "" {
		return s
	}
	s = applyShapes(applyStructural(s))
	if wrapped {
		s = maskWrapped(s)
	}
	ix := ruleKeywords()
	lower := strings.ToLower(s)
	if !ix.any(lower) {
		return s // no rule can match: skip loading the rules
	}
	spans, err := loadRules().spans(s, lower)
	if err != nil || len(spans) == 0 {
		return s
	}
	for i := range spans {
		spans[i][1] = tokenEnd(s, spans[i][1])
	}
	return maskSpans(s, spans)
}

// tokenEnd extends a rule's match over the rest of its token, so a longer or
// suffixed token (ghp_…_x, a 22-character glpat-) leaves no tail behind.
func tokenEnd(s string, end int) int {
	for end < len(s) && strings.IndexByte(tokenChars, s[end]) >= 0 {
		end++
	}
	return end
}

const tokenChars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_+/=-"

// maskSpans replaces the union of spans with one mask per joined run.
func maskSpans(s string, spans [][2]int) string {
	slices.SortFunc(spans, func(a, b [2]int) int { return a[0] - b[0] })
	var b strings.Builder
	last := 0
	for i := 0; i < len(spans); {
		start, end := spans[i][0], spans[i][1]
		for i++; i < len(spans) && spans[i][0] <= end; i++ {
			end = max(end, spans[i][1])
		}
		start = max(start, last)
		if end <= start {
			continue
		}
		b.WriteString(s[last:start])
		b.WriteString(mask)
		last = end
	}
	b.WriteString(s[last:])
	return b.String()
}
