package buildinfo

import (
	"runtime"
	"testing"

	"github.com/git-context-tree/git-context-tree/contracts"
)

func TestRead(t *testing.T) {
	v := Read()
	if v.SchemaVersion != contracts.CLIVersion || v.DocumentVersion != contracts.DocumentVersion || v.GoVersion != runtime.Version() {
		t.Errorf("got %+v", v)
	}
	if v.Version == "" || Version() != v.Version {
		t.Errorf("Version() = %q, Read().Version = %q", Version(), v.Version)
	}
}
