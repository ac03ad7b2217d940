package buildinfo

import (
	"runtime"
	"runtime/debug"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/semver"
)

const rev = "1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d"

func goBuild(module string, settings ...string) *debug.BuildInfo {
	bi := &debug.BuildInfo{Main: debug.Module{Path: "github.com/git-context-tree/git-context-tree", Version: module}}
	for i := 0; i+1 < len(settings); i += 2 {
		bi.Settings = append(bi.Settings, debug.BuildSetting{Key: settings[i], Value: settings[i+1]})
	}
	return bi
}

func TestReadVersions(t *testing.T) {
	base := contracts.VersionInfo{SchemaVersion: contracts.CLIVersion, GoVersion: runtime.Version(), DocumentVersion: contracts.DocumentVersion}
	with := func(version, revision string, modified bool, date string) contracts.VersionInfo {
		v := base
		v.Version, v.Revision, v.Modified, v.Date = version, revision, modified, date
		return v
	}
	for _, tc := range []struct {
		name string
		st   stamp
		bi   *debug.BuildInfo
		want contracts.VersionInfo
	}{
		{"release build, stamped by the linker",
			stamp{"0.1.0", rev, "2026-12-02T14:00:00Z"}, goBuild("(devel)"),
			with("0.1.0", rev, false, "2026-12-02T14:00:00Z")},
		{"stamp with a v",
			stamp{"v1.2.3-rc.1", rev, ""}, goBuild("(devel)"), with("1.2.3-rc.1", rev, false, "")},
		{"the stamp's commit wins over the go command's",
			stamp{"0.1.0", rev, ""}, goBuild("(devel)", "vcs.revision", "ffffffffffffffffffffffffffffffffffffffff"), with("0.1.0", rev, false, "")},
		{"go install …@v0.1.0",
			stamp{}, goBuild("v0.1.0"), with("0.1.0", "", false, "")},
		{"a clone, clean",
			stamp{}, goBuild("(devel)", "vcs.revision", rev, "vcs.modified", "false"), with("0.0.0-dev+1a2b3c4d5e6f", rev, false, "")},
		{"a clone, modified",
			stamp{}, goBuild("(devel)", "vcs.revision", rev, "vcs.modified", "true"), with("0.0.0-dev+1a2b3c4d5e6f.dirty", rev, true, "")},
		{"a clone that go 1.24+ stamps with a pseudo-version",
			stamp{}, goBuild("v0.0.0-20261202140000-1a2b3c4d5e6f", "vcs.revision", rev), with("0.0.0-dev+1a2b3c4d5e6f", rev, false, "")},
		{"a clone after a tag",
			stamp{}, goBuild("v0.1.1-0.20261202140000-1a2b3c4d5e6f", "vcs.revision", rev), with("0.0.0-dev+1a2b3c4d5e6f", rev, false, "")},
		{"a clone at a tag with changes",
			stamp{}, goBuild("v0.1.0+dirty", "vcs.revision", rev, "vcs.modified", "true"), with("0.0.0-dev+1a2b3c4d5e6f.dirty", rev, true, "")},
		{"a pseudo-version of a dirty tree",
			stamp{}, goBuild("v0.0.0-20261202140000-1a2b3c4d5e6f+dirty", "vcs.revision", rev, "vcs.modified", "true"), with("0.0.0-dev+1a2b3c4d5e6f.dirty", rev, true, "")},
		{"no VCS information (-buildvcs=false, go test)",
			stamp{}, goBuild("(devel)"), with("0.0.0-dev", "", false, "")},
		{"no build information",
			stamp{}, nil, with("0.0.0-dev", "", false, "")},
		{"a stamp that is not a semantic version is ignored",
			stamp{"main", rev, "yesterday"}, goBuild("(devel)"), with("0.0.0-dev", "", false, "")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := read(tc.st, tc.bi)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			if !semver.Valid(got.Version) {
				t.Errorf("%q is not a semantic version", got.Version)
			}
		})
	}
}

func TestRead(t *testing.T) {
	v := Read()
	if v.SchemaVersion != contracts.CLIVersion || v.DocumentVersion != contracts.DocumentVersion || v.GoVersion != runtime.Version() {
		t.Errorf("got %+v", v)
	}
	if !semver.Valid(v.Version) || Version() != v.Version || Semver() != v.Version {
		t.Errorf("Version() = %q, Semver() = %q, Read().Version = %q", Version(), Semver(), v.Version)
	}
}
