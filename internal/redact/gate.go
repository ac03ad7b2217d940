package redact

import (
	"regexp/syntax"
	"unicode"
	"unicode/utf8"
)

// runGate is a necessary condition for a rule to find a secret in a line:
// the secret is a run of at least min characters drawn from a set, so a
// line without such a run cannot hold one. Checking it is one pass over the
// line's bytes; running the rule's regexp on prose that merely names a key
// or a password costs ~30 µs a line (FuzzRuleGates checks that no gate
// skips a match).
type runGate struct {
	min int
	in  [256]bool // bytes of the set; every byte >= 0x80 when it holds any non-ASCII rune
	// assignment adds assignmentAllows, generic-api-key's own condition.
	assignment bool
}

// allows reports whether line has a run of at least g.min bytes of the set.
func (g *runGate) allows(line string) bool {
	if g == nil {
		return true
	}
	run := 0
	for i := 0; i < len(line); i++ {
		if !g.in[line[i]] {
			run = 0
			continue
		}
		if run++; run >= g.min {
			return !g.assignment || assignmentAllows(line)
		}
	}
	return false
}

// secretGate derives the gate of a rule from its pattern: the capture group
// that holds the secret (secretGroup, or with none given the first group
// when every match fills it, as rule.secret picks), its shortest match in
// runes and the runes it can match. nil when no useful gate exists.
func secretGate(src string, secretGroup int) *runGate {
	re, err := syntax.Parse(src, syntax.Perl)
	if err != nil {
		return nil
	}
	group := secretGroup
	if group == 0 {
		group = 1
		if !mandatory(re, 1) {
			return nil
		}
	}
	sub := findCapture(re, group)
	if sub == nil {
		return nil
	}
	g := &runGate{min: minRunes(sub)}
	if g.min < 2 || !addRunes(&g.in, sub) {
		return nil
	}
	return g
}

// mandatory reports whether capture group cap takes part in every match
// with at least one rune: it lies on the pattern's spine (concatenations,
// captures, repeats of at least one) and cannot match empty.
func mandatory(re *syntax.Regexp, cap int) bool {
	switch re.Op {
	case syntax.OpCapture:
		if re.Cap == cap {
			return minRunes(re) > 0
		}
		return mandatory(re.Sub[0], cap)
	case syntax.OpConcat:
		for _, s := range re.Sub {
			if mandatory(s, cap) {
				return true
			}
		}
	case syntax.OpPlus:
		return mandatory(re.Sub[0], cap)
	case syntax.OpRepeat:
		return re.Min > 0 && mandatory(re.Sub[0], cap)
	}
	return false
}

func findCapture(re *syntax.Regexp, cap int) *syntax.Regexp {
	if re.Op == syntax.OpCapture && re.Cap == cap {
		return re
	}
	for _, s := range re.Sub {
		if c := findCapture(s, cap); c != nil {
			return c
		}
	}
	return nil
}

// minRunes is the length in runes of the shortest string re matches.
func minRunes(re *syntax.Regexp) int {
	switch re.Op {
	case syntax.OpLiteral:
		return len(re.Rune)
	case syntax.OpCharClass, syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		return 1
	case syntax.OpCapture, syntax.OpPlus:
		return minRunes(re.Sub[0])
	case syntax.OpRepeat:
		return re.Min * minRunes(re.Sub[0])
	case syntax.OpConcat:
		n := 0
		for _, s := range re.Sub {
			n += minRunes(s)
		}
		return n
	case syntax.OpAlternate:
		n := -1
		for _, s := range re.Sub {
			if m := minRunes(s); n < 0 || m < n {
				n = m
			}
		}
		return max(n, 0)
	}
	return 0 // empty, anchors, star, quest
}

// addRunes marks in set every byte a rune re can match may consist of;
// false when re can match (nearly) any rune, where a gate would be useless.
func addRunes(set *[256]bool, re *syntax.Regexp) bool {
	switch re.Op {
	case syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		return false
	case syntax.OpLiteral:
		for _, r := range re.Rune {
			addRange(set, r, r)
			if re.Flags&syntax.FoldCase != 0 {
				for f := r; ; {
					if f = unicode.SimpleFold(f); f == r {
						break
					}
					addRange(set, f, f)
				}
			}
		}
	case syntax.OpCharClass:
		for i := 0; i+1 < len(re.Rune); i += 2 {
			addRange(set, re.Rune[i], re.Rune[i+1])
		}
	}
	for _, s := range re.Sub {
		if !addRunes(set, s) {
			return false
		}
	}
	return true
}

func addRange(set *[256]bool, lo, hi rune) {
	for r := lo; r <= hi && r < utf8.RuneSelf; r++ {
		set[r] = true
	}
	if hi >= utf8.RuneSelf {
		for b := utf8.RuneSelf; b < 256; b++ {
			set[b] = true
		}
	}
}
