package operations

import (
	"testing"
	"time"
)

func TestHumanBytes(t *testing.T) {
	for n, want := range map[int64]string{
		0: "0 B", 1023: "1023 B", 1024: "1.0 KiB", 1536: "1.5 KiB",
		5 << 20: "5.0 MiB", 3 << 30: "3.0 GiB", 2 << 40: "2.0 TiB",
	} {
		if got := HumanBytes(n); got != want {
			t.Errorf("HumanBytes(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestHumanAge(t *testing.T) {
	for d, want := range map[time.Duration]string{
		-time.Minute:                    "less than a minute",
		59 * time.Second:                "less than a minute",
		42*time.Minute + 10*time.Second: "42m",
		3*time.Hour + 5*time.Minute:     "3h05m",
		47*time.Hour + 59*time.Minute:   "47h59m",
		72 * time.Hour:                  "3 days",
	} {
		if got := HumanAge(d); got != want {
			t.Errorf("HumanAge(%v) = %q, want %q", d, got, want)
		}
	}
}
