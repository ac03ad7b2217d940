// Package buildinfo says which build the binary is: a semantic version,
// the commit and the date a release build was stamped with, else what the
// go command stamped (the module version of `go install …@v0.1.0`, the
// VCS revision of a build in a clone). The CLI's `version` prints it and
// skill installation stamps installed skills with Version.
package buildinfo

import (
	"fmt"
	"os"
	"regexp"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"sync"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/semver"
)

// A release build stamps these through the linker (.goreleaser.yaml):
//
//	-ldflags "-X github.com/git-context-tree/git-context-tree/internal/buildinfo.version=0.1.0
//	          -X github.com/git-context-tree/git-context-tree/internal/buildinfo.commit=<40 hex>
//	          -X github.com/git-context-tree/git-context-tree/internal/buildinfo.date=<RFC 3339>"
//
// Nothing assigns them at run time.
var (
	version string
	commit  string
	date    string
)

// Dev is the version of a build from source that is not a tagged module
// version: a clone, go run, go test. The commit it was built from follows
// as build metadata when the go command stamped one.
const Dev = "0.0.0-dev"

// stamp is what the linker set.
type stamp struct{ version, commit, date string }

// InstallCommand installs the released program from anywhere (not only
// from a clone of this repository): what hook and doctor messages name.
const InstallCommand = "go install github.com/git-context-tree/git-context-tree/cmd/git-context-tree@latest"

// Read returns the binary's version and build information.
func Read() contracts.VersionInfo {
	bi, _ := debug.ReadBuildInfo()
	return read(stamp{version, commit, date}, bi)
}

// read derives the build's information from a linker stamp and the go
// command's build information (nil when the binary has none). A stamp
// that is not a semantic version is ignored, as if absent.
func read(st stamp, bi *debug.BuildInfo) contracts.VersionInfo {
	v := contracts.VersionInfo{SchemaVersion: contracts.CLIVersion, GoVersion: runtime.Version(), DocumentVersion: contracts.DocumentVersion}
	module := ""
	if bi != nil {
		module = bi.Main.Version
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				v.Revision = s.Value
			case "vcs.modified":
				v.Modified = s.Value == "true"
			}
		}
	}
	if sv, err := semver.Parse(st.version); err == nil {
		v.Version = sv.String()
		if st.commit != "" {
			v.Revision = st.commit
		}
		v.Date = st.date
		return v
	}
	if release(module) {
		v.Version = strings.TrimPrefix(module, "v")
		return v
	}
	v.Version = Dev
	if v.Revision != "" {
		v.Version += "+" + v.Revision[:min(len(v.Revision), 12)]
		if v.Modified {
			v.Version += ".dirty"
		}
	}
	return v
}

// release reports a module version that names a tagged release
// (v0.1.0, v1.0.0-rc.1): not "(devel)", not a Go pseudo-version of an
// untagged commit, not a tag with uncommitted changes ("+dirty").
func release(module string) bool {
	sv, err := semver.Parse(module)
	return err == nil && strings.HasPrefix(module, "v") && !pseudoVersion().MatchString(module) && !slices.Contains(sv.Build, "dirty")
}

// pseudoVersion is Go's version of an untagged commit
// (v0.0.0-20260101120000-abcdefabcdef, v1.2.4-0.20260101120000-abcdefabcdef).
// Compiled on first use: every start reads the version.
var pseudoVersion = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`-(0\.)?[0-9]{14}-[0-9a-f]{12}(\+[0-9A-Za-z.-]+)?$`)
})

// Version is the binary's semantic version (Read().Version).
func Version() string { return Read().Version }

// Semver is the binary's semantic version, without a "v": a release's own
// ("0.3.0"), else 0.0.0-dev with the commit it was built from as build
// metadata ("0.0.0-dev+1a2b3c4d5e6f", ".dirty" appended for a modified
// tree). The same as Version.
func Semver() string { return Version() }

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
