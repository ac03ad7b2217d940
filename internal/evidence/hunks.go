// Package evidence is the git-free logic of a document's sources: line
// ranges mapped through a diff's hunks, and the digest of cited lines.
package evidence

import (
	"github.com/git-context-tree/git-context-tree/internal/tree"
)

// Hunk is one -U0 hunk header "@@ -OldStart,OldCount +NewStart,NewCount @@".
// With OldCount 0 the new lines are inserted after old line OldStart; with
// NewCount 0 the old lines are removed after new line NewStart.
type Hunk struct {
	OldStart, OldCount, NewStart, NewCount int
}

// MapRange carries a line range of the old file through one diff's hunks
// (sorted, as git writes them) to the new file, and reports whether a hunk
// changed lines inside it. A hunk touches the range when it replaces or
// removes one of its lines, or inserts lines between two of them; lines
// inserted right before or after the range only move it. Lines added or
// removed inside the range grow or shrink it; a range whose first (last)
// line was replaced starts (ends) with the replacement. Empty reports a
// range whose every line was removed: it is then the empty range after
// the line before them.
func MapRange(r tree.LineRange, hunks []Hunk) (out tree.LineRange, touched, empty bool) {
	start, end := r.Start, r.End
	newStart, newEnd := start, end
	startSet, endSet := false, false
	shiftStart, shiftEnd := 0, 0
	for _, h := range hunks {
		delta := h.NewCount - h.OldCount
		if h.OldCount == 0 {
			// An insertion after old line OldStart.
			if h.OldStart < start {
				shiftStart += delta
			}
			if h.OldStart < end {
				shiftEnd += delta
			}
			if h.OldStart >= start && h.OldStart < end {
				touched = true
			}
			continue
		}
		first, last := h.OldStart, h.OldStart+h.OldCount-1
		if first <= end && last >= start {
			touched = true
		}
		switch {
		case last < start:
			shiftStart += delta
		case first <= start && !startSet:
			// The range's first line is replaced or removed.
			if h.NewCount > 0 {
				newStart = h.NewStart
			} else {
				newStart = h.NewStart + 1
			}
			startSet = true
		}
		switch {
		case last < end:
			shiftEnd += delta
		case first <= end && !endSet:
			// The range's last line is replaced or removed.
			if h.NewCount > 0 {
				newEnd = h.NewStart + h.NewCount - 1
			} else {
				newEnd = h.NewStart
			}
			endSet = true
		}
	}
	if !startSet {
		newStart = start + shiftStart
	}
	if !endSet {
		newEnd = end + shiftEnd
	}
	if newEnd < newStart {
		return tree.LineRange{Start: newStart, End: newStart - 1}, true, true
	}
	return tree.LineRange{Start: newStart, End: newEnd}, touched, false
}
