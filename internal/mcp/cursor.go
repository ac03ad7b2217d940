package mcp

import (
	"encoding/base64"
	"encoding/json"
	"hash/fnv"
	"strings"

	"github.com/git-context-tree/git-context-tree/contracts"
)

// A cursor is where the next page starts, bound to the call that gave it
// (tool and arguments other than cursor and limit), so a cursor pasted
// into another call is refused rather than silently misread.
type cursor struct {
	Call   uint64 `json:"c"`
	Offset int    `json:"o"`
	Body   int    `json:"b,omitempty"` // read_node: where the body resumes
}

// callKey identifies a call by its tool and arguments.
func callKey(parts ...string) uint64 {
	h := fnv.New64a()
	_, _ = h.Write([]byte(strings.Join(parts, "\x00")))
	return h.Sum64()
}

func (c cursor) encode() string {
	b, _ := json.Marshal(c) // a struct of numbers: cannot fail
	return base64.RawURLEncoding.EncodeToString(b)
}

// decodeCursor reads a cursor given back by the client; "" is the first page.
func decodeCursor(s string, call uint64) (cursor, error) {
	if s == "" {
		return cursor{Call: call}, nil
	}
	var c cursor
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err == nil {
		err = json.Unmarshal(b, &c)
	}
	if err != nil || c.Call != call || c.Offset < 0 || c.Body < 0 {
		return cursor{}, contracts.Errorf(contracts.CodeCursorInvalid, "the cursor was not given by this call: pass back nextCursor unchanged, with the same arguments")
	}
	return c, nil
}

// pageLimit is the page size a call asked for, or the default.
func pageLimit(asked, def int) int {
	if asked <= 0 {
		return def
	}
	return min(asked, contracts.MCPMaxPage)
}

// page returns items[offset:offset+limit] and the next offset, -1 at the end.
func page[T any](items []T, offset, limit int) ([]T, int) {
	if offset >= len(items) {
		return []T{}, -1
	}
	end := min(offset+limit, len(items))
	next := end
	if end == len(items) {
		next = -1
	}
	return items[offset:end], next
}
