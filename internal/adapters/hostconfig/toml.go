package hostconfig

import (
	"fmt"
	"reflect"
	"regexp"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"
)

// The Codex file is edited as text: BurntSushi/toml decodes and encodes
// values but keeps no comments, key order or formatting, so a decode and
// re-encode would rewrite the user's whole file. Only the lines of the
// [mcp_servers.context-tree] table (and its sub-tables) are replaced, or
// the table is appended; both files are then decoded and compared, and
// anything but "the entry is now ours, every other value unchanged"
// (the entry written as an inline table or with dotted keys, a header
// inside a multi-line string) refuses the edit.

// ourHeader matches [mcp_servers.context-tree] and its sub-tables, the
// name bare or quoted.
var ourHeader = regexp.MustCompile(`^\s*\[\s*mcp_servers\s*\.\s*(context-tree|"context-tree"|'context-tree')\s*(\.[^\]]*)?\]\s*(#.*)?$`)

// anyHeader matches a table or array-of-tables header line.
var anyHeader = regexp.MustCompile(`^\s*\[`)

// tomlBlock is the table this program writes.
func tomlBlock() string {
	quoted := make([]string, len(Args))
	for i, a := range Args {
		quoted[i] = strconv.Quote(a)
	}
	return fmt.Sprintf("[mcp_servers.%s]\ncommand = %s\nargs = [%s]\n", EntryName, strconv.Quote(Command), strings.Join(quoted, ", "))
}

// upsertTOML sets [mcp_servers.context-tree] in a Codex config.toml,
// keeping every other line. changed is false when it already is ours.
func upsertTOML(data []byte) (out []byte, changed bool, err error) {
	var before map[string]any
	if _, err := toml.Decode(string(data), &before); err != nil {
		return nil, false, fmt.Errorf("not valid TOML: %w", err)
	}
	want := map[string]any{"command": Command, "args": toAny(Args)}
	if reflect.DeepEqual(entryOf(before), want) {
		return data, false, nil
	}
	out = replaceTable(data, tomlBlock())
	var after map[string]any
	if _, err := toml.Decode(string(out), &after); err != nil {
		return nil, false, fmt.Errorf("the %s entry is written in a form this tool does not edit (an inline table or dotted keys, or not TOML once edited); change it by hand: %w", EntryName, err)
	}
	if !reflect.DeepEqual(entryOf(after), want) || !reflect.DeepEqual(withoutEntry(before), withoutEntry(after)) {
		return nil, false, fmt.Errorf("the %s entry is written in a form this tool does not edit (an inline table or dotted keys); change it by hand", EntryName)
	}
	return out, true, nil
}

// replaceTable puts block where our table's lines were (its first header),
// dropping the rest of them, or appends it.
func replaceTable(data []byte, block string) []byte {
	lines := strings.SplitAfter(string(data), "\n")
	var b strings.Builder
	inOurs, written := false, false
	var trailing []string // comments after our last key: the next table's
	for _, l := range lines {
		trimmed := strings.TrimSpace(l)
		switch {
		case ourHeader.MatchString(strings.TrimRight(l, "\r\n")):
			inOurs, trailing = true, nil
			if !written {
				b.WriteString(block)
				written = true
			}
			continue
		case anyHeader.MatchString(l):
			if inOurs {
				b.WriteString("\n")
				for _, c := range trailing {
					if strings.HasPrefix(strings.TrimSpace(c), "#") {
						b.WriteString(c)
					}
				}
			}
			inOurs = false
		case inOurs && (trimmed == "" || strings.HasPrefix(trimmed, "#")):
			trailing = append(trailing, l)
			continue
		case inOurs:
			trailing = nil
			continue
		}
		if !inOurs {
			b.WriteString(l)
		}
	}
	if written {
		return []byte(b.String())
	}
	s := b.String()
	if s != "" && !strings.HasSuffix(s, "\n") {
		s += "\n"
	}
	if s != "" {
		s += "\n"
	}
	return []byte(s + block)
}

func entryOf(m map[string]any) any {
	servers, _ := m["mcp_servers"].(map[string]any)
	return servers[EntryName]
}

// withoutEntry is m without mcp_servers.context-tree (nor an mcp_servers
// table left empty by removing it).
func withoutEntry(m map[string]any) map[string]any {
	c := make(map[string]any, len(m))
	for k, v := range m {
		c[k] = v
	}
	if servers, ok := m["mcp_servers"].(map[string]any); ok {
		rest := map[string]any{}
		for k, v := range servers {
			if k != EntryName {
				rest[k] = v
			}
		}
		if len(rest) == 0 {
			delete(c, "mcp_servers")
		} else {
			c["mcp_servers"] = rest
		}
	}
	return c
}

func toAny(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}
