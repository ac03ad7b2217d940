package evidence

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/git-context-tree/git-context-tree/internal/tree"
)

func TestMapRange(t *testing.T) {
	r := tree.LineRange{Start: 10, End: 20}
	for _, tc := range []struct {
		name           string
		hunks          []Hunk
		want           tree.LineRange
		touched, empty bool
	}{
		{name: "no hunks", want: r},
		{name: "change after", hunks: []Hunk{{30, 2, 30, 5}}, want: r},
		{name: "insert before moves it", hunks: []Hunk{{3, 0, 4, 2}}, want: lr(12, 22)},
		{name: "delete before moves it", hunks: []Hunk{{2, 3, 1, 0}}, want: lr(7, 17)},
		{name: "insert right before", hunks: []Hunk{{9, 0, 10, 1}}, want: lr(11, 21)},
		{name: "insert right after", hunks: []Hunk{{20, 0, 21, 3}}, want: r},
		{name: "insert inside grows it", hunks: []Hunk{{12, 0, 13, 4}}, want: lr(10, 24), touched: true},
		{name: "change inside", hunks: []Hunk{{15, 1, 15, 1}}, want: r, touched: true},
		{name: "delete inside shrinks it", hunks: []Hunk{{12, 3, 11, 0}}, want: lr(10, 17), touched: true},
		{name: "across the start", hunks: []Hunk{{8, 4, 8, 1}}, want: lr(8, 17), touched: true},
		{name: "across the end", hunks: []Hunk{{19, 5, 19, 2}}, want: lr(10, 20), touched: true},
		{name: "first line removed", hunks: []Hunk{{10, 1, 9, 0}}, want: lr(10, 19), touched: true},
		{name: "last line removed", hunks: []Hunk{{20, 1, 19, 0}}, want: lr(10, 19), touched: true},
		{name: "all removed", hunks: []Hunk{{8, 20, 7, 0}}, want: lr(8, 7), touched: true, empty: true},
		{name: "moved then changed", hunks: []Hunk{{1, 0, 2, 5}, {15, 2, 20, 3}}, want: lr(15, 26), touched: true},
	} {
		got, touched, empty := MapRange(r, tc.hunks)
		if got != tc.want || touched != tc.touched || empty != tc.empty {
			t.Errorf("%s: MapRange = %v touched %v empty %v, want %v %v %v", tc.name, got, touched, empty, tc.want, tc.touched, tc.empty)
		}
	}
}

// TestMapRangeRandom edits random files with random hunks: an untouched
// range maps to the same lines, and a touched range's mapping holds every
// surviving line of it.
func TestMapRangeRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 19))
	rounds := 20000
	if testing.Short() {
		rounds = 2000
	}
	next := 1000
	for range rounds {
		n := 1 + rng.IntN(40)
		old := make([]int, n)
		for i := range old {
			old[i] = i
		}
		// Build hunks left to right over old, and the new file.
		var hunks []Hunk
		var nw []int
		for i := 0; i <= n; {
			if rng.IntN(4) != 0 {
				if i < n {
					nw = append(nw, old[i])
				}
				i++
				continue
			}
			del := min(rng.IntN(4), n-i)
			add := rng.IntN(4)
			if del == 0 && add == 0 {
				continue
			}
			h := Hunk{OldStart: i + 1, OldCount: del, NewStart: len(nw) + 1, NewCount: add}
			if del == 0 {
				h.OldStart = i // inserted after old line i
			}
			if add == 0 {
				h.NewStart = len(nw)
			}
			hunks = append(hunks, h)
			for range add {
				nw = append(nw, next)
				next++
			}
			i += del
			if i < n {
				nw = append(nw, old[i])
			}
			i++
		}
		s := 1 + rng.IntN(n)
		e := s + rng.IntN(n-s+1)
		got, touched, empty := MapRange(tree.LineRange{Start: s, End: e}, hunks)
		want := old[s-1 : e]
		if !touched {
			if got.Start < 1 || got.End > len(nw) || !slices.Equal(nw[got.Start-1:got.End], want) {
				t.Fatalf("untouched %d-%d of %v by %v -> %v: new %v", s, e, old, hunks, got, nw)
			}
			continue
		}
		var kept []int
		for _, l := range want {
			if slices.Contains(nw, l) {
				kept = append(kept, l)
			}
		}
		if empty {
			if len(kept) > 0 {
				t.Fatalf("empty but %v survive: %d-%d of %v by %v", kept, s, e, old, hunks)
			}
			continue
		}
		in := nw[got.Start-1 : got.End]
		for _, l := range kept {
			if !slices.Contains(in, l) {
				t.Fatalf("line %d survives outside %v: %d-%d of %v by %v, new %v", l, got, s, e, old, hunks, nw)
			}
		}
		for _, l := range in {
			if l < 1000 && !slices.Contains(want, l) {
				t.Fatalf("mapped range %v holds old line %d outside %d-%d: %v by %v, new %v", got, l, s, e, old, hunks, nw)
			}
		}
	}
}

func TestCited(t *testing.T) {
	data := []byte("a\nb\r\nc\nd")
	for _, tc := range []struct {
		r    tree.LineRange
		want string
		ok   bool
	}{
		{tree.LineRange{}, "a\nb\r\nc\nd", true},
		{lr(1, 1), "a\n", true},
		{lr(2, 3), "b\r\nc\n", true},
		{lr(4, 4), "d", true},
		{lr(3, 5), "", false},
		{lr(5, 5), "", false},
	} {
		got, ok := Cited(data, tc.r)
		if ok != tc.ok || string(got) != tc.want {
			t.Errorf("Cited(%v) = %q %v, want %q %v", tc.r, got, ok, tc.want, tc.ok)
		}
	}
	if _, ok := Cited([]byte("a\n"), lr(2, 2)); ok {
		t.Error("line 2 of a one-line file is in range")
	}
	if Lines([]byte("a\nb")) != 2 || Lines([]byte("a\n")) != 1 || Lines(nil) != 0 {
		t.Error("Lines")
	}
}

func lr(start, end int) tree.LineRange { return tree.LineRange{Start: start, End: end} }
