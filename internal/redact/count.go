package redact

import "strings"

// Counted is String that also says how many secrets it masked: the masks
// it added, so text already holding "***" is not miscounted.
func Counted(s string) (string, int) {
	out := String(s)
	if out == s {
		return s, 0
	}
	return out, max(strings.Count(out, mask)-strings.Count(s, mask), 1)
}
