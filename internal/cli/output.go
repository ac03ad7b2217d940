package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/redact"
	"github.com/git-context-tree/git-context-tree/internal/tree"
)

// emit prints a result: the contract JSON with --json, else the text form.
func (c *Context) emit(result any, text func()) error {
	if c.JSON {
		return c.writeJSON(result)
	}
	text()
	return nil
}

// report prints a result that can itself be a failed check, then exits
// with the code the contract gives it.
func (c *Context) report(result contracts.Report, text func()) error {
	if err := c.emit(result, text); err != nil {
		return err
	}
	return exitFor(result)
}

// exitFor is the non-zero exit a printed report asks for, or nil.
func exitFor(result contracts.Report) error {
	if code := result.ExitCode(); code != contracts.ExitOK {
		return exitStatus(code)
	}
	return nil
}

// writeJSON prints v as indented JSON with every string redacted (see
// redact.JSON), bypassing the text redaction of c.Stdout.
func (c *Context) writeJSON(v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return fmt.Errorf("write JSON: %w", err)
	}
	if _, err := redact.Raw(c.Stdout).Write(redact.JSON(buf.Bytes())); err != nil {
		return fmt.Errorf("write JSON: %w", err)
	}
	return nil
}

// display renders a filesystem path for humans: relative to the command's
// directory when below it, C-quoted when it holds control characters (as
// git's core.quotePath does) so one path stays on one line.
func (c *Context) display(p string) string {
	if rel, ok := tree.Inside(c.Env.Dir, p); ok {
		p = rel
	}
	return quote(p)
}

func quote(s string) string {
	if strings.IndexFunc(s, unicode.IsControl) >= 0 {
		return strconv.Quote(s)
	}
	return s
}
