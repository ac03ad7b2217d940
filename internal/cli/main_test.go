package cli

import (
	"bytes"
	"strings"
	"testing"

	"github.com/git-context-tree/git-context-tree/contracts"
)

// version and schema print what the binary holds: settings for locks and
// machine state must not break them, while commands that use those
// settings still reject a bad value.
func TestSelfContainedCommandsIgnoreLockWait(t *testing.T) {
	t.Setenv(lockWaitVar, "soon")
	t.Chdir(t.TempDir())
	for _, args := range [][]string{{"version"}, {"--json", "version"}, {"schema"}, {"schema", "config"}} {
		var stdout, stderr bytes.Buffer
		if code := Main(args, strings.NewReader(""), &stdout, &stderr); code != contracts.ExitOK {
			t.Errorf("%v: exit %d, stderr %q", args, code, stderr.String())
		}
		if stdout.Len() == 0 {
			t.Errorf("%v: nothing on stdout", args)
		}
	}
	var stdout, stderr bytes.Buffer
	if code := Main([]string{"list"}, strings.NewReader(""), &stdout, &stderr); code != contracts.ExitUsage || !strings.Contains(stderr.String(), lockWaitVar) {
		t.Errorf("list with a bad %s: exit %d, stderr %q", lockWaitVar, code, stderr.String())
	}
}
