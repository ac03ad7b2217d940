package hostconfig

import (
	"fmt"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/BurntSushi/toml"
)

// The Codex file is edited as text: BurntSushi/toml decodes and encodes
// values but keeps no comments, key order or formatting, so a decode and
// re-encode would rewrite the user's whole file. Only the command and args
// lines of the [mcp_servers.context-tree] table are replaced (its other
// keys and sub-tables, env for instance, are the user's and stay), or the
// table is appended; both files are then decoded and compared, and
// anything but "command and args are now ours, every other value
// unchanged" (the entry written as an inline table or with dotted keys, a
// header inside a multi-line string) refuses the edit.

// The patterns are compiled on first use: every command links this
// package, few edit a TOML file.
var (
	// ourTable matches the [mcp_servers.context-tree] header, the name
	// bare or quoted (its sub-tables, [mcp_servers.context-tree.env], are
	// the user's).
	ourTable = lazyRegexp(`^\s*\[\s*mcp_servers\s*\.\s*(context-tree|"context-tree"|'context-tree')\s*\]\s*(#.*)?$`)
	// ownedKey matches the first line of a key Write sets.
	ownedKey = lazyRegexp(`^\s*(command|args|"command"|"args"|'command'|'args')\s*=`)
	// anyHeader matches a table or array-of-tables header line.
	anyHeader = lazyRegexp(`^\s*\[`)
)

func lazyRegexp(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}

// tomlKeys are the lines Write owns in the table.
func tomlKeys() string {
	quoted := make([]string, len(Args))
	for i, a := range Args {
		quoted[i] = strconv.Quote(a)
	}
	return fmt.Sprintf("command = %s\nargs = [%s]\n", strconv.Quote(Command), strings.Join(quoted, ", "))
}

// tomlBlock is the table this program writes into a file without one.
func tomlBlock() string { return "[mcp_servers." + EntryName + "]\n" + tomlKeys() }

// upsertTOML sets command and args of [mcp_servers.context-tree] in a
// Codex config.toml, keeping every other line. changed is false when they
// already are ours.
func upsertTOML(data []byte) (out []byte, changed bool, err error) {
	var before map[string]any
	if _, err := toml.Decode(string(data), &before); err != nil {
		return nil, false, fmt.Errorf("not valid TOML: %w", err)
	}
	want := map[string]any{}
	if old, ok := entryOf(before).(map[string]any); ok {
		for k, v := range old {
			want[k] = v
		}
	}
	if reflect.DeepEqual(want["command"], Command) && reflect.DeepEqual(want["args"], toAny(Args)) {
		return data, false, nil
	}
	want["command"], want["args"] = Command, toAny(Args)
	out = setTableKeys(data)
	var after map[string]any
	if _, err := toml.Decode(string(out), &after); err != nil {
		return nil, false, fmt.Errorf("the %s entry is written in a form this tool does not edit (an inline table or dotted keys, or not TOML once edited); change it by hand: %w", EntryName, err)
	}
	if !reflect.DeepEqual(entryOf(after), want) || !reflect.DeepEqual(withoutEntry(before), withoutEntry(after)) {
		return nil, false, fmt.Errorf("the %s entry is written in a form this tool does not edit (an inline table or dotted keys); change it by hand", EntryName)
	}
	return out, true, nil
}

// setTableKeys puts our command and args lines right below the table's
// header, dropping the ones there were (a multi-line array to its closing
// bracket), or appends the table.
func setTableKeys(data []byte) []byte {
	lines := strings.SplitAfter(string(data), "\n")
	var b strings.Builder
	inOurs, written, depth := false, false, 0
	for _, l := range lines {
		bare := strings.TrimRight(l, "\r\n")
		switch {
		case depth > 0: // the rest of an owned multi-line value
			depth += strings.Count(l, "[") - strings.Count(l, "]")
			continue
		case ourTable().MatchString(bare):
			inOurs = !written
			b.WriteString(l)
			if !written {
				if !strings.HasSuffix(l, "\n") {
					b.WriteString("\n")
				}
				b.WriteString(tomlKeys())
				written = true
			}
			continue
		case anyHeader().MatchString(l):
			inOurs = false
		case inOurs && ownedKey().MatchString(l):
			_, value, _ := strings.Cut(l, "=")
			depth = max(strings.Count(value, "[")-strings.Count(value, "]"), 0)
			continue
		}
		b.WriteString(l)
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
	return []byte(s + tomlBlock())
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
