// Package cachefile is the framing of the tool's binary cache files: a
// magic line naming the format, the fingerprint of the binary that wrote
// it (buildinfo.Fingerprint: other rules, other contents), a body of
// uvarints and uvarint-length-prefixed strings, and a CRC-32C of all
// that (big-endian). A cache is never a source of truth: a torn, foreign
// or stale file opens as an error and costs its reader the work of
// computing the contents again.
package cachefile

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"os"
	"path/filepath"
	"sync"

	"github.com/git-context-tree/git-context-tree/internal/adapters/atomicfile"
)

// ErrCorrupt is the error of a file that is torn, foreign or stale.
var ErrCorrupt = errors.New("cache file: corrupt or written by another binary")

// crc32c is made on first use: a fast path that reads no cache pays nothing.
var crc32c = sync.OnceValue(func() *crc32.Table { return crc32.MakeTable(crc32.Castagnoli) })

// Begin starts a file's bytes: magic and fingerprint.
func Begin(magic, fingerprint string) []byte {
	return AppendString([]byte(magic), fingerprint)
}

// Seal appends the checksum of b to it.
func Seal(b []byte) []byte {
	return binary.BigEndian.AppendUint32(b, crc32.Checksum(b, crc32c()))
}

// AppendString appends s, length-prefixed.
func AppendString(b []byte, s string) []byte {
	return append(binary.AppendUvarint(b, uint64(len(s))), s...)
}

// Open checks data's magic, checksum and fingerprint and returns a decoder
// of its body.
func Open(data []byte, magic, fingerprint string) (*Decoder, error) {
	if len(data) < len(magic)+4 || !bytes.HasPrefix(data, []byte(magic)) {
		return nil, ErrCorrupt
	}
	body, sum := data[:len(data)-4], binary.BigEndian.Uint32(data[len(data)-4:])
	if crc32.Checksum(body, crc32c()) != sum {
		return nil, ErrCorrupt
	}
	d := &Decoder{B: body[len(magic):]}
	if d.String() != fingerprint || d.Err != nil {
		return nil, ErrCorrupt
	}
	return d, nil
}

// Decoder reads a body; after the first malformed value Err is set and
// every read returns zero values.
type Decoder struct {
	B   []byte // what is left
	Err error
}

// Uvarint reads a number.
func (d *Decoder) Uvarint() uint64 {
	v, n := binary.Uvarint(d.B)
	if n <= 0 {
		d.Err, d.B = ErrCorrupt, nil
		return 0
	}
	d.B = d.B[n:]
	return v
}

// Count reads a length that cannot exceed what is left.
func (d *Decoder) Count() int {
	n := d.Uvarint()
	if n > uint64(len(d.B)) {
		d.Err, d.B = ErrCorrupt, nil
		return 0
	}
	return int(n)
}

// Bytes reads a length-prefixed string without copying it.
func (d *Decoder) Bytes() []byte {
	n := d.Count()
	s := d.B[:n]
	d.B = d.B[n:]
	return s
}

// String reads a length-prefixed string.
func (d *Decoder) String() string { return string(d.Bytes()) }

// Done reports a body read whole and well-formed.
func (d *Decoder) Done() bool { return d.Err == nil && len(d.B) == 0 }

// Write replaces the cache file name (its directory made as needed);
// failing to only costs time, so it reports success and no error.
func Write(name string, data []byte) bool {
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		return false
	}
	return atomicfile.WriteCache(name, data, 0o600) == nil
}
