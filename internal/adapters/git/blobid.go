package git

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"hash"
	"strconv"

	"github.com/pjbgf/sha1cd"
)

// IsBlobContent reports whether data is exactly the content of the blob
// named id (as `git ls-files -s` lists it): whether git, hashing data as a
// blob, would name it id. The id's length tells the repository's object
// format (SHA-1 or SHA-256). SHA-1 is computed with collision detection,
// as git computes it: data that carries a collision attack is never taken
// for a blob's content.
//
// It lets a reader prove that a file holds a staged blob's bytes without
// asking git for them; it reads nothing of the repository.
func IsBlobContent(id string, data []byte) bool {
	want, err := hex.DecodeString(id)
	if err != nil {
		return false
	}
	var h hash.Hash
	switch len(want) {
	case sha1cd.Size:
		h = sha1cd.New()
	case sha256.Size:
		h = sha256.New()
	default:
		return false
	}
	var header [32]byte
	h.Write(append(strconv.AppendInt(append(header[:0], "blob "...), int64(len(data)), 10), 0))
	h.Write(data)
	if cr, ok := h.(sha1cd.CollisionResistantHash); ok {
		sum, collision := cr.CollisionResistantSum(nil)
		return !collision && bytes.Equal(sum, want)
	}
	return bytes.Equal(h.Sum(nil), want)
}
