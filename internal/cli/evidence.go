package cli

import (
	"fmt"

	"github.com/git-context-tree/git-context-tree/internal/operations/evidence"
)

type evidenceCmd struct {
	Stamp evidenceStampCmd `cmd:"" help:"Record the current commit and digest in documents' sources after re-reading the code."`
}

type evidenceStampCmd struct {
	Docs []string `arg:"" name:"doc" help:"Documents whose sources to stamp."`
}

func (cmd *evidenceStampCmd) Help() string {
	return `Rewrites each sources entry of the named documents after a person or agent
has re-read the code: path and lines are carried from the entry's commit to
HEAD (renames and hunks followed, as drift does), commit becomes HEAD's and
sha256 the first 16 hex digits of the SHA-256 of the cited lines' bytes at
HEAD (line terminators included; the whole file without lines). Only those
fields change, edited as text: every other byte of the document is kept (a
flow-style entry, {path: a.go, lines: "1-9"}, gets its new fields in flow
style after its last value). An
entry that cannot be stamped (malformed, its file deleted, every cited line
removed, a repository not synced) refuses the whole command (exit 3) and
nothing is written. For a git source's tree, stamp inside a write session.`
}

func (cmd *evidenceStampCmd) Run(c *Context) error {
	res, err := evidence.Stamp(c, c.Env, cmd.Docs)
	if err != nil {
		return err
	}
	return c.emit(res, func() {
		for _, d := range res.Documents {
			state := "unchanged"
			if d.Changed {
				state = "stamped"
			}
			fmt.Fprintf(c.Stderr, "%s: %d %s %s\n", c.display(d.File), len(d.Sources), plural(len(d.Sources), "source"), state)
			for _, s := range d.Sources {
				cited := s.Path
				if s.Lines != "" {
					cited += ":" + s.Lines
				}
				moved := ""
				if s.PreviousPath != "" || s.PreviousLines != "" {
					moved = " (was " + firstNonEmpty(s.PreviousPath, s.Path)
					if prev := firstNonEmpty(s.PreviousLines, s.Lines); prev != "" {
						moved += ":" + prev
					}
					moved += ")"
				}
				fmt.Fprintf(c.Stdout, "%s: %s at %s sha256 %s%s\n", c.display(d.File), cited, short(s.Commit), s.Sha256, moved)
			}
		}
	})
}

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
