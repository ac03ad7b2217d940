package cli

import (
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/git-context-tree/git-context-tree/contracts"
)

type versionCmd struct{}

func (cmd *versionCmd) Run(c *Context) error {
	v := BuildVersion()
	return c.emit(v, func() {
		fmt.Fprintf(c.Stdout, "git-context-tree version %s", v.Version)
		if v.Revision != "" {
			fmt.Fprintf(c.Stdout, " (%.12s", v.Revision)
			if v.Modified {
				fmt.Fprint(c.Stdout, ", modified")
			}
			fmt.Fprint(c.Stdout, ")")
		}
		fmt.Fprintf(c.Stdout, " %s, CLI contract %d, document contract %d\n", v.GoVersion, v.SchemaVersion, v.DocumentVersion)
	})
}

// BuildVersion reads the module version and VCS revision stamped into the
// binary by the go command.
func BuildVersion() contracts.VersionInfo {
	v := contracts.VersionInfo{SchemaVersion: contracts.CLIVersion, Version: "(devel)", GoVersion: runtime.Version(), DocumentVersion: contracts.DocumentVersion}
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
