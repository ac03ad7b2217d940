package cli

import (
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/operations/doctor"
)

type doctorCmd struct {
	Fix bool `name:"fix" help:"First repair what is safe and local: state permissions and locks left by exited processes."`
}

func (cmd *doctorCmd) Help() string {
	return `Checks this machine's and this project's setup and prints one line per
check: ok, warn or fail, with the command that fixes every line that is not
ok. Areas: git (version, identity, URL rewrites of GitHub), project
(configuration, selectors, each declared tree resolves, verifies or is
synced), hook (whether git runs the tree check on commit, whether hooks
find the binary), skills (per detected coding agent), schedules (cleanup
timers and their last runs), state ($CONTEXT_TREE_HOME permissions, stale
locks, broken sessions, disk use) and mcp (agent hosts' server entries).

Exit 0 when nothing fails (warnings allowed), 1 otherwise. --fix changes
only the state directory's permissions and removes locks whose owner has
exited, listing each repair; everything else is left to the printed
commands.`
}

func (cmd *doctorCmd) Run(c *Context) error {
	res, err := doctor.Run(c, c.Env, doctor.Request{Fix: cmd.Fix})
	if err != nil {
		return err
	}
	return c.report(res, func() { c.printDoctor(res) })
}

func (c *Context) printDoctor(res *contracts.DoctorResult) {
	for _, f := range res.Fixed {
		fmt.Fprintf(c.Stderr, "fixed: %s %s (%s)\n", f.Action, c.display(f.Path), f.Check)
	}
	w := tabwriter.NewWriter(c.Stdout, 0, 4, 2, ' ', 0)
	for _, ch := range res.Checks {
		fmt.Fprintf(w, "%s\t%s\t%s\n", ch.Status, ch.Name, oneLine(ch.Message))
		if ch.Fix != "" {
			fmt.Fprintf(w, "\t\tfix: %s\n", oneLine(ch.Fix))
		}
	}
	w.Flush()
	fails, warns := 0, 0
	for _, ch := range res.Checks {
		switch ch.Status {
		case contracts.DoctorFail:
			fails++
		case contracts.DoctorWarn:
			warns++
		}
	}
	fmt.Fprintf(c.Stderr, "%d check(s): %d failed, %d warning(s)\n", len(res.Checks), fails, warns)
}

// oneLine keeps a message on its line.
func oneLine(s string) string { return strings.ReplaceAll(s, "\n", " ") }
