package git

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestToplevelOnce: a command asking the same directory twice, in either
// scope, runs git once when no repository variable is set.
func TestToplevelOnce(t *testing.T) {
	r := newIndexRepo(t)
	real, err := exec.LookPath("git")
	if err != nil {
		t.Fatal(err)
	}
	log := filepath.Join(t.TempDir(), "calls")
	script := filepath.Join(t.TempDir(), "git")
	if err := os.WriteFile(script, []byte("#!/bin/sh\necho \"$@\" >> "+log+"\nexec "+real+" \"$@\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, kv := range os.Environ() {
		if name, _, _ := strings.Cut(kv, "="); hasGitVars([]string{kv}) {
			t.Setenv(name, "")
			os.Unsetenv(name)
		}
	}
	g := &Git{Path: script}
	ctx := context.Background()
	for _, scope := range []Scope{Invoking, Isolated, Invoking} {
		top, err := g.Toplevel(ctx, scope, r.dir)
		if err != nil || top == "" {
			t.Fatalf("Toplevel: %q, %v", top, err)
		}
	}
	data, _ := os.ReadFile(log)
	if n := strings.Count(string(data), "\n"); n != 1 {
		t.Errorf("git ran %d times:\n%s", n, data)
	}
}

func TestHasGitVars(t *testing.T) {
	for env, want := range map[string]bool{
		"HOME=/h":                     false,
		"GIT_SSL_CAINFO=/x":           false,
		"GIT_AUTHOR_NAME=A":           false,
		"GIT_CONFIG_GLOBAL=/dev/null": false,
		"GIT_DIR=/r/.git":             true,
		"GIT_INDEX_FILE=/r/i":         true,
		"GIT_SOMETHING_NEW=1":         true,
		"git_dir=/r/.git":             true,
	} {
		if got := hasGitVars([]string{env}); got != want {
			t.Errorf("hasGitVars(%s) = %t, want %t", env, got, want)
		}
	}
}
