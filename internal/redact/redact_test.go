package redact

import "testing"

func TestString(t *testing.T) {
	tests := []struct{ in, want string }{
		{"fetch https://user:hunter2@github.com/a/b.git failed", "fetch https://***@github.com/a/b.git failed"},
		{"https://x-access-token:ghs_abcdefghijklmnop1234@github.com/a/b", "https://***@github.com/a/b"},
		{"token ghp_abcdefghijklmnopqrstuvwxyz0123456789 leaked", "token *** leaked"},
		{"github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz", "***"},
		{"key sk-ant-api03-abcdefghijklmnopqrstuv", "key ***"},
		{"Authorization: Bearer abc.def.ghi", "Authorization: Bearer ***"},
		{"authorization: xyz", "authorization: ***"},
		{"GITHUB_TOKEN=abc123 next", "GITHUB_TOKEN=*** next"},
		{`DB_PASSWORD="two words"`, `DB_PASSWORD=***`},
		{"https://github.com/a/b.git is public", "https://github.com/a/b.git is public"},
		{"mail me at a@b.c", "mail me at a@b.c"},
		{"curl: > Bearer eyJhbGciOiJIUzI1NiJ9.x", "curl: > Bearer ***"},
		{"gitlab glpat-abcdefghij0123456789xy", "gitlab ***"},
		{"slack xoxb-1234567890-abcdef", "slack ***"},
		{"the bearer of bad news", "the bearer of bad news"},
	}
	for _, tt := range tests {
		if got := String(tt.in); got != tt.want {
			t.Errorf("String(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
