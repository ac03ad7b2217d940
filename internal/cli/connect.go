package cli

import (
	"fmt"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/operations"
	"github.com/git-context-tree/git-context-tree/internal/operations/hooks"
)

type connectCmd struct {
	Target       string `arg:"" name:"dir|owner/repo" help:"A tree directory, a GitHub repository identity (with --ref), or a GitHub folder address (https://github.com/<owner>/<repo>/tree/<branch>/<subtree>)."`
	Ref          string `name:"ref" placeholder:"<branch>" help:"Branch of a git source (required for owner/repo)."`
	Path         string `name:"path" placeholder:"<subtree>" help:"Subtree of a git source holding the tree (default: .)."`
	AllowInvalid bool   `name:"allow-invalid" help:"Declare a directory even if its tree does not verify."`
	Offline      bool   `name:"offline" help:"Declare a git source without asking the remote whether the branch exists."`
}

func (cmd *connectCmd) Help() string {
	return `Declares a tree in the project's .context-tree.json, creating the file at the
project root if needed. A directory must be a tree root that verifies (unless
--allow-invalid); inside the project it is stored relative to the project
root. A git source is an identity owner/repo with an explicit --ref branch
(stored as such, never a URL); the GitHub address of a folder,
https://github.com/<owner>/<repo>/tree/<branch>/<subtree> as list prints it,
stands for all three (a branch with "/" is one encoded segment, feature%2Fx),
and https://github.com/<owner>/<repo> for the repository (with --ref). Connecting a declared source changes nothing ("changed": false).
A new git source's branch is checked on the remote (git ls-remote): a branch
it does not have is refused with REF_NOT_FOUND naming close branch names;
an unreachable remote only warns (git's exit status is the same for a
repository that does not exist, so a mistyped name only warns too, unless
url.<base>.insteadOf rewrites it to a local path that does not exist:
REPOSITORY_NOT_FOUND); --offline skips the check. When the new
source's short selector is shared with another, a warning names the
selectors that stay unique (such as handbook/teams/platform).

Examples:
  git context-tree connect docs/context
  git context-tree connect acme/handbook --ref main --path teams/platform
  git context-tree connect https://github.com/acme/handbook/tree/main/teams/platform`
}

func (cmd *connectCmd) Run(c *Context) error {
	res, err := operations.Connect(c, c.Env, operations.ConnectRequest{
		Target: cmd.Target, Ref: cmd.Ref, Path: cmd.Path, AllowInvalid: cmd.AllowInvalid, Offline: cmd.Offline,
	})
	if err != nil {
		return err
	}
	for _, w := range res.Warnings {
		fmt.Fprintf(c.Stderr, "warning: %s\n", w)
	}
	return c.emit(res, func() {
		c.printChange(res, "connected", "already connected")
		var roots []string
		if res.Connection.Source.Kind == contracts.SourceDirectory {
			roots = append(roots, res.Connection.Exact)
		}
		c.printNext(hooks.GitSteps(c, c.Env, roots...))
	})
}

func (c *Context) printChange(res *contracts.ConnectionChange, done, unchanged string) {
	status := done
	if !res.Changed {
		status = unchanged
	}
	fmt.Fprintf(c.Stdout, "%s %s (%s)\n", status, quote(res.Connection.Exact), quote(res.Connection.Selector))
}
