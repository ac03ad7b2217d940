package redact

import (
	"fmt"
	"math"
	"regexp"
	"strings"
	"sync"
)

//go:generate go run ./internal/gen/rulesgen -o rules_gen.go

// The gitleaks default rules are compiled in as data (rules_gen.go, written
// by go generate from the pinned gitleaks module through gitleaks' own
// loader) and interpreted here: linking gitleaks' config package would drag
// in viper, hcl, ini and zerolog (~10 MB of binary and a minute of a cold
// build), and its detect package ~60 modules more. TestRulesGenerated
// checks the data against gitleaks' own rules.

// ruleData is one generated gitleaks rule with a regex; keywords are
// lowercased.
type ruleData struct {
	id          string
	regex       string
	secretGroup int
	entropy     float64
	keywords    []string
	allowlists  []allowlistData
}

// allowlistData is one generated gitleaks allowlist; regexTarget is "" for
// the secret, "match" or "line"; stop words are lowercased.
type allowlistData struct {
	and         bool
	regexTarget string
	regexes     []string
	paths       []string
	stopWords   []string
}

type allowlist struct {
	allowlistData
	compiled []*regexp.Regexp
}

// rule is one gitleaks rule; its regexes compile on first use, since most
// texts hold none of its keywords and compiling all 222 costs milliseconds.
type rule struct {
	id          string
	source      string
	secretGroup int
	entropy     float64
	keywords    []string
	kwIDs       []int
	allow       []*allowlist

	once sync.Once
	re   *regexp.Regexp
	gate *runGate // nil: no cheap precondition
	err  error
}

type ruleSet struct {
	rules      []*rule
	always     []*rule // the rules without keywords, which run on every line
	global     []*allowlist
	globalOnce sync.Once
	globalErr  error
	keywords   *keywordIndex
}

var loadRules = sync.OnceValue(func() *ruleSet {
	return newRuleSet(gitleaksGlobal, gitleaksRules, ruleKeywords())
})

func newRuleSet(global []allowlistData, data []ruleData, keywords *keywordIndex) *ruleSet {
	set := &ruleSet{keywords: keywords}
	for _, a := range global {
		set.global = append(set.global, &allowlist{allowlistData: a})
	}
	for _, d := range data {
		nr := &rule{id: d.id, source: d.regex, secretGroup: d.secretGroup, entropy: d.entropy, keywords: d.keywords}
		for _, a := range d.allowlists {
			nr.allow = append(nr.allow, &allowlist{allowlistData: a})
		}
		set.rules = append(set.rules, nr)
	}
	for _, r := range set.rules {
		for _, k := range r.keywords {
			id, ok := set.keywords.ids[k]
			if !ok {
				// Unknown to the index: run the rule on every line.
				r.kwIDs = nil
				break
			}
			r.kwIDs = append(r.kwIDs, id)
		}
	}
	for _, r := range set.rules {
		if len(r.kwIDs) == 0 {
			set.always = append(set.always, r)
		}
	}
	return set
}

func (r *rule) regexp() (*regexp.Regexp, error) {
	r.once.Do(func() {
		r.re, r.err = regexp.Compile(r.source)
		r.gate = secretGate(r.source, r.secretGroup)
		if r.gate != nil && r.source == genericAPIKey {
			r.gate.assignment = true
		}
		if r.err == nil {
			for _, a := range r.allow {
				r.err = a.compile()
			}
		}
		if r.err != nil {
			r.err = fmt.Errorf("gitleaks rule %s: %w", r.id, r.err)
		}
	})
	return r.re, r.err
}

// spans returns the byte ranges of secrets the rule set finds in s, in the
// way gitleaks' detector decides them: keyword prefilter, regex, secret
// group, entropy threshold, global and rule allowlists. Rules run on each
// line that holds one of their keywords; Go's regexp is slow on long texts.
// lower is strings.ToLower(s), whose lines are the lowercased lines of s
// (ToLower maps rune by rune and keeps every newline).
func (set *ruleSet) spans(s, lower string) ([][2]int, error) {
	set.globalOnce.Do(func() {
		for _, a := range set.global {
			if set.globalErr = a.compile(); set.globalErr != nil {
				return
			}
		}
	})
	if set.globalErr != nil {
		return nil, set.globalErr
	}
	var out [][2]int
	found := make([]bool, len(set.keywords.words))
	for off := 0; off < len(s); {
		line, _, _ := strings.Cut(s[off:], "\n")
		lowerLine, rest, _ := strings.Cut(lower, "\n")
		lower = rest
		rules := set.rules
		if !set.keywords.hits(lowerLine, found) {
			rules = set.always // no keyword: no other rule is wanted
		}
		for _, r := range rules {
			if !r.wanted(found) {
				continue
			}
			re, err := r.regexp()
			if err != nil {
				return nil, err
			}
			if !r.gate.allows(line) {
				continue
			}
			for _, m := range re.FindAllStringSubmatchIndex(line, -1) {
				if sp, ok := r.secret(line, m, set.global); ok {
					out = append(out, [2]int{off + sp[0], off + sp[1]})
				}
			}
		}
		off += len(line) + 1
	}
	return out, nil
}

func (r *rule) wanted(found []bool) bool {
	if len(r.kwIDs) == 0 {
		return true
	}
	for _, id := range r.kwIDs {
		if found[id] {
			return true
		}
	}
	return false
}

// secret picks the secret inside match m (the configured group, else the
// first non-empty one) and applies entropy and allowlists.
func (r *rule) secret(s string, m []int, global []*allowlist) ([2]int, bool) {
	start, end := m[0], m[1]
	// gitleaks trims newlines a rule's trailing \n may have taken.
	for end > start && s[end-1] == '\n' {
		end--
	}
	sp := [2]int{start, end}
	if g := r.secretGroup; g > 0 {
		if 2*g+1 >= len(m) || m[2*g] < 0 {
			return sp, false
		}
		sp = [2]int{m[2*g], m[2*g+1]}
	} else {
		for g := 1; 2*g+1 < len(m); g++ {
			if m[2*g] >= 0 && m[2*g+1] > m[2*g] {
				sp = [2]int{m[2*g], m[2*g+1]}
				break
			}
		}
	}
	secret := s[sp[0]:sp[1]]
	if secret == "" || (r.entropy != 0 && entropy(secret) <= r.entropy) {
		return sp, false
	}
	match := s[start:end]
	line := lineAround(s, start, end)
	for _, a := range global {
		if a.allows(secret, match, line) {
			return sp, false
		}
	}
	for _, a := range r.allow {
		if a.allows(secret, match, line) {
			return sp, false
		}
	}
	return sp, true
}

func (a *allowlist) compile() error {
	for _, src := range a.regexes {
		re, err := regexp.Compile(src)
		if err != nil {
			return fmt.Errorf("allowlist: %w", err)
		}
		a.compiled = append(a.compiled, re)
	}
	return nil
}

// allows reports whether the allowlist excuses a finding. Text has no path
// or commit, so an AND list with paths never excuses one.
func (a *allowlist) allows(secret, match, line string) bool {
	target := secret
	switch a.regexTarget {
	case "match":
		target = match
	case "line":
		target = line
	}
	regex := false
	for _, re := range a.compiled {
		if re.MatchString(target) {
			regex = true
			break
		}
	}
	stop := false
	lower := strings.ToLower(secret)
	for _, w := range a.stopWords {
		if strings.Contains(lower, w) {
			stop = true
			break
		}
	}
	if a.and {
		if len(a.paths) > 0 {
			return false
		}
		return (len(a.compiled) == 0 || regex) && (len(a.stopWords) == 0 || stop)
	}
	return regex || stop
}

func lineAround(s string, start, end int) string {
	if i := strings.LastIndexByte(s[:start], '\n'); i >= 0 {
		start = i + 1
	} else {
		start = 0
	}
	if i := strings.IndexByte(s[end:], '\n'); i >= 0 {
		end += i
	} else {
		end = len(s)
	}
	return s[start:end]
}

// entropy is the Shannon entropy of s in bits per byte, as gitleaks computes it.
func entropy(s string) float64 {
	var counts [256]int
	for i := 0; i < len(s); i++ {
		counts[s[i]]++
	}
	var h float64
	n := float64(len(s))
	for _, c := range counts {
		if c > 0 {
			p := float64(c) / n
			h -= p * math.Log2(p)
		}
	}
	return h
}
