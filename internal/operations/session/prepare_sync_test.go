package session

import (
	"testing"
	"time"
)

func TestIsStale(t *testing.T) {
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		synced time.Time
		want   bool
	}{
		{now, false},
		{now.Add(-StaleAfter), false},
		{now.Add(-StaleAfter - time.Second), true},
		{now.Add(-48 * time.Hour), true},
		{now.Add(time.Hour), false}, // a clock set back
	} {
		if got := isStale(c.synced, now); got != c.want {
			t.Errorf("isStale(%v, %v) = %v, want %v", c.synced, now, got, c.want)
		}
	}
}
