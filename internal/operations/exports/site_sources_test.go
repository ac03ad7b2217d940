package exports

import "testing"

func TestGitHubHomeAndBlobURL(t *testing.T) {
	for remote, want := range map[string]string{
		"https://github.com/acme/pay.git":           "https://github.com/acme/pay",
		"https://github.com/acme/pay":               "https://github.com/acme/pay",
		"https://x-access-token:t0k@github.com/a/b": "https://github.com/a/b",
		"git@github.com:acme/pay.git":               "https://github.com/acme/pay",
		"ssh://git@github.com/acme/pay.git":         "https://github.com/acme/pay",
		"https://gitlab.com/acme/pay.git":           "",
		"https://github.com.evil.example/acme/pay":  "",
		"/srv/git/pay.git":                          "",
	} {
		if got := githubHome(remote); got != want {
			t.Errorf("githubHome(%q) = %q, want %q", remote, got, want)
		}
	}
	if got, want := blobURL("https://github.com/a/b", "abc123", "src/my file.go", "3-9"), "https://github.com/a/b/blob/abc123/src/my%20file.go#L3-L9"; got != want {
		t.Errorf("blobURL = %q, want %q", got, want)
	}
	if got, want := blobURL("https://github.com/a/b", "abc123", "x.go", ""), "https://github.com/a/b/blob/abc123/x.go"; got != want {
		t.Errorf("blobURL = %q, want %q", got, want)
	}
}
