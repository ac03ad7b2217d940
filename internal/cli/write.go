package cli

import (
	"fmt"
	"strings"
	"time"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/operations/session"
)

type writeCmd struct {
	Prepare prepareCmd    `cmd:"" help:"Open a write session: a worktree on a new branch at the tree's committed revision."`
	Finish  finishCmd     `cmd:"" help:"Verify, commit and optionally publish a write session."`
	Abort   abortCmd      `cmd:"" help:"Remove a write session that holds no edits or commits."`
	List    writeListCmd  `cmd:"" help:"List write sessions on this machine."`
	Show    writeShowCmd  `cmd:"" help:"Show one write session."`
	Prune   writePruneCmd `cmd:"" help:"Remove every session whose work is published, merged or empty."`
	Update  updateCmd     `cmd:"" help:"Move a committed session onto the new tip of its git source's branch."`
}

func (cmd *writeCmd) Help() string {
	return `A write session is how agents and people change a tree safely: prepare
creates a separate directory with its own git repository on the branch
context-tree/<id>; edit only the tree inside it (commits made there are
never accepted); finish checks that nothing outside the tree changed,
verifies exactly the content it commits, commits it and, with --publish for
a git source, pushes the commit to the source's branch without force and
closes the session. prune removes sessions whose work is published, merged
or empty. Failures keep the session and its work.`
}

type prepareCmd struct {
	Selector string `arg:"" optional:"" name:"selector" help:"The declared tree (default: the only one, or the one you are in)."`
	Sync     bool   `name:"sync" help:"Fetch a git source's branch first (as sync does), so the session starts at upstream's newest commit. No effect on a directory source."`
}

func (cmd *prepareCmd) Help() string {
	return `Opens a write session on a declared tree. The tree's directory must be clean
(no uncommitted, untracked or ignored files). A directory source must be in
a git checkout (outside git, edit it directly and run verify); a git source
starts from its current snapshot, or with --sync from its branch fetched
just now (the same as sync for that source; a fetch failure fails prepare).
For a git source prepare reports on stderr the snapshot's commit date and
when its branch was last synced, and warns when that is more than an hour
ago or unknown (JSON: snapshot.committedAt, snapshot.syncedAt,
snapshot.stale). Prints the session id and the directory to edit.`
}

func (cmd *prepareCmd) Run(c *Context) error {
	res, err := session.Prepare(c, c.Env, cmd.Selector, session.PrepareOptions{Sync: cmd.Sync})
	if err != nil {
		return err
	}
	return c.emit(res, func() {
		fmt.Fprintf(c.Stdout, "%s\t%s\n", res.Session.ID, quote(res.Session.ContentRoot))
		c.printFreshness(res, cmd.Sync, time.Now())
		fmt.Fprintf(c.Stderr, "Edit the tree in %s, then run: git context-tree write finish %s\n", c.display(res.Session.ContentRoot), res.Session.ID)
	})
}

type finishCmd struct {
	ID             string `arg:"" name:"session" help:"Session id (from prepare or write list)."`
	Message        string `short:"m" name:"message" placeholder:"<msg>" help:"Commit message (default: generated). One that looks like it holds a secret is refused."`
	AllowSecret    bool   `name:"allow-secret-message" help:"Commit the -m message although a secret rule matches it (it is not a secret)."`
	Publish        bool   `name:"publish" help:"Push the commit to the git source's branch (normal, non-force push)."`
	IncludeIgnored bool   `name:"include-ignored" help:"Commit files under the tree that .gitignore matches."`
	IncludeHidden  bool   `name:"include-hidden" help:"Commit new hidden or infrastructure files in the tree (.DS_Store, swap files, dot-directories)."`
	Keep           bool   `name:"keep" help:"With --publish: keep the session's worktree and branch after publishing."`
}

func (cmd *finishCmd) Help() string {
	return `Checks that the session's source and repository are unchanged and its
worktree is still on its branch at its base; refuses any pending path outside
the tree (PATH_OUTSIDE_TREE), ignored files inside it (IGNORED_CONTENT,
unless --include-ignored) and new hidden files (HIDDEN_CONTENT, unless
--include-hidden); verifies the tree (TREE_INVALID, exit 1); then commits
exactly what it verified. Prints the result (unchanged, committed or
published) and the paths the commit changes. A committed session stays
available: run finish --publish later to publish it; a published session
is closed (worktree and branch removed, the record kept) unless --keep. A
rejected push (PUBLISH_REJECTED, exit 3) keeps the commit; nothing is
rebased, merged or retried.`
}

func (cmd *finishCmd) Run(c *Context) error {
	res, err := session.Finish(c, c.Env, session.FinishRequest{
		ID: cmd.ID, Message: cmd.Message, Publish: cmd.Publish, IncludeIgnored: cmd.IncludeIgnored, AllowSecretMessage: cmd.AllowSecret,
		IncludeHidden: cmd.IncludeHidden, Keep: cmd.Keep,
	})
	if err != nil {
		return err
	}
	return c.emit(res, func() {
		line := res.Result
		if res.Commit != "" {
			line += " " + res.Commit
		}
		fmt.Fprintln(c.Stdout, line)
		c.printPaths(res.Paths)
		if res.MessageReused {
			fmt.Fprintf(c.Stderr, "Committed with the message of the session's earlier finish: %q (-m gives another).\n", firstLine(res.Session.Message))
		}
		if res.Closed {
			fmt.Fprintf(c.Stderr, "Closed session %s: its worktree and branch were removed.\n", res.Session.ID)
		}
		if next := finishNextStep(res); next != "" {
			fmt.Fprintln(c.Stderr, next)
		}
	})
}

// finishNextStep is what moves a finished session's work on, "" when
// nothing is left to do.
func finishNextStep(res *contracts.SessionResult) string {
	s := res.Session
	switch {
	case res.Result == contracts.ResultUnchanged:
		return "Nothing to commit; remove the session with: git context-tree write abort " + s.ID
	case res.Result != contracts.ResultCommitted:
		return ""
	case s.Repository.Kind == contracts.SourceGit:
		return "Next: git context-tree write finish --publish " + s.ID + "   # push it to " + s.TargetBranch
	case s.TargetBranch != "":
		return "Next: git merge " + s.Branch + "   # in " + s.Repository.Root + ", on " + s.TargetBranch
	default:
		return "Next: merge " + s.Branch + " in " + s.Repository.Root
	}
}

// maxListedPaths caps the paths finish prints; the rest are counted.
const maxListedPaths = 20

func (c *Context) printPaths(paths []string) {
	for i, p := range paths {
		if i == maxListedPaths {
			fmt.Fprintf(c.Stdout, "… and %d more\n", len(paths)-i)
			break
		}
		fmt.Fprintf(c.Stdout, "  %s\n", quote(p))
	}
}

type abortCmd struct {
	ID string `arg:"" name:"session" help:"Session id."`
}

func (cmd *abortCmd) Help() string {
	return `Removes a session's worktree, branch and record, only when it has no edits
(ignored files included) and no commits. Otherwise it refuses with
SESSION_NOT_EMPTY and removes nothing: the CLI never discards work.`
}

func (cmd *abortCmd) Run(c *Context) error {
	res, err := session.Abort(c, c.Env, cmd.ID)
	if err != nil {
		return err
	}
	return c.emit(res, func() { fmt.Fprintf(c.Stdout, "aborted %s\n", res.Session.ID) })
}

type writeListCmd struct{}

func (cmd *writeListCmd) Help() string {
	return `Lists every write session on this machine, for every project, with where
its work stands. Folders among the session worktrees that no record names
are listed as unknown. A session record that cannot be read (edited by hand,
a symlink) is listed as unreadable and named on stderr with why and how to
repair or remove it; the other sessions are listed all the same, and the
exit code is 1 (--json: unreadable[] with each record's error).`
}

func (cmd *writeListCmd) Run(c *Context) error {
	res, err := session.List(c, c.Env)
	if err != nil {
		return err
	}
	return c.report(res, func() {
		t := c.newTable("SESSION", "STATUS", "TREE", "WORKTREE")
		for _, s := range res.Sessions {
			worktree := quote(s.Worktree)
			if s.ClosedAt != "" {
				worktree = "(closed)" // removed when the session was closed
			}
			t.add(s.ID, string(s.Status), quote(s.Connection.Exact), worktree)
		}
		for _, dir := range res.Unknown {
			t.add("-", "unknown", "(no session record names it)", quote(dir))
		}
		for _, u := range res.Unreadable {
			t.add(u.ID, "unreadable", "(its record cannot be read)", quote(orDash(u.Worktree)))
		}
		t.print()
		c.printUnreadable(res.Unreadable)
	})
}

// printUnreadable names on stderr each session record that could not be
// read, with why and what to do about it: the CLI cannot judge such a
// session, so it never removes it (abort and prune refuse it too).
func (c *Context) printUnreadable(list []contracts.SessionUnreadable) {
	for _, u := range list {
		fmt.Fprintf(c.Stderr, "error: session %s cannot be read (%s): %s\n", u.ID, u.Error.Code, u.Error.Message)
		keep := ""
		if u.Worktree != "" {
			keep = "copy what you need from " + quote(u.Worktree) + " first, then remove that folder too"
		}
		fmt.Fprintf(c.Stderr, "hint: repair %s by hand, or remove it%s\n", quote(u.Record), parenthesized(keep))
	}
}

func parenthesized(s string) string {
	if s == "" {
		return ""
	}
	return " (" + s + ")"
}

type writeShowCmd struct {
	ID string `arg:"" name:"session" help:"Session id."`
}

func (cmd *writeShowCmd) Run(c *Context) error {
	res, err := session.Show(c, c.Env, cmd.ID)
	if err != nil {
		return err
	}
	return c.emit(res, func() { c.printSession(res.Session) })
}

func (c *Context) printSession(s *contracts.Session) {
	w := c.Stdout
	fmt.Fprintf(w, "session  %s (%s)\n", s.ID, s.Status)
	fmt.Fprintf(w, "tree     %s\n", quote(s.Connection.Exact))
	fmt.Fprintf(w, "worktree %s\n", quote(s.Worktree))
	fmt.Fprintf(w, "edit     %s\n", quote(s.ContentRoot))
	fmt.Fprintf(w, "branch   %s (for %s)\n", s.Branch, orDash(s.TargetBranch))
	fmt.Fprintf(w, "base     %s\n", s.Base)
	fmt.Fprintf(w, "head     %s\n", orDash(s.Head))
	if s.Commit != "" {
		fmt.Fprintf(w, "commit   %s\n", s.Commit)
	}
	if s.ClosedAt != "" {
		fmt.Fprintf(w, "closed   %s\n", s.ClosedAt)
	}
	if len(s.Missing) > 0 {
		fmt.Fprintf(w, "missing  %s (removed by hand)\n", strings.Join(s.Missing, ", "))
	}
}

type writePruneCmd struct {
	Grace time.Duration `name:"grace" default:"24h" help:"Keep a session with no work opened or touched more recently than this."`
	Force bool          `name:"force" help:"Also remove folders among the session worktrees that no session record names, when they hold nothing of their own."`
}

func (cmd *writePruneCmd) Help() string {
	return `Removes every session whose work is safe: published to its git source or
merged into the checkout's branch with nothing edited since, or holding no
edits and no commits and untouched for the grace period (--grace, default
24h: an agent may have just opened it). Its worktree, branch and record go.
Every other session is kept and listed with what moves it on; no edit is
ever discarded. Worktrees or branches removed by hand are fine. Folders among
the session worktrees that no record names are listed with what keeps them;
--force removes those judged, as sessions, to hold no edit and no commit of
their own (a prepare killed midway, a record removed by hand), never one
with an agent's work. A session whose record cannot be read is kept and
named on stderr (exit 1; --json: unreadable[]).`
}

func (cmd *writePruneCmd) Run(c *Context) error {
	if cmd.Grace < 0 {
		return contracts.Errorf(contracts.CodeUsage, "--grace %s is negative", cmd.Grace)
	}
	res, err := session.Prune(c, c.Env, session.PruneRequest{Grace: cmd.Grace, Force: cmd.Force})
	if err != nil {
		return err
	}
	return c.report(res, func() {
		for _, s := range res.Removed {
			fmt.Fprintf(c.Stdout, "removed\t%s\t%s\n", s.ID, s.Status)
		}
		for _, k := range res.Kept {
			fmt.Fprintf(c.Stdout, "kept\t%s\t%s\t%s\n", k.ID, k.Status, k.Reason)
		}
		for _, u := range res.UnknownKept {
			fmt.Fprintf(c.Stdout, "unknown\t%s\t%s\n", quote(u.Worktree), u.Reason)
		}
		for _, dir := range res.UnknownRemoved {
			fmt.Fprintf(c.Stdout, "removed\t%s\tno session record named it and it held nothing of its own\n", quote(dir))
		}
		for _, u := range res.Unreadable {
			fmt.Fprintf(c.Stdout, "kept\t%s\tunreadable\tits record cannot be read (%s)\n", u.ID, u.Error.Code)
		}
		c.printUnreadable(res.Unreadable)
	})
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

type updateCmd struct {
	ID       string `arg:"" name:"session" help:"Session id."`
	Continue bool   `name:"continue" xor:"step" help:"Complete an update whose conflicts you resolved."`
	Abort    bool   `name:"abort" xor:"step" help:"Undo an update in progress: back to the session's commit."`
}

func (cmd *updateCmd) Help() string {
	return `After PUBLISH_REJECTED (the git source's branch moved on), update syncs the
source and merges what the session's commit changes in its tree onto the
branch's new tip (in the cache, from objects named by id; nothing of the
session's own .git takes part). When it merges cleanly the result becomes the
session's edits on the new base: run finish --publish, which verifies and
commits them like any edits (without -m, with the earlier finish's message).
On a conflict it stops (UPDATE_CONFLICT, exit 3) naming the files, which hold
conflict markers: edit them (no git add needed), then update --continue;
--abort goes back to the session's commit. finish never does any of this by
itself.`
}

func (cmd *updateCmd) Run(c *Context) error {
	res, err := session.Update(c, c.Env, session.UpdateRequest{ID: cmd.ID, Continue: cmd.Continue, Abort: cmd.Abort})
	if err != nil {
		return err
	}
	return c.emit(res, func() {
		if res.Result == contracts.ResultUpdated {
			fmt.Fprintf(c.Stdout, "updated %s %s\n", res.Session.ID, res.Session.Base)
			fmt.Fprintf(c.Stderr, "The session's work is now edits on %.12s: run git context-tree write finish --publish %s\n", res.Session.Base, res.Session.ID)
			return
		}
		fmt.Fprintf(c.Stdout, "%s %s\n", res.Result, res.Session.ID)
	})
}

// firstLine is a message's first line.
func firstLine(msg string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(msg), "\n")
	return line
}
