package cli

import (
	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/annotations"
	"github.com/git-context-tree/git-context-tree/internal/buildinfo"
	"github.com/git-context-tree/git-context-tree/internal/operations"
)

// reviewFormat is the --format flag of the commands whose reports code
// review shows: text (default), json (as --json), github (workflow
// commands) or sarif (a SARIF 2.1.0 log, alone on stdout).
type reviewFormat struct {
	Format string `name:"format" enum:"text,json,github,sarif" default:"text" help:"Output: text, json (as --json), github (GitHub Actions annotations on the lines) or sarif (a SARIF 2.1.0 log). Paths are repository-relative."`
}

// annotated reports whether the output is annotations rather than the
// contract; json turns --json on, which annotations cannot be combined
// with.
func (f reviewFormat) annotated(c *Context) (bool, error) {
	annotated := f.Format == annotations.GitHub || f.Format == annotations.SARIF
	switch {
	case annotated && c.JSON:
		return false, contracts.Errorf(contracts.CodeUsage, "--json prints the contract and --format %s annotations; choose one", f.Format)
	case f.Format == "json":
		c.JSON = true
	}
	return annotated, nil
}

// writeAnnotations prints a report's annotations in the chosen format,
// then exits as the report says.
func (f reviewFormat) writeAnnotations(c *Context, rep contracts.Report, of func(top string) []annotations.Annotation) error {
	top := ""
	if p, _, err := operations.OpenProject(c, c.Env); err == nil {
		top = p.Checkout
	}
	as := of(top)
	var err error
	if f.Format == annotations.SARIF {
		err = annotations.WriteSARIF(c.Stdout, as, buildinfo.Version())
	} else {
		err = annotations.WriteGitHub(c.Stdout, as)
	}
	if err != nil {
		return err
	}
	return exitFor(rep)
}
