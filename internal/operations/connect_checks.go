package operations

import (
	"context"
	"fmt"
	"strings"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/sources"
)

// checkBranch asks the remote whether a new git source's branch exists:
// REF_NOT_FOUND (with close names) when it answers no, a warning when it
// cannot be reached (connect works offline, and sync will tell).
func checkBranch(ctx context.Context, env Env, src contracts.Source) (warning string, err error) {
	unreachable, err := env.Managed().CheckRemoteBranch(ctx, src.Repository, src.Ref)
	if err != nil || unreachable == "" {
		return "", err
	}
	return fmt.Sprintf("could not check that %s has branch %q (%s); declared anyway, `git context-tree sync` will tell (disconnect it if the name is wrong)",
		src.Repository, src.Ref, unreachable), nil
}

// selectorWarning says when c's short selector also names other declared
// sources, so it no longer selects one, and names for each of them the
// selector that still does: its subtree selector when unique, else its
// exact selector.
func selectorWarning(conns []sources.Connection, c sources.Connection) string {
	uses := map[string]int{}
	for _, o := range conns {
		uses[o.Short]++
		if o.SubtreeSel != "" {
			uses[o.SubtreeSel]++
		}
	}
	if uses[c.Short] < 2 {
		return ""
	}
	var unique []string
	for _, o := range conns {
		if o.Short != c.Short {
			continue
		}
		sel := o.Exact
		if o.SubtreeSel != "" && uses[o.SubtreeSel] == 1 {
			sel = o.SubtreeSel
		}
		if o.Identity == c.Identity {
			sel += " (this one)"
		}
		unique = append(unique, sel)
	}
	return fmt.Sprintf("the short selector %q now names %d sources and selects none of them; use %s",
		c.Short, len(unique), strings.Join(unique, ", "))
}
