package cli

import (
	"fmt"
	"strings"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/export"
	"github.com/git-context-tree/git-context-tree/internal/operations/exports"
	"github.com/git-context-tree/git-context-tree/internal/redact"
)

type exportCtxfileCmd struct {
	Selector string `arg:"" optional:"" name:"selector" help:"One tree: a declared source's selector or a tree directory (default: every declared tree)."`
	Profile  string `name:"profile" placeholder:"repo-safe|full|custom" help:"repo-safe (the default: manifest, no bodies), full (adds document bodies), custom (sections from .ctxfile.json export.include). --check without it checks against the profile the envelope was written with."`
	Encoding string `name:"encoding" placeholder:"<name>" help:"Tokenizer vocabulary for token counts: o200k_base (default) or cl100k_base."`
	Stdout   bool   `name:"stdout" xor:"mode" help:"Print the envelope instead of writing it (with --json: inside the result, as envelope)."`
	Check    bool   `name:"check" xor:"mode" help:"Write nothing; exit 1 when .ctxfile/context.json is stale compared with the trees (for CI and pre-commit)."`
	Stage    bool   `name:"stage" xor:"mode" help:"Write the envelope and add it to git's index: the commit hook's refresh (hooks install --ctxfile)."`
}

func (cmd *exportCtxfileCmd) Help() string {
	return `Writes .ctxfile/context.json at the project root, the .ctxfile convention's
envelope (schema 1: git context-tree schema ctxfile), and .ctxfile/context.md,
a derived render. The context carries meta (tool, trees, commit, dirty), a
keyFiles manifest (path, title, tokens, truncated, redactions) of every
document in tree order, and gitState (branch, ahead/behind, dirty). Absolute
paths never appear. Every text passes the secret redactor again. An envelope
that would differ only in its timestamps is left as it is.
SOURCE_DATE_EPOCH, when set, is the time written. --check compares what the
trees say (documents, profile, sections), not commits or times; without
--profile it checks against the profile the envelope was written with.`
}

func (cmd *exportCtxfileCmd) Run(c *Context) error {
	switch cmd.Profile {
	case "", contracts.ProfileRepoSafe, contracts.ProfileFull, contracts.ProfileCustom:
	default:
		// Not a kong enum: an enum needs a default, and "" (unset) is what
		// lets --check take the profile the envelope was written with.
		return contracts.Errorf(contracts.CodeUsage, "--profile must be one of %q, %q, %q but got %q",
			contracts.ProfileRepoSafe, contracts.ProfileFull, contracts.ProfileCustom, cmd.Profile)
	}
	if cmd.Profile == "full" {
		// Loud, and before anything is written or printed.
		fmt.Fprintf(c.Stderr, "warning: %s\n", strings.ToUpper(exports.FullProfileWarning[:1])+exports.FullProfileWarning[1:])
	}
	res, err := exports.Ctxfile(c, c.Env, exports.CtxfileRequest{
		Selector: cmd.Selector, Profile: cmd.Profile, Encoding: cmd.Encoding, Stdout: cmd.Stdout, Check: cmd.Check, Stage: cmd.Stage,
	})
	if err != nil {
		return err
	}
	c.warnSkipped(res.Skipped)
	if cmd.Stdout && !c.JSON {
		return c.writeRawJSON(res.Envelope)
	}
	return c.report(res, func() { c.printExportCtxfile(res) })
}

// writeRawJSON prints a document that is not a CLI result (the envelope)
// as the file would hold it, redacted string by string.
func (c *Context) writeRawJSON(env *contracts.CtxfileEnvelope) error {
	data, err := export.MarshalEnvelope(*env)
	if err != nil {
		return err
	}
	_, err = redact.Raw(c.Stdout).Write(redact.JSON(data))
	return err
}

func (c *Context) printExportCtxfile(r *contracts.ExportCtxfileResult) {
	w := c.Stdout
	if r.Fresh != nil {
		if *r.Fresh {
			fmt.Fprintf(w, ".ctxfile/context.json is up to date with %s\n", countOf(len(r.Trees), "tree"))
			return
		}
		again := "git context-tree export ctxfile"
		if r.Profile != contracts.ProfileRepoSafe {
			again += " --profile " + r.Profile
		}
		fmt.Fprintf(w, ".ctxfile/context.json is stale; run `%s` and commit it:\n", again)
		for _, d := range r.Differences {
			fmt.Fprintf(w, "  %s\n", d)
		}
		return
	}
	state := "Kept (unchanged)"
	for _, f := range r.Files {
		if !f.Unchanged {
			state = "Wrote"
		}
	}
	fmt.Fprintf(w, "%s .ctxfile/context.json and .ctxfile/context.md in %s: profile %s, %s, %d tokens (%s), %s\n",
		state, c.display(r.ProjectRoot), r.Profile, countOf(r.Documents, "document"), r.Tokens, r.Encoding, countOf(r.Redactions, "redaction"))
	if r.AgentContext != "" {
		fmt.Fprintf(c.Stderr, "The .ctxfile convention asks projects to say the context is there; add this section to your README:\n\n%s\n", r.AgentContext)
	}
}
