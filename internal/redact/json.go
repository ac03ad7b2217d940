package redact

import (
	"bytes"
	"encoding/json"
)

var (
	secretName = lazy(`^` + secretKey + `$`)
	// secretFlag is an argument whose next argument is a secret: agent
	// command lines are stored and shown split, ["--token", "abc"].
	secretFlag = lazy(`^--?` + secretKey + `$`)
)

// JSON returns the JSON document doc with every string redacted and the
// string value of every member whose name says "secret" masked, and the
// string after a "--token"-like string (split command lines). Literals are
// rewritten in place, so the document stays valid, keeps its layout and
// field order, and is returned unchanged (the same bytes) when clean.
func JSON(doc []byte) []byte {
	var out []byte
	last := 0
	maskNext := false
	for i := 0; i < len(doc); i++ {
		if doc[i] != '"' {
			continue
		}
		end := literalEnd(doc, i)
		if end < 0 {
			break // not JSON: leave the rest as is
		}
		var s string
		if err := json.Unmarshal(doc[i:end], &s); err != nil {
			i = end - 1
			continue
		}
		isKey := bytes.HasPrefix(bytes.TrimLeft(doc[end:], " \t\r\n"), []byte(":"))
		repl := s
		switch {
		case isKey:
			maskNext = secretName.get().MatchString(s)
		case maskNext:
			repl, maskNext = mask, false
		default:
			repl = String(s)
			maskNext = secretFlag.get().MatchString(s)
		}
		if repl != s {
			out = append(out, doc[last:i]...)
			out = appendString(out, repl)
			last = end
		}
		i = end - 1
	}
	if out == nil {
		return doc
	}
	return append(out, doc[last:]...)
}

// literalEnd is the index after the string literal starting at doc[i].
func literalEnd(doc []byte, i int) int {
	for j := i + 1; j < len(doc); j++ {
		switch doc[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return -1
}

func appendString(out []byte, s string) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	return append(out, bytes.TrimRight(b.Bytes(), "\n")...)
}
