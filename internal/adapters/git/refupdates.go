package git

import (
	"bytes"
	"context"
	"fmt"
)

// RefUpdate is one change of an UpdateRefs transaction. New "" deletes the
// ref; Create requires that it does not exist yet; otherwise Old, when
// set, must be its current value.
type RefUpdate struct {
	Ref, New, Old string
	Create        bool
}

// UpdateRefs applies the changes to gitDir's refs in one transaction
// (`update-ref --stdin`): all of them, or none when any check fails.
// Deleting a ref that does not exist is no failure.
func (g *Git) UpdateRefs(ctx context.Context, gitDir string, updates []RefUpdate) error {
	var stdin bytes.Buffer
	for _, u := range updates {
		// An empty old value would mean "must not exist": leave it out.
		old := ""
		if u.Old != "" {
			old = " " + u.Old
		}
		switch {
		case u.New == "":
			fmt.Fprintf(&stdin, "delete %s%s\n", u.Ref, old)
		case u.Create:
			fmt.Fprintf(&stdin, "create %s %s\n", u.Ref, u.New)
		default:
			fmt.Fprintf(&stdin, "update %s %s%s\n", u.Ref, u.New, old)
		}
	}
	cmd, err := g.command(ctx, Isolated, gitDir, "--git-dir="+gitDir, "update-ref", "--no-deref", "--stdin")
	if err != nil {
		return err
	}
	cmd.Stdin = &stdin
	_, err = runCmd(cmd, []string{"update-ref", "--stdin"})
	return err
}
