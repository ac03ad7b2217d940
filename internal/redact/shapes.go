package redact

import (
	"encoding/base64"
	"strings"
	"unicode"
)

// Shapes that neither gitleaks' rules nor a secret-naming key catch
// (issue 34): a storage account's AccountKey in a connection string, a
// Discord webhook's token, Cookie and Set-Cookie values, a PuTTY private
// key, a Telegram bot token in a URL, and any of those (or a token
// gitleaks knows) wrapped in base64.

// shapeRules run per line, on lines holding their trigger (lowercase).
var shapeRules = []struct {
	triggers []string
	re       *lazyRegexp
	repl     string
}{
	// Azure storage / Service Bus connection strings.
	{[]string{"accountkey", "sharedaccesskey"}, lazy(`(?i)((?:AccountKey|SharedAccessKey)=)[A-Za-z0-9+/]{16,}={0,2}`), "${1}" + mask},
	// https://discord.com/api/webhooks/<id>/<token>
	{[]string{"discord"}, lazy(`(?i)(discord(?:app)?\.com/api/webhooks/\d+/)[A-Za-z0-9_-]{20,}`), "${1}" + mask},
	// Cookie: a=b; c=d and Set-Cookie: session=…; Path=/ (header lines).
	{[]string{"cookie"}, lazy(`(?i)(\b(?:set-)?cookie["']?\s*:\s*)([^\s=;"']+=[^;\s"']+(?:;\s*[^\s=;"']+(?:=[^;\s"']*)?)*)`), "${1}" + mask},
	// https://api.telegram.org/bot<id>:<token>/method
	{[]string{"/bot"}, lazy(`(/bot)\d{5,}:[A-Za-z0-9_-]{30,}`), "${1}" + mask},
}

// puttyKey is a PuTTY private key file, masked from its first line to its
// MAC (or the end of the text when cut).
var puttyKey = lazy(`PuTTY-User-Key-File-\d+:(?s:.*?)(?:Private-MAC:[ \t]*[0-9A-Fa-f]+|\z)`)

func applyShapes(s string) string {
	if strings.Contains(s, "PuTTY-User-Key-File-") {
		s = puttyKey.get().ReplaceAllString(s, "PuTTY-User-Key-File-"+mask)
	}
	return eachLine(s, func(line string) string {
		lower := strings.ToLower(line)
		for _, r := range shapeRules {
			if containsAny(lower, r.triggers) {
				line = r.re.get().ReplaceAllString(line, r.repl)
			}
		}
		return line
	})
}

// base64Run is a base64 word long enough to hold a token.
var base64Run = lazy(`[A-Za-z0-9+/_-]{24,}={0,2}`)

// maskWrapped masks a base64 word whose decoded text is printable and
// holds a secret: `echo Z2hwX… | base64 -d`. Binary (hashes, images,
// commit ids decode to bytes that are not text) is left alone.
func maskWrapped(s string) string {
	if !hasBase64Run(s) {
		return s
	}
	return replaceGroup(s, base64Run.get(), 0, func(s string, m []int) bool {
		text, ok := decodeText(s[m[0]:m[1]])
		return ok && stringOnce(text) != text
	})
}

// stringOnce is String without the base64 step (no recursion).
func stringOnce(s string) string { return redactText(s, false) }

func decodeText(w string) (string, bool) {
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		b, err := enc.DecodeString(w)
		if err != nil {
			continue
		}
		t := string(b)
		for _, r := range t {
			if r == unicode.ReplacementChar || (!unicode.IsPrint(r) && r != '\n' && r != '\t') {
				return "", false
			}
		}
		return t, true
	}
	return "", false
}

func hasBase64Run(s string) bool {
	n := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '+' || c == '/' || c == '_' || c == '-' {
			if n++; n >= 24 {
				return true
			}
		} else {
			n = 0
		}
	}
	return false
}
