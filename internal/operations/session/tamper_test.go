package session

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/git-context-tree/git-context-tree/contracts"
)

// TestHomeConfigCheckedFromItsBytes: while the home repository's
// configuration file holds the bytes it held at prepare, the check runs no
// git; a change only to ignored sections is read through git once, passes,
// and is remembered; any other change is refused.
func TestHomeConfigCheckedFromItsBytes(t *testing.T) {
	ctx := context.Background()
	env, s := directorySession(t, ctx, t.TempDir(), nil)
	proj := filepath.Dir(s.Repository.CommonDir)
	commands := countingGit(t, &env)
	check := func(wantRuns int) error {
		t.Helper()
		commands()
		err := checkHomeConfig(ctx, env, s)
		if got := commands(); len(got) != wantRuns {
			t.Errorf("the check ran %d git processes, want %d: %q", len(got), wantRuns, got)
		}
		return err
	}
	if err := check(0); err != nil {
		t.Fatalf("unchanged configuration: %v", err)
	}
	runGit(t, proj, "config", "branch.main.remote", "origin")
	if err := check(1); err != nil {
		t.Fatalf("a branch.* change: %v", err)
	}
	if err := check(0); err != nil {
		t.Fatalf("the same configuration again: %v", err)
	}
	runGit(t, proj, "config", "core.autocrlf", "false")
	var ce *contracts.Error
	if err := check(1); !errors.As(err, &ce) || ce.Code != contracts.CodeSessionTampered {
		t.Fatalf("a core.* change: %v, want SESSION_TAMPERED", err)
	}
}

func TestRedirects(t *testing.T) {
	for _, c := range []struct {
		key, value string
		want       bool
	}{
		{"remote.origin.url", "https://github.com/a/b.git", true},
		{"remote.origin.pushurl", "/tmp/elsewhere.git", true},
		{"remote.origin.uploadpack", "touch x; git-upload-pack", true},
		{"remote.origin.receivepack", "git-receive-pack", true},
		{"remote.origin.proxy", "http://proxy", true},
		{"remote.origin.vcs", "evil", true},
		{"remote.a.b.url", "x", true}, // a remote named a.b
		{"remote.origin.fetch", "+refs/heads/*:refs/remotes/origin/*", false},
		{"remote.origin.prune", "true", false},
		{"branch.main.remote", "origin", false},
		{"branch.main.remote", "/tmp/elsewhere.git", true},
		{"branch.main.pushremote", "https://example.com/x.git", true},
		{"branch.main.merge", "refs/heads/main", false},
		{"push.default", "current", false},
		{"core.hookspath", "x", false}, // not an ignored section: always in the digest
	} {
		if got := redirects(c.key, c.value); got != c.want {
			t.Errorf("redirects(%q, %q) = %v, want %v", c.key, c.value, got, c.want)
		}
	}
}

// A record made before redirecting keys were covered is checked as it
// was made: a remote's URL changed since is not a tampering for it, while
// a new record refuses the same change.
func TestHomeConfigRecordVersions(t *testing.T) {
	ctx := context.Background()
	env, s := directorySession(t, ctx, t.TempDir(), nil)
	proj := filepath.Dir(s.Repository.CommonDir)
	runGit(t, proj, "remote", "add", "origin", "https://example.com/a/b.git")
	file, err := homeConfigRecord(env, s)
	if err != nil {
		t.Fatal(err)
	}
	legacy, err := homeConfigDigest(ctx, env, s, false)
	if err != nil {
		t.Fatal(err)
	}
	if err := writeHomeConfigRecord(env, file, legacy, ""); err != nil {
		t.Fatal(err)
	}
	runGit(t, proj, "config", "remote.origin.pushurl", "/tmp/elsewhere.git")
	if err := checkHomeConfig(ctx, env, s); err != nil {
		t.Fatalf("a legacy record refused a remote change: %v", err)
	}
	runGit(t, proj, "config", "--unset", "remote.origin.pushurl")
	if err := recordHomeConfig(ctx, env, s); err != nil {
		t.Fatal(err)
	}
	runGit(t, proj, "config", "remote.origin.pushurl", "/tmp/elsewhere.git")
	var ce *contracts.Error
	if err := checkHomeConfig(ctx, env, s); !errors.As(err, &ce) || ce.Code != contracts.CodeSessionTampered {
		t.Fatalf("a current record let a push URL change pass: %v", err)
	}
}
