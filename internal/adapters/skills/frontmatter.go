package skills

import (
	"bytes"
	"errors"

	"go.yaml.in/yaml/v3"
)

// Meta is the frontmatter of a SKILL.md as the Agent Skills format defines
// it (name, description, metadata), plus anything else it holds.
type Meta struct {
	Name        string         `yaml:"name"`
	Description string         `yaml:"description"`
	Metadata    map[string]any `yaml:"metadata"`
}

// Version is metadata.version when it is a non-empty string.
func (m Meta) Version() string {
	v, _ := m.Metadata["version"].(string)
	return v
}

// ParseMeta parses the YAML frontmatter of a SKILL.md: the text between a
// first line "---" and the next line "---".
func ParseMeta(data []byte) (Meta, error) {
	var m Meta
	data = bytes.TrimPrefix(data, []byte("\ufeff"))
	rest, ok := cutLine(data, "---")
	if !ok {
		return m, errors.New("no frontmatter")
	}
	var fm []byte
	for len(rest) > 0 {
		i := bytes.IndexByte(rest, '\n')
		line := rest
		if i >= 0 {
			line = rest[:i+1]
		}
		if string(bytes.TrimRight(line, "\r\n")) == "---" {
			if err := yaml.Unmarshal(fm, &m); err != nil {
				return m, err
			}
			return m, nil
		}
		fm = append(fm, line...)
		rest = rest[len(line):]
	}
	return m, errors.New("frontmatter is not closed")
}

// cutLine removes a first line equal to want (CRLF tolerated).
func cutLine(data []byte, want string) ([]byte, bool) {
	i := bytes.IndexByte(data, '\n')
	if i < 0 || string(bytes.TrimRight(data[:i], "\r")) != want {
		return nil, false
	}
	return data[i+1:], true
}
