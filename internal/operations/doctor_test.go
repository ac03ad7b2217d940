package operations

import "testing"

func TestAffectsGitHub(t *testing.T) {
	for pattern, want := range map[string]bool{
		"https://github.com/":          true,
		"https://github.com/acme/":     true,
		"https://":                     true,
		"https://gitlab.com/":          false,
		"git@github.com:":              false,
		"https://github.com.evil.com/": false,
	} {
		if got := affectsGitHub(pattern); got != want {
			t.Errorf("affectsGitHub(%q) = %v, want %v", pattern, got, want)
		}
	}
}

func TestShellArg(t *testing.T) {
	for in, want := range map[string]string{
		"docs":                     "docs",
		"/tmp/a b":                 "'/tmp/a b'",
		"it's":                     `'it'\''s'`,
		"":                         "''",
		"https://github.com/a/b/x": "https://github.com/a/b/x",
		"$HOME":                    "'$HOME'",
	} {
		if got := shellArg(in); got != want {
			t.Errorf("shellArg(%q) = %s, want %s", in, got, want)
		}
	}
}
