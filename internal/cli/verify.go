package cli

import (
	"fmt"
	"path/filepath"
	"slices"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/annotations"
	"github.com/git-context-tree/git-context-tree/internal/operations"
	"github.com/git-context-tree/git-context-tree/internal/operations/evidence"
	"github.com/git-context-tree/git-context-tree/internal/operations/hooks"
	"github.com/git-context-tree/git-context-tree/internal/operations/staged"
	"github.com/git-context-tree/git-context-tree/internal/tree"
)

type verifyCmd struct {
	Trees    []string `arg:"" optional:"" name:"selector-or-dir" help:"Declared sources or tree directories (default: every declared source, else the tree at or above the current directory)."`
	Staged   bool     `name:"staged" help:"Verify the declared trees of this repository as staged in the index (what the pre-commit hook runs), and note on stderr each staged change to cited code whose citing document is not staged too (advisory; not for a merge's commit)."`
	Links    bool     `name:"links" help:"Also report relative Markdown links whose target does not exist (TREE_MARKDOWN_LINK_BROKEN); not part of a tree's validity unless asked for."`
	Evidence bool     `name:"evidence" help:"Also read every document's cited sources from git: the file exists at HEAD (or --at), its lines are in range, its sha256 matches. With --staged: give the evidence notes of a merge's commit too."`
	At       string   `name:"at" placeholder:"REV" help:"With --evidence: check the sources at this revision of the project's repository instead of HEAD."`
	Strict   bool     `name:"strict" help:"With --staged: fail (exit 1) when an evidence note is printed."`
	Verbose  bool     `name:"verbose" help:"With --staged: also print each tree's summary line when the check passes (the hook is quiet on success; GIT_CONTEXT_TREE_VERBOSE=1 does the same for the installed hook). Findings, evidence notes and warnings are always printed."`
	Hook     string   `name:"hook" placeholder:"NAME" help:"With --staged: the git hook running the check (pre-commit, pre-merge-commit, prepare-commit-msg, pre-applypatch). In prepare-commit-msg only the commits of cherry-pick, revert and rebase are judged."`
	reviewFormat
}

func (cmd *verifyCmd) Help() string {
	return `Checks every directory index, document's metadata, Markdown link
containment and soft link of each tree, and reports every finding as
"path:line: CODE message" (paths relative to the current directory). Exit 0
when all trees are valid, 1 when findings were reported, 128 when a named
directory is not a tree. --links also reports relative Markdown links to
paths that do not exist (opt-in: the contract checks links for containment
only).`
}

func (cmd *verifyCmd) Run(c *Context) error {
	if cmd.At != "" && !cmd.Evidence {
		return contracts.Errorf(contracts.CodeUsage, "--at names the revision --evidence reads sources at; add --evidence")
	}
	if cmd.Strict && !cmd.Staged {
		return contracts.Errorf(contracts.CodeUsage, "--strict makes the evidence notes of verify --staged fail the commit; add --staged")
	}
	annotated, err := cmd.annotated(c)
	if err != nil {
		return err
	}
	if cmd.Staged {
		if annotated {
			return contracts.Errorf(contracts.CodeUsage, "verify --staged is the commit hook's check; --format %s annotates verify of the work tree", cmd.Format)
		}
		return cmd.runStaged(c)
	}
	rep, targets, err := operations.VerifyTrees(c, c.Env, cmd.Trees, tree.VerifyOptions{Links: cmd.Links})
	if err != nil {
		return err
	}
	if cmd.Evidence {
		if err := evidence.Verify(c, c.Env, rep, targets, cmd.At); err != nil {
			return err
		}
	}
	if annotated {
		return cmd.writeAnnotations(c, rep, func(top string) []annotations.Annotation { return annotations.FromVerify(rep, top) })
	}
	return c.report(rep, func() { c.printVerify(rep) })
}

// runStaged is hook mode: findings, then how to bypass and see details.
func (cmd *verifyCmd) runStaged(c *Context) error {
	if len(cmd.Trees) > 0 {
		return contracts.Errorf(contracts.CodeUsage, "verify --staged checks every declared tree of this repository; it takes no arguments")
	}
	if cmd.Links {
		return contracts.Errorf(contracts.CodeUsage, "verify --links checks the work tree; it cannot be combined with --staged")
	}
	if cmd.At != "" {
		return contracts.Errorf(contracts.CodeUsage, "verify --staged --evidence judges the commit being made; --at cannot be combined with --staged")
	}
	// The installed hook takes no flags: GIT_CONTEXT_TREE_VERBOSE=1 (only
	// 1, like GIT_CONTEXT_TREE_SKIP: no value can make the hook refuse a
	// commit) turns the summary on there.
	verbose := cmd.Verbose || c.Env.Vars.Get(verboseVar) == "1"
	judges, why, err := hooks.Judges(c, c.Env, cmd.Hook)
	if err != nil {
		return err
	}
	if !judges {
		// Silent in text: git runs this hook for every commit.
		rep := &contracts.VerifyReport{SchemaVersion: contracts.CLIVersion, OK: true, Trees: []contracts.TreeReport{}, Note: why}
		return c.report(rep, func() {})
	}
	// The evidence notes are advisory and part of every judged commit
	// (the hook's included); a merge's only with --evidence.
	rep, err := staged.Verify(c, c.Env.Git, c.Env.Dir, staged.Options{Notes: true, MergeNotes: cmd.Evidence})
	if err != nil {
		return err
	}
	if cmd.Strict && len(rep.EvidenceNotes) > 0 {
		rep.OK = false
	}
	return c.report(rep, func() {
		for _, n := range rep.EvidenceNotes {
			fmt.Fprintf(c.Stderr, "note: %s cites %s, changed in this commit\n", n.Document, n.Source)
		}
		for _, w := range rep.Warnings {
			fmt.Fprintf(c.Stderr, "git-context-tree: warning: %s\n", w)
		}
		if rep.Note != "" {
			// Status, not advice (nothing staged in a tree, no tree
			// declared): quiet like a passing check.
			if verbose {
				fmt.Fprintf(c.Stderr, "git-context-tree: %s\n", rep.Note)
			}
			return
		}
		failed := slices.ContainsFunc(rep.Trees, func(t contracts.TreeReport) bool { return !t.OK })
		if !failed && !verbose {
			// Quiet on success: the hook runs for every commit, code-only
			// ones included; a tree that was skipped is still said.
			c.printSkippedTrees(rep)
			if !rep.OK {
				fmt.Fprintln(c.Stderr, strictFailureHint)
			}
			return
		}
		c.printVerify(rep)
		if failed {
			fmt.Fprintln(c.Stderr, stagedFailureHint(cmd.Hook))
		} else if !rep.OK {
			fmt.Fprintln(c.Stderr, strictFailureHint)
		}
	})
}

// verboseVar set to 1 makes the hook print its summary on success.
const verboseVar = "GIT_CONTEXT_TREE_VERBOSE"

// strictFailureHint ends a --strict check that failed on evidence notes alone.
const strictFailureHint = "--strict: the commit changes cited code without its documents; update and stage them (git context-tree evidence stamp after re-reading), or commit without --strict"

// stagedFailureHint says how to go on when the hook rejects the index.
func stagedFailureHint(hook string) string {
	const details = "; details: git context-tree --json verify --staged"
	// A new user's first rejected commit is usually of findings fix repairs.
	const fix = " (git context-tree fix --write repairs the mechanical ones in the work tree)"
	switch hook {
	case "pre-merge-commit":
		return "The merged Context Tree does not verify. Fix the findings" + fix + ", stage them and conclude the merge with git commit, or merge with --no-verify (GIT_CONTEXT_TREE_SKIP=1 skips only this check)" + details
	case "prepare-commit-msg":
		return "The Context Tree this cherry-pick, revert or rebase would commit does not verify. Fix the findings" + fix + ", stage them and continue (for example git cherry-pick --continue or git rebase --continue), or abort; GIT_CONTEXT_TREE_SKIP=1 skips this check" + details
	case "pre-applypatch":
		return "The Context Tree this patch would commit does not verify. Fix the findings" + fix + ", stage them and run git am --continue, or skip the patch; GIT_CONTEXT_TREE_SKIP=1 skips this check" + details
	}
	return "The staged Context Tree does not verify. Fix the findings" + fix + " and stage them, or commit with --no-verify (GIT_CONTEXT_TREE_SKIP=1 skips only this check)" + details
}

func (c *Context) printSkippedTrees(rep *contracts.VerifyReport) {
	for _, s := range rep.Skipped {
		fmt.Fprintf(c.Stderr, "skipped %s: %s\n", quote(s.Selector), s.Error.Message)
	}
}

func (c *Context) printVerify(rep *contracts.VerifyReport) {
	c.printSkippedTrees(rep)
	for _, t := range rep.Trees {
		for _, f := range t.Findings {
			fmt.Fprintln(c.Stdout, c.findingLine(t.Root, f))
		}
		s := t.Scanned
		status := "ok"
		if !t.OK {
			status = fmt.Sprintf("%d %s", len(t.Findings), plural(len(t.Findings), "finding"))
		}
		fmt.Fprintf(c.Stderr, "%s: %d %s in %d %s: %s\n", c.display(t.Root),
			s.Documents, plural(s.Documents, "document"), s.Directories, plural(s.Directories, "directory"), status)
	}
}

// findingLine renders a finding as "path:line: CODE message" with the path
// as the user can open it from the current directory.
func (c *Context) findingLine(root string, f contracts.Finding) string {
	loc := c.display(filepath.Join(root, filepath.FromSlash(f.Path)))
	if f.Line > 0 {
		loc = fmt.Sprintf("%s:%d", loc, f.Line)
	}
	msg := f.Message
	if f.Target != "" {
		msg = fmt.Sprintf("%s: %s", msg, quote(f.Target))
	}
	return fmt.Sprintf("%s: %s %s", loc, f.Code, msg)
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	if word == "directory" {
		return "directories"
	}
	return word + "s"
}
