// Package buildinfo reads what the go command stamped into the binary: the
// module version and the VCS revision. The CLI's `version` prints it and
// skill installation stamps installed skills with Version.
package buildinfo

import (
	"fmt"
	"os"
	"runtime"
	"runtime/debug"

	"github.com/git-context-tree/git-context-tree/contracts"
)

// Devel is the version of a binary built without module version
// information (go run, go test, a build outside a module checkout).
const Devel = "(devel)"

// Read returns the binary's version and build information.
func Read() contracts.VersionInfo {
	v := contracts.VersionInfo{SchemaVersion: contracts.CLIVersion, Version: Devel, GoVersion: runtime.Version(), DocumentVersion: contracts.DocumentVersion}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return v
	}
	if bi.Main.Version != "" {
		v.Version = bi.Main.Version
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			v.Revision = s.Value
		case "vcs.modified":
			v.Modified = s.Value == "true"
		}
	}
	return v
}

// Version is the binary's module version, or Devel.
func Version() string { return Read().Version }

// Fingerprint identifies the binary for caches of what its rules
// computed: the build, the document contract, and the executable file
// itself (a rebuilt development binary has the same version but another
// file). A cache written by another binary is a different cache.
func Fingerprint() string {
	v := Read()
	fp := fmt.Sprintf("%s|%s|%t|%s|doc%d", v.Version, v.Revision, v.Modified, v.GoVersion, contracts.DocumentVersion)
	if exe, err := os.Executable(); err == nil {
		if fi, err := os.Stat(exe); err == nil {
			fp += fmt.Sprintf("|%s|%d|%d", exe, fi.Size(), fi.ModTime().UnixNano())
		}
	}
	return fp
}
