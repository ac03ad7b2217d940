package redact

import (
	"regexp"
	"strings"
)

// Structural rules find secrets by where they stand, not by their shape, so
// they catch what no token rule can: any password in a URL, header or
// assignment, and whole private-key blocks.

// secretKey matches a name whose last part says it holds a secret:
// DB_PASSWORD, api-key, clientSecret, GITHUB_TOKEN. Names that only mention
// one (max_tokens, PASSWORD_FILE, token_type) are not secrets.
const secretKey = `[A-Za-z0-9_.-]*(?i:pass(?:word|wd|phrase)?|pwd|secret|token|(?:api|access|private|secret|signing|encryption|master|auth|client)[_.-]?key|credentials?|auth)`

const (
	dq       = `"(?:[^"\\\n]|\\.)*"`
	sq       = `'[^'\n]*'`
	bare     = `[^\s"'&,;{\[][^\s"'&,;]*`
	keyStart = `(?:^|[^A-Za-z0-9_.-])`
)

// pemBlock is a private key, multi-line or flattened onto one line (spaces
// or \n escapes); a block cut before its END line is masked to the end.
var pemBlock = lazy(`-----BEGIN ((?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?)-----(?s:.*?)(?:-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|\z)`)

// lineRules run on one line at a time, and only on lines holding their
// trigger (lowercase): Go's regexp is slow on long texts, fast on lines.
var lineRules = []struct {
	triggers []string
	named    bool // the rule needs a secret name with its value (namesSecret)
	re       *lazyRegexp
	repl     string
}{
	// scheme://userinfo@host (or scheme:/, once a path join ate a slash):
	// everything up to the authority's last @, so a password holding @ is
	// masked whole.
	{[]string{":/"}, false, lazy(`([A-Za-z][A-Za-z0-9+.-]*:/{1,2})[^/?#\s"'<>]*@`), "${1}" + mask + "@"},
	// Authorization / Proxy-Authorization headers, any scheme.
	{[]string{"authorization"}, false, lazy(`(?i)(authorization["']?\s*[:=]\s*["']?(?:(?:bearer|basic|token|digest|negotiate|ntlm|bot|apikey|aws4-hmac-sha256)\s+)?)[^\s"',]+`), "${1}" + mask},
	// A bare bearer token (curl -v output, logs).
	{[]string{"bearer"}, false, lazy(`(?i)(\bbearer\s+)[A-Za-z0-9._~+/=-]{8,}`), "${1}" + mask},
	// JSON or YAML members with a quoted secret name: "password": "x".
	{keyTriggers, true, lazy(`(\\?["']` + secretKey + `\\?["']\s*:\s*)(\\"(?:[^"\\]|\\[^"])*\\"|` + dq + `|` + sq + `)`), "${1}" + mask},
	// name: value at the start of a line (YAML, headers, env files): the
	// rest of the line is the value.
	{keyTriggers, true, lazy(`^([ \t]*(?:-[ \t]+)?(?:export[ \t]+)?` + secretKey + `[ \t]*:[ \t]*)(` + dq + `|` + sq + `|[^\s{\[|>][^\n]*)`), "${1}" + mask},
	// name=value anywhere (env, query strings, flags).
	{keyTriggers, true, lazy(`(` + keyStart + secretKey + `[ \t]*=[ \t]*)(` + dq + `|` + sq + `|` + bare + `)`), "${1}" + mask},
	// --name value on a command line.
	{keyTriggers, true, lazy(`(\s--?` + secretKey + `[ \t]+)(` + dq + `|` + sq + `|[^\s"'-]\S*)`), "${1}" + mask},
}

var keyTriggers = []string{"pass", "pwd", "secret", "token", "key", "credential", "auth"}

// midLine matches "name: value" inside a line; the value is masked only when
// it looks like a credential rather than prose ("Enter your password: it").
var midLine = lazy(`(` + keyStart + secretKey + `[ \t]*:[ \t]*)(` + bare + `)`)

// bareUserinfo is user:password@host without a scheme (rsync, scp, proxy
// settings); the password may hold @, so it runs to the last one.
var bareUserinfo = lazy(`(?:^|[\s"'(=])([A-Za-z0-9._~-]+:[^\s/"'@]*(?:@[^\s/"'@]*)*)@[A-Za-z0-9.-]+`)

func notMailto(s string, m []int) bool {
	return !strings.HasPrefix(strings.ToLower(s[m[2]:m[3]]), "mailto:")
}

var proseBefore = lazy(`[A-Za-z]+[ \t]+$`)

// midLineSecret: prose has a word before the name ("enter your password:
// it"); logs have punctuation ("log: password: x"). After a word, only a
// value that looks like a credential is masked.
func midLineSecret(s string, m []int) bool {
	v := s[m[4]:m[5]]
	if v == mask {
		return false
	}
	if !proseBefore.get().MatchString(s[max(0, m[0]-40) : m[0]+1]) {
		return true
	}
	return strings.ContainsAny(v, "0123456789!@#$%^*+/=~_") && len(v) >= 4
}

func applyStructural(s string) string {
	if strings.Contains(s, "PRIVATE KEY") {
		s = pemBlock.get().ReplaceAllString(s, "-----BEGIN ${1}-----"+mask+"-----END ${1}-----")
	}
	return eachLine(s, func(line string) string {
		lower := strings.ToLower(line)
		// Masking never joins a name to an operator, so the gate holds for
		// the line as earlier rules leave it.
		named := namesSecret(lower)
		for _, r := range lineRules {
			if (named || !r.named) && containsAny(lower, r.triggers) {
				line = r.re.get().ReplaceAllString(line, r.repl)
			}
		}
		if named {
			line = replaceGroup(line, midLine.get(), 2, midLineSecret)
		}
		if strings.Contains(line, "@") && strings.Contains(line, ":") {
			line = replaceGroup(line, bareUserinfo.get(), 1, notMailto)
		}
		return maskAWSSecrets(line)
	})
}

func containsAny(s string, subs []string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

// eachLine applies f to every line of s (without its newline).
func eachLine(s string, f func(string) string) string {
	var b strings.Builder
	b.Grow(len(s))
	for len(s) > 0 {
		line, rest, nl := strings.Cut(s, "\n")
		b.WriteString(f(line))
		if nl {
			b.WriteByte('\n')
		}
		s = rest
	}
	return b.String()
}

// replaceGroup masks group g of every match for which keep says yes.
func replaceGroup(s string, re *regexp.Regexp, g int, keep func(s string, m []int) bool) string {
	ms := re.FindAllStringSubmatchIndex(s, -1)
	if ms == nil {
		return s
	}
	var b strings.Builder
	last := 0
	for _, m := range ms {
		a, e := m[2*g], m[2*g+1]
		if a < 0 || !keep(s, m) {
			continue
		}
		b.WriteString(s[last:a])
		b.WriteString(mask)
		last = e
	}
	b.WriteString(s[last:])
	return b.String()
}

// awsCandidate is a 40-character base64 run: the shape of an AWS secret
// access key, which needs no label to be one.
var awsCandidate = lazy(`[A-Za-z0-9/+]{40,}`)

func maskAWSSecrets(s string) string {
	if !hasRun40(s) {
		return s
	}
	ms := awsCandidate.get().FindAllStringIndex(s, -1)
	if ms == nil {
		return s
	}
	var b strings.Builder
	last := 0
	for _, m := range ms {
		a, e := m[0], m[1]
		if e-a != 40 || (a > 0 && s[a-1] == '=') || (e < len(s) && s[e] == '=') || !awsLike(s[a:e]) {
			continue
		}
		b.WriteString(s[last:a])
		b.WriteString(mask)
		last = e
	}
	b.WriteString(s[last:])
	return b.String()
}

// awsLike: mixed case with a digit and high entropy, which neither commit
// ids (lowercase hex) nor words have. Three slashes or more make a path
// (/tmp/TestSync1015239743/001/kb): a key's 40 characters hold that many
// in about 2.5% of keys, and a labelled key is masked by its label anyway,
// while a masked path in JSON output breaks every script that reads it.
func awsLike(v string) bool {
	if strings.Contains(v, "//") || strings.Count(v, "/") >= 3 {
		return false
	}
	up, low, dig := false, false, false
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case c >= 'A' && c <= 'Z':
			up = true
		case c >= 'a' && c <= 'z':
			low = true
		case c >= '0' && c <= '9':
			dig = true
		}
	}
	return up && low && dig && entropy(v) > 4.2
}

// hasRun40 says cheaply whether s has 40 base64 characters in a row.
func hasRun40(s string) bool {
	n := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '/' || c == '+' {
			if n++; n >= 40 {
				return true
			}
		} else {
			n = 0
		}
	}
	return false
}
