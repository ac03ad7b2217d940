package tree

import "unsafe"

// stringArena lays many small strings end to end in large blocks: one
// allocation, and one object for the collector to trace, for hundreds of
// them. A block is never written again where a string already lies, so
// the strings stay as they were; a block lives as long as any of them.
type stringArena struct{ block []byte }

// arenaBlock is the size of an arena's blocks; strings over an eighth of
// it get an allocation of their own.
const arenaBlock = 64 << 10

// bytes returns b as a string.
func (a *stringArena) bytes(b []byte) string {
	return a.join("", b)
}

// join returns joinEntryBytes(dir, base): dir, a slash and base, or base
// alone when dir is "" or ".".
func (a *stringArena) join(dir string, base []byte) string {
	if dir == "." {
		dir = ""
	}
	n := len(base)
	if dir != "" {
		n += len(dir) + 1
	}
	switch {
	case n == 0:
		return ""
	case n > arenaBlock/8:
		if dir == "" {
			return string(base)
		}
		return dir + "/" + string(base)
	case cap(a.block)-len(a.block) < n:
		a.block = make([]byte, 0, arenaBlock)
	}
	start := len(a.block)
	if dir != "" {
		a.block = append(append(a.block, dir...), '/')
	}
	a.block = append(a.block, base...)
	p := a.block[start:]
	return unsafe.String(unsafe.SliceData(p), len(p))
}
