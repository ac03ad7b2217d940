package hostconfig

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
)

// member is one key of a JSON object, in file order.
type member struct {
	key   string
	value json.RawMessage
}

// parseObject reads a JSON object's members in order. Duplicate keys are
// refused: which one a host honours is unknowable.
func parseObject(data []byte) ([]member, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, fmt.Errorf("not a JSON object")
	}
	var ms []member
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, _ := tok.(string)
		if seen[key] {
			return nil, fmt.Errorf("the key %q appears twice", key)
		}
		seen[key] = true
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		ms = append(ms, member{key, v})
	}
	if _, err := dec.Token(); err != nil {
		return nil, err
	}
	if len(bytes.TrimSpace(data[dec.InputOffset():])) > 0 {
		return nil, fmt.Errorf("text after the JSON object")
	}
	return ms, nil
}

// renderObject writes members as an indented object ending in a newline.
func renderObject(ms []member, indent string) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString("{")
	for i, m := range ms {
		if i > 0 {
			b.WriteString(",")
		}
		key, _ := json.Marshal(m.key)
		b.WriteString("\n" + indent + "  ")
		b.Write(key)
		b.WriteString(": ")
		var v bytes.Buffer
		if err := json.Indent(&v, m.value, indent+"  ", "  "); err != nil {
			return nil, err
		}
		b.Write(v.Bytes())
	}
	if len(ms) > 0 {
		b.WriteString("\n" + indent)
	}
	b.WriteString("}")
	return b.Bytes(), nil
}

// upsertJSON sets mcpServers.<EntryName> to entry in a JSON settings file
// (nil or empty data: a new file), keeping every other member and its
// order. changed is false when the entry already is entry.
func upsertJSON(data []byte, entry map[string]any) (out []byte, changed bool, err error) {
	want, err := json.Marshal(withoutRemoved(entry))
	if err != nil {
		return nil, false, err
	}
	var top []member
	if len(bytes.TrimSpace(data)) > 0 {
		if top, err = parseObject(data); err != nil {
			return nil, false, err
		}
	}
	var servers []member
	at := -1
	for i, m := range top {
		if m.key == "mcpServers" {
			at = i
			if servers, err = parseObject(m.value); err != nil {
				return nil, false, fmt.Errorf("mcpServers: %w", err)
			}
		}
	}
	found := false
	for i, s := range servers {
		if s.key == EntryName {
			found = true
			merged, same, err := mergeEntry(s.value, entry)
			if err != nil {
				return nil, false, fmt.Errorf("mcpServers.%s: %w", EntryName, err)
			}
			if same {
				return data, false, nil
			}
			servers[i].value = merged
		}
	}
	if !found {
		servers = append(servers, member{EntryName, want})
	}
	inner, err := renderObject(servers, "  ")
	if err != nil {
		return nil, false, err
	}
	if at >= 0 {
		top[at].value = inner
	} else {
		top = append(top, member{"mcpServers", inner})
	}
	out, err = renderObject(top, "")
	if err != nil {
		return nil, false, err
	}
	return append(out, '\n'), true, nil
}

// mergeEntry sets the keys Write owns (command, args, and type for
// Claude Code) in an existing entry, keeping every other key the user
// added to it (env, cwd, timeouts…) in its place. same is true when the
// owned keys already hold our values.
func mergeEntry(existing json.RawMessage, entry map[string]any) (merged json.RawMessage, same bool, err error) {
	ms, err := parseObject(existing)
	if err != nil {
		return nil, false, err
	}
	keys := make([]string, 0, len(entry))
	for k := range entry {
		keys = append(keys, k)
	}
	slices.Sort(keys) // the order json.Marshal writes a new entry in
	same = true
	for _, k := range keys {
		i := slices.IndexFunc(ms, func(m member) bool { return m.key == k })
		if entry[k] == nil { // a key of the other transport: removed
			if i >= 0 {
				ms, same = slices.Delete(ms, i, i+1), false
			}
			continue
		}
		v, err := json.Marshal(entry[k])
		if err != nil {
			return nil, false, err
		}
		switch {
		case i < 0:
			ms, same = append(ms, member{k, v}), false
		case !sameJSON(ms[i].value, v):
			ms[i].value, same = v, false
		}
	}
	if same {
		return existing, true, nil
	}
	out, err := renderObject(ms, "")
	return out, false, err
}

// withoutRemoved is entry without the keys it removes (nil values).
func withoutRemoved(entry map[string]any) map[string]any {
	out := make(map[string]any, len(entry))
	for k, v := range entry {
		if v != nil {
			out[k] = v
		}
	}
	return out
}

func sameJSON(a, b []byte) bool {
	var x, y any
	return json.Unmarshal(a, &x) == nil && json.Unmarshal(b, &y) == nil && reflect.DeepEqual(x, y)
}
