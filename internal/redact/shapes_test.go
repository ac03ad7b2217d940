package redact

import (
	"encoding/base64"
	"strings"
	"testing"
)

func TestShapesIssue34(t *testing.T) {
	ghp := "ghp_aB3dE5gH7jK9mN1pQ3sT5vX7zA9cE1gI3kM5"
	for _, tc := range []struct{ in, secret string }{
		{"DefaultEndpointsProtocol=https;AccountName=acme;AccountKey=q8Zr3kLm0PvX2yW9tBn4Hs7Jd1Fg6Ac5Ee8Qu2Io0Rt4Yw3Zs/Lk9Nm==;EndpointSuffix=core.windows.net", "q8Zr3kLm0PvX2yW9"},
		{"Endpoint=sb://acme.servicebus.windows.net/;SharedAccessKeyName=Root;SharedAccessKey=Zx8v2Qw9Lp3Rt6Yh1Nm4Bk7Jc0Df5Gs8Ha2Pe6Ur=", "Zx8v2Qw9Lp3Rt6Yh"},
		{"curl -X POST https://discord.com/api/webhooks/123456789012345678/aB3dE5gH7jK9mN1pQ3sT5vX7zA9cE1gI3kM5oQ7sU9wY1", "aB3dE5gH7jK9mN1pQ3"},
		{"Set-Cookie: session=9f8e7d6c5b4a39281706f5e4d3c2b1a0; Path=/; HttpOnly", "9f8e7d6c5b4a3928"},
		{"Cookie: _gh_sess=Zm9vYmFyYmF6cXV4MTIz; logged_in=yes", "Zm9vYmFyYmF6cXV4"},
		{"PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: me\nPublic-Lines: 2\nAAAAC3NzaC1lZDI1NTE5AAAAIFvQ\nxyzq\nPrivate-Lines: 1\nAAAAIHrF3sQ9pL2mN8kJ7hG6fD5sA4zX3cV2bN1mQ0wE9rT\nPrivate-MAC: 1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b1c2d3e4f5a6b7c8d9e0f1a2b\nafter", "AAAAIHrF3sQ9pL2mN8"},
		{"GET https://api.telegram.org/bot1234567890:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw4/sendMessage", "AAHdqTcvCH1vGWJxf"},
		{"echo " + base64.StdEncoding.EncodeToString([]byte(ghp)) + " | base64 -d", base64.StdEncoding.EncodeToString([]byte(ghp))[:20]},
	} {
		out := String(tc.in)
		if strings.Contains(out, tc.secret) {
			t.Errorf("leaked %q:\n%s", tc.secret, out)
		}
	}
	if out := String("PuTTY-User-Key-File-3: ssh-ed25519\nPrivate-MAC: 00ff\nafter"); !strings.HasSuffix(out, "\nafter") {
		t.Errorf("the text after a PuTTY key is gone: %q", out)
	}
}

// TestOrdinaryLinesStay is the false-positive corpus: text that looks a
// little like a secret and is not.
func TestOrdinaryLinesStay(t *testing.T) {
	for _, line := range []string{
		"commit 736fc31c691be62121b2bd1636b234e9958ea9f3 (HEAD -> main)",
		"id: 3f2504e0-4f89-11d3-9a0c-0305e82c3301",
		"![logo](data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==)",
		"golang.org/x/sys v0.50.0 h1:Qj9bXtyqXRzVbcK8FXh2U2M0d2bRm3sqXC4GnW6S9Ts=",
		"arn:aws:iam::123456789012:role/context-tree-cleanup",
		"We use a cookie: it remembers the language you chose.",
		"Set the AccountKey in the portal, never in a file.",
		"The bot answers on Telegram; see the docs.",
		"base64 of the word hello is aGVsbG8gd29ybGQgZnJvbSB0aGUgdHJlZQ==",
		"sha256: acfe4f5e5d1787e8a1b2c3d4e5f60718293a4b5c6d7e8f90",
		"Discord is where the team talks.",
	} {
		if out := String(line); out != line {
			t.Errorf("an ordinary line was changed:\n%s\n%s", line, out)
		}
	}
}
