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
	sum, ok := blobSum(data, len(want))
	return ok && bytes.Equal(sum, want)
}

// BlobID is the id git gives data as a blob in a repository whose ids are
// as long as like (a commit or other object id of it: SHA-1 or SHA-256),
// "" for an id of neither length or data that carries a SHA-1 collision
// attack (git refuses such data).
func BlobID(like string, data []byte) string {
	sum, ok := blobSum(data, len(like)/2)
	if !ok {
		return ""
	}
	return hex.EncodeToString(sum)
}

// blobSum hashes data as a blob with the hash of size bytes (SHA-1 with
// collision detection, as git computes it, or SHA-256); ok is false for
// another size or a detected collision.
func blobSum(data []byte, size int) (sum []byte, ok bool) {
	var h hash.Hash
	switch size {
	case sha1cd.Size:
		h = sha1cd.New()
	case sha256.Size:
		h = sha256.New()
	default:
		return nil, false
	}
	var header [32]byte
	h.Write(append(strconv.AppendInt(append(header[:0], "blob "...), int64(len(data)), 10), 0))
	h.Write(data)
	if cr, ok := h.(sha1cd.CollisionResistantHash); ok {
		sum, collision := cr.CollisionResistantSum(nil)
		return sum, !collision
	}
	return h.Sum(nil), true
}
