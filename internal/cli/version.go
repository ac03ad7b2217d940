package cli

import (
	"fmt"
	"strings"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/buildinfo"
)

type versionCmd struct{}

func (*versionCmd) selfContained() {}

func (cmd *versionCmd) Run(c *Context) error {
	v := BuildVersion()
	return c.emit(v, func() {
		fmt.Fprintf(c.Stdout, "git-context-tree version %s", v.Version)
		var about []string
		if v.Revision != "" {
			about = append(about, fmt.Sprintf("%.12s", v.Revision))
		}
		if v.Modified {
			about = append(about, "modified")
		}
		if v.Date != "" {
			about = append(about, v.Date)
		}
		if len(about) > 0 {
			fmt.Fprintf(c.Stdout, " (%s)", strings.Join(about, ", "))
		}
		fmt.Fprintf(c.Stdout, " %s, CLI contract %d, document contract %d\n", v.GoVersion, v.SchemaVersion, v.DocumentVersion)
	})
}

// BuildVersion is the binary's semantic version and build information:
// a release build's stamp, else what the go command stamped.
func BuildVersion() contracts.VersionInfo { return buildinfo.Read() }
