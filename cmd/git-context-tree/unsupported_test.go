package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/git-context-tree/git-context-tree/contracts"
)

// What a Windows build prints: a fatal refusal with a stable code, as the
// JSON error envelope with --json.
func TestUnsupportedRefuses(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := unsupported("windows", []string{"--json", "verify"}, &stdout, &stderr); code != contracts.ExitFatal {
		t.Errorf("exit %d, want %d", code, contracts.ExitFatal)
	}
	var env contracts.ErrorEnvelope
	if err := json.Unmarshal(stdout.Bytes(), &env); err != nil {
		t.Fatalf("stdout is not the error envelope: %v\n%s", err, stdout.String())
	}
	if env.SchemaVersion != contracts.CLIVersion || env.OK || env.Error == nil || env.Error.Code != contracts.CodePlatformUnsupported {
		t.Errorf("envelope %+v", env)
	}
	if !strings.HasPrefix(stderr.String(), "fatal: git-context-tree does not run on windows") {
		t.Errorf("stderr %q", stderr.String())
	}

	stdout.Reset()
	stderr.Reset()
	unsupported("windows", []string{"verify", "--", "--json"}, &stdout, &stderr)
	if stdout.Len() != 0 || stderr.Len() == 0 {
		t.Errorf("without --json: stdout %q, stderr %q", stdout.String(), stderr.String())
	}
}
