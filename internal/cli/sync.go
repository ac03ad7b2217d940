package cli

import (
	"fmt"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/operations"
)

type syncCmd struct {
	Selectors []string `arg:"" optional:"" name:"selector" help:"Declared sources to sync (default: all)."`
	Offline   bool     `name:"offline" help:"Use cached branches only; never touch the network."`
	Prune     bool     `name:"prune" help:"Then remove the synced repositories' old snapshots, as gc does."`
}

func (cmd *syncCmd) Help() string {
	return `Fetches exactly the declared branch of each git source into the machine's
repository cache (~/.context-tree/repos, one per repository) and checks the
fetched commit out as a detached snapshot (~/.context-tree/snapshots/<owner>/
<repo>/<commit>), which verify, read and resolve then use. Directory sources
are resolved and reported too. --offline uses the cached branch and fails a
source that was never fetched (CACHE_MISSING). One source's failure does not
stop the others; exit 1 when any failed. Host git supplies authentication.
--prune then removes old snapshots of the synced repositories (see gc).`
}

func (cmd *syncCmd) Run(c *Context) error {
	sync := operations.Sync
	if cmd.Prune {
		sync = operations.SyncPruned
	}
	res, err := sync(c, c.Env, cmd.Selectors, cmd.Offline)
	if err != nil {
		return err
	}
	return c.report(res, func() { c.printSync(res); c.printPrune(c.Stderr, res.Prune) })
}

func (c *Context) printSync(res *contracts.SyncResult) {
	for _, e := range res.Connections {
		if !e.OK {
			fmt.Fprintf(c.Stdout, "%s\terror %s: %s\n", quote(e.Connection.Exact), e.Error.Code, e.Error.Message)
			if findings, ok := e.Error.Details["findings"].([]contracts.Finding); ok {
				root, _ := e.Error.Details["root"].(string)
				for _, f := range findings {
					fmt.Fprintf(c.Stdout, "\t%s\n", c.findingLine(root, f))
				}
			}
			continue
		}
		line := fmt.Sprintf("%s\t%s", quote(e.Connection.Exact), quote(e.TreeRoot))
		if r := e.Repository; r != nil && r.Commit != "" {
			line += fmt.Sprintf("\t%.12s", r.Commit)
		}
		if e.Dirty != nil && *e.Dirty {
			line += "\tdirty"
		}
		fmt.Fprintln(c.Stdout, line)
	}
}
