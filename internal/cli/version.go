package cli

import (
	"fmt"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/buildinfo"
)

type versionCmd struct{}

func (*versionCmd) selfContained() {}

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
func BuildVersion() contracts.VersionInfo { return buildinfo.Read() }
