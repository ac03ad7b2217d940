package cli

import (
	"testing"
	"time"
)

func TestAgo(t *testing.T) {
	for d, want := range map[time.Duration]string{
		-time.Minute:                    "less than a minute",
		59 * time.Second:                "less than a minute",
		42*time.Minute + 10*time.Second: "42m",
		3*time.Hour + 5*time.Minute:     "3h05m",
		47*time.Hour + 59*time.Minute:   "47h59m",
		72 * time.Hour:                  "3 days",
	} {
		if got := ago(d); got != want {
			t.Errorf("ago(%v) = %q, want %q", d, got, want)
		}
	}
}
