package hooks

import "testing"

func TestVersion(t *testing.T) {
	if v := CurrentVersion(); v != 3 {
		t.Fatalf("embedded shim version = %d", v)
	}
	if _, ok := Version([]byte("#!/bin/sh\nnpx lint-staged\n")); ok {
		t.Error("a foreign hook was taken for ours")
	}
	if v, ok := Version([]byte("#!/bin/sh\n# git-context-tree pre-commit hook, version 0\n")); !ok || v != 0 {
		t.Errorf("old shim: %d %v", v, ok)
	}
}
