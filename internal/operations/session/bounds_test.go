package session

import "testing"

func TestParseSize(t *testing.T) {
	for in, want := range map[string]int64{"1024": 1024, "5m": 5 << 20, "512K": 512 << 10, "1g": 1 << 30, " 7 ": 7} {
		if got, err := parseSize(in); err != nil || got != want {
			t.Errorf("parseSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "lots", "0", "-5", "1t", "99999999999g"} {
		if got, err := parseSize(in); err == nil {
			t.Errorf("parseSize(%q) = %d, want an error", in, got)
		}
	}
}
