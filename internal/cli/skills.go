package cli

import (
	"fmt"
	"strings"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/operations"
)

type skillsCmd struct {
	Install   skillsInstallCmd   `cmd:"" help:"Install the context-tree-* skills for detected coding agents."`
	Uninstall skillsUninstallCmd `cmd:"" help:"Remove the context-tree-* skills."`
	List      skillsListCmd      `cmd:"" help:"List installed context-tree-* skills and whether they match this binary."`
}

func (cmd *skillsCmd) Help() string {
	return `Agent skills teach coding agents to read and maintain Context Trees with this
command. Installation owns only skills named context-tree-*; other skills are
never touched, and no instruction file (AGENTS.md, CLAUDE.md, GEMINI.md) is
ever written.

Global directories, for detected hosts only (a host's own directory is never
created):
  claude    ~/.claude/skills ($CLAUDE_CONFIG_DIR/skills), if ~/.claude
            ($CLAUDE_CONFIG_DIR) exists
  agents    ~/.agents/skills, shared by codex (~/.codex or $CODEX_HOME),
            gemini (~/.gemini), copilot (~/.copilot), opencode
            ($XDG_CONFIG_HOME/opencode or ~/.config/opencode) and pi
            (~/.pi/agent or $PI_CODING_AGENT_DIR)
  cursor    ~/.cursor/skills, if ~/.cursor exists and ~/.claude does not
            (Cursor reads ~/.claude/skills too)
With --project <dir>: <dir>/.claude/skills and <dir>/.agents/skills.`
}

// skillsTargeting are the options every skills command takes.
type skillsTargeting struct {
	Project string   `name:"project" placeholder:"<dir>" help:"Use the project's .claude/skills and .agents/skills instead of the detected hosts' global directories."`
	Host    []string `name:"host" placeholder:"<host>" enum:"claude,codex,copilot,cursor,gemini,opencode,pi" help:"Only these hosts: claude, codex, copilot, cursor, gemini, opencode, pi (repeatable)."`
}

func (t skillsTargeting) request(dry bool) operations.SkillsRequest {
	return operations.SkillsRequest{Project: t.Project, Hosts: t.Host, DryRun: dry}
}

type skillsInstallCmd struct {
	skillsTargeting
	DryRun bool `name:"dry-run" help:"Report what would change; write nothing."`
}

func (cmd *skillsInstallCmd) Help() string {
	return `Copies the embedded context-tree-* skills, stamped with this binary's
version, into each selected skills directory: every differing skill is built
in a staging directory beside it and swapped in; other context-tree-* entries
are removed; files are 0644, directories 0755. A symlink or non-directory on
the way to a skills directory refuses the whole request (exit 3,
SKILLS_PATH_UNSAFE) before anything is written. Reinstalling changes nothing.
Undetected hosts are listed as skipped with the reason.`
}

// instructionSnippet is what users may paste into their own agent
// instructions; the product never writes such files itself.
const instructionSnippet = `Optional: paste into your AGENTS.md, CLAUDE.md or GEMINI.md (git-context-tree never edits them):

  This project keeps durable knowledge in a Context Tree (see .context-tree.json).
  Before answering questions about its design, decisions or conventions, use the
  context-tree-read skill; record lasting decisions with context-tree-write.
`

func (cmd *skillsInstallCmd) Run(c *Context) error {
	res, err := operations.InstallSkills(c, c.Env, cmd.request(cmd.DryRun))
	if err != nil {
		return err
	}
	if err := c.emit(res, func() { c.printSkillTargets(res.Installed, res.DryRun, "install") }); err != nil {
		return err
	}
	c.printSkipped(res.Skipped)
	switch {
	case len(res.Installed) == 0:
		fmt.Fprintln(c.Stderr, "No coding agent detected: nothing installed (use --project <dir> to install into a repository).")
	case !res.DryRun:
		fmt.Fprint(c.Stderr, instructionSnippet)
	}
	return nil
}

type skillsUninstallCmd struct {
	skillsTargeting
	DryRun bool `name:"dry-run" help:"Report what would be removed; remove nothing."`
}

func (cmd *skillsUninstallCmd) Help() string {
	return `Removes every context-tree-* entry (and any leftover of an interrupted
install) from the same directories install uses, plus Cursor's own directory
if it exists. Other skills and the directories themselves stay.`
}

func (cmd *skillsUninstallCmd) Run(c *Context) error {
	res, err := operations.UninstallSkills(c, c.Env, cmd.request(cmd.DryRun))
	if err != nil {
		return err
	}
	if err := c.emit(res, func() { c.printSkillTargets(res.Uninstalled, res.DryRun, "uninstall") }); err != nil {
		return err
	}
	c.printSkipped(res.Skipped)
	return nil
}

type skillsListCmd struct {
	skillsTargeting
}

func (cmd *skillsListCmd) Help() string {
	return `Lists every context-tree-* entry in the directories the detected hosts read,
with its metadata.version and status: current (exactly what this binary
installs), stale (install would replace or remove it) or unknown (no readable
version: a foreign skill, a symlink, not a directory). Exit 1 when any is
stale.`
}

func (cmd *skillsListCmd) Run(c *Context) error {
	res, err := operations.ListSkills(c, c.Env, cmd.request(false))
	if err != nil {
		return err
	}
	if err := c.emit(res, func() { c.printSkillsList(res) }); err != nil {
		return err
	}
	c.printSkipped(res.Skipped)
	if n := res.Stale(); n > 0 {
		fmt.Fprintf(c.Stderr, "%d stale skill(s): run `git context-tree skills install`\n", n)
	}
	return exitFor(res)
}

func (c *Context) printSkillTargets(targets []contracts.SkillsTarget, dry bool, verb string) {
	for _, t := range targets {
		where := fmt.Sprintf("%s (%s)", c.display(t.Path), strings.Join(t.Hosts, ", "))
		var line string
		switch {
		case !t.Changed && verb == "install":
			line = "up to date: " + where
		case !t.Changed:
			line = "nothing to remove: " + where
		case verb == "install":
			line = fmt.Sprintf("installed %s in %s", strings.Join(t.Skills, ", "), where)
			if len(t.Removed) > 0 {
				line += "; removed " + strings.Join(t.Removed, ", ")
			}
		default:
			line = fmt.Sprintf("removed %s from %s", strings.Join(t.Skills, ", "), where)
		}
		if dry && t.Changed {
			line = "would have " + line
		}
		fmt.Fprintln(c.Stdout, line)
	}
}

func (c *Context) printSkipped(skipped []contracts.SkippedHost) {
	for _, s := range skipped {
		fmt.Fprintf(c.Stderr, "skipped %s: %s\n", s.Host, s.Reason)
	}
}

func (c *Context) printSkillsList(res *contracts.SkillsListResult) {
	for _, l := range res.Locations {
		if len(l.Skills) == 0 {
			fmt.Fprintf(c.Stderr, "no context-tree skills in %s (%s)\n", c.display(l.Path), strings.Join(l.Hosts, ", "))
		}
		for _, s := range l.Skills {
			version := s.Version
			if version == "" {
				version = "-"
			}
			line := fmt.Sprintf("%s\t%s\t%s", s.Status, version, quote(s.Path))
			if s.Reason != "" {
				line += "\t" + s.Reason
			}
			fmt.Fprintln(c.Stdout, line)
		}
	}
}
