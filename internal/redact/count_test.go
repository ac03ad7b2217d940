package redact

import "testing"

func TestCounted(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int
	}{
		{"nothing secret here", 0},
		{"already *** masked", 0},
		{"password=hunter2hunter2\napi_key=abcdef1234567890\n", 2},
		{"*** and token=abcdef1234567890", 1},
	} {
		out, n := Counted(tc.in)
		if n != tc.want {
			t.Errorf("Counted(%q) = %q, %d; want %d", tc.in, out, n, tc.want)
		}
		if out != String(tc.in) {
			t.Errorf("Counted(%q) text %q differs from String", tc.in, out)
		}
	}
}
