package cli

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"unicode"
)

// emit prints a result: the contract JSON with --json, else the text form.
func (c *Context) emit(result any, text func()) error {
	if c.JSON {
		return c.writeJSON(result)
	}
	text()
	return nil
}

func (c *Context) writeJSON(v any) error {
	enc := json.NewEncoder(c.Stdout)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return fmt.Errorf("write JSON: %w", err)
	}
	return nil
}

// display renders a filesystem path for humans: relative to the command's
// directory when below it, C-quoted when it holds control characters (as
// git's core.quotePath does) so one path stays on one line.
func (c *Context) display(p string) string {
	if rel, err := filepath.Rel(c.Env.Dir, p); err == nil && !strings.HasPrefix(rel, "..") {
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
