package hostconfig

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/BurntSushi/toml"
)

// Entry states of a host's configuration file.
const (
	NoFile  = "no-file" // the host has no configuration file here
	Absent  = "absent"  // the file has no context-tree entry
	Current = "current" // the entry is exactly what Write puts there
	Differs = "differs" // the entry exists and is not what Write puts there
	Invalid = "invalid" // the file cannot be read as its format
)

// Inspect says whether file holds the server's entry as Write would leave
// it. It reads the file and changes nothing.
func (h Host) Inspect(file string) (string, error) {
	data, err := os.ReadFile(file)
	if errors.Is(err, fs.ErrNotExist) {
		return NoFile, nil
	}
	if err != nil {
		return Invalid, err
	}
	var present bool
	if h.Format == "toml" {
		var m map[string]any
		if _, err := toml.Decode(string(data), &m); err != nil {
			return Invalid, fmt.Errorf("not valid TOML: %w", err)
		}
		present = entryOf(m) != nil
	} else {
		var m struct {
			Servers map[string]json.RawMessage `json:"mcpServers"`
		}
		if len(data) > 0 {
			if err := json.Unmarshal(data, &m); err != nil {
				return Invalid, fmt.Errorf("not valid JSON: %w", err)
			}
		}
		var raw json.RawMessage
		raw, present = m.Servers[EntryName]
		// The HTTP form (mcp config --http) is ours too, whatever its port.
		var e struct {
			URL string `json:"url"`
		}
		if present && json.Unmarshal(raw, &e) == nil && e.URL != "" {
			if hh, ok := h.HTTP(e.URL); ok {
				h = hh
			}
		}
	}
	if !present {
		return Absent, nil
	}
	var changed bool
	if h.Format == "toml" {
		_, changed, err = upsertTOML(data)
	} else {
		_, changed, err = upsertJSON(data, h.entry)
	}
	if err != nil || changed {
		return Differs, nil
	}
	return Current, nil
}
