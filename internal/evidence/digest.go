package evidence

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"strings"

	"github.com/git-context-tree/git-context-tree/internal/tree"
)

// Lines counts a file's lines: a final line without a terminator counts,
// an empty file has none.
func Lines(data []byte) int {
	n := bytes.Count(data, []byte{'\n'})
	if len(data) > 0 && data[len(data)-1] != '\n' {
		n++
	}
	return n
}

// Cited returns the bytes of the cited lines exactly as the file holds
// them, each line's terminator included ("\n" or "\r\n"; the last line of
// a file may have none), and false when the range passes the file's end.
// The whole range is the whole file.
func Cited(data []byte, r tree.LineRange) ([]byte, bool) {
	if r.Whole() {
		return data, true
	}
	off, line := 0, 1
	for line < r.Start {
		i := bytes.IndexByte(data[off:], '\n')
		if i < 0 {
			return nil, false
		}
		off += i + 1
		line++
	}
	if off >= len(data) {
		return nil, false
	}
	end := off
	for ; line <= r.End; line++ {
		if end >= len(data) {
			return nil, false
		}
		i := bytes.IndexByte(data[end:], '\n')
		if i < 0 {
			end = len(data)
		} else {
			end += i + 1
		}
	}
	return data[off:end], true
}

// Digest is the full lowercase hex SHA-256 of b.
func Digest(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// Matches reports whether a recorded sha256 prefix names digest.
func Matches(recorded, digest string) bool {
	return len(recorded) >= 1 && strings.HasPrefix(digest, strings.ToLower(recorded))
}

// Binary reports content git would treat as binary: a NUL byte in its
// first 8000 bytes.
func Binary(data []byte) bool {
	return bytes.IndexByte(data[:min(len(data), 8000)], 0) >= 0
}
