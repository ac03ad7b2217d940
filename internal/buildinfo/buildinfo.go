// Package buildinfo reads what the go command stamped into the binary: the
// module version and the VCS revision. The CLI's `version` prints it and
// skill installation stamps installed skills with Version.
package buildinfo

import (
	"fmt"
	"os"
	"regexp"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"

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

// Semver is the binary's version as a semantic version without a "v":
// a release's own ("0.3.0"), else 0.0.0-dev with the commit it was built
// from as build metadata ("0.0.0-dev+1a2b3c4d5e6f", "+dirty" appended to
// a modified tree's), for a source build, a pseudo-version or go test.
func Semver() string {
	v := Read()
	if semverRelease().MatchString(v.Version) && !pseudoVersion().MatchString(v.Version) {
		return strings.TrimPrefix(v.Version, "v")
	}
	meta := v.Revision
	if len(meta) > 12 {
		meta = meta[:12]
	}
	if v.Modified {
		meta += ".dirty"
	}
	if meta == "" {
		return "0.0.0-dev"
	}
	return "0.0.0-dev+" + strings.TrimPrefix(meta, ".")
}

// semverRelease is a tagged release: vMAJOR.MINOR.PATCH with an optional
// pre-release, never a Go pseudo-version (v0.0.0-20260101120000-abcdef).
var semverRelease = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^v(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)(-[0-9A-Za-z.-]+)?$`)
})

// pseudoVersion is Go's version of an untagged commit.
var pseudoVersion = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`-(0\.)?[0-9]{14}-[0-9a-f]{12}(\+incompatible)?$`) })
