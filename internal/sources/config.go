package sources

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strconv"

	"github.com/git-context-tree/git-context-tree/contracts"
)

// maxConfigBytes bounds the configuration file read.
const maxConfigBytes = 1 << 20

// configError is CONFIG_INVALID naming the file, the JSON pointer of the bad
// value and why.
func configError(file, pointer, why string) error {
	msg := fmt.Sprintf("%s: %s", file, why)
	if pointer != "" {
		msg = fmt.Sprintf("%s: %s: %s", file, pointer, why)
	}
	return contracts.Errorf(contracts.CodeConfigInvalid, "invalid project configuration %s", msg).
		WithDetails(map[string]any{"file": file, "pointer": pointer, "reason": why})
}

// LoadConfig reads and strictly validates a project configuration file
// (S4): exactly schemaVersion 3 and trees, no unknown keys, canonical paths,
// valid repository identities and branches. Duplicate identities are
// checked by Connections, which knows the project root.
func LoadConfig(file string) (*contracts.Config, error) {
	fi, err := os.Lstat(file)
	switch {
	case err != nil:
		return nil, contracts.Errorf(contracts.CodeIO, "cannot read %s: %v", file, unwrapPathError(err))
	case fi.Mode()&fs.ModeSymlink != 0:
		return nil, configError(file, "", "the configuration file is a symlink; it must be a regular file")
	case !fi.Mode().IsRegular():
		return nil, configError(file, "", "the configuration path is not a regular file")
	case fi.Size() > maxConfigBytes:
		return nil, configError(file, "", fmt.Sprintf("the file is larger than %d bytes", maxConfigBytes))
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, contracts.Errorf(contracts.CodeIO, "cannot read %s: %v", file, unwrapPathError(err))
	}
	return ParseConfig(file, data)
}

// ParseConfig validates configuration bytes; file names them in errors.
func ParseConfig(file string, data []byte) (*contracts.Config, error) {
	if bytes.HasPrefix(data, []byte("\xef\xbb\xbf")) {
		return nil, configError(file, "", "the file starts with a byte order mark; write plain UTF-8 JSON")
	}
	if err := checkSingleValue(data); err != nil {
		return nil, configError(file, "", err.Error())
	}
	if err := checkDuplicateKeys(data); err != nil {
		return nil, configError(file, err.pointer, err.why)
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil || top == nil {
		return nil, configError(file, "", "the configuration must be a JSON object")
	}
	for k := range top {
		if k != "schemaVersion" && k != "trees" {
			return nil, configError(file, "/"+escapePointer(k), "unknown key; the configuration has only schemaVersion and trees")
		}
	}
	v, ok := top["schemaVersion"]
	if !ok {
		return nil, configError(file, "/schemaVersion", "missing; this git-context-tree reads schemaVersion 3")
	}
	if string(bytes.TrimSpace(v)) != strconv.Itoa(contracts.CLIVersion) {
		return nil, configError(file, "/schemaVersion", fmt.Sprintf("unsupported schemaVersion %s; this git-context-tree reads 3", bytes.TrimSpace(v)))
	}
	rawTrees, ok := top["trees"]
	if !ok {
		return nil, configError(file, "/trees", "missing; declare trees as an array (it may be empty)")
	}
	var items []json.RawMessage
	if err := json.Unmarshal(rawTrees, &items); err != nil || items == nil {
		return nil, configError(file, "/trees", "must be an array of sources")
	}
	cfg := &contracts.Config{SchemaVersion: contracts.CLIVersion, Trees: make([]contracts.Source, 0, len(items))}
	for i, item := range items {
		src, err := parseSource(item)
		if err != nil {
			return nil, configError(file, fmt.Sprintf("/trees/%d%s", i, err.pointer), err.why)
		}
		cfg.Trees = append(cfg.Trees, src)
	}
	return cfg, nil
}

// checkSingleValue rejects anything that is not exactly one JSON value.
func checkSingleValue(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	var v any
	if err := dec.Decode(&v); err != nil {
		// Say where: the offset of a syntax error, else the end.
		offset := int64(len(data)) + 1 // an unexpected end: past the last byte
		var syntax *json.SyntaxError
		if errors.As(err, &syntax) {
			offset = syntax.Offset
		}
		line, col := lineColumn(data, offset)
		return fmt.Errorf("not valid JSON at line %d, column %d: %v", line, col, err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return fmt.Errorf("unexpected data after the JSON object")
	}
	return nil
}

// pointerError is a problem at a JSON pointer (relative to its parent).
type pointerError struct {
	pointer string
	why     string
}

func escapePointer(key string) string {
	b := bytes.ReplaceAll([]byte(key), []byte("~"), []byte("~0"))
	return string(bytes.ReplaceAll(b, []byte("/"), []byte("~1")))
}

// lineColumn turns the count of bytes read up to and including the one at
// fault (json.SyntaxError's Offset) into that byte's 1-based line and
// column, as editors number them.
func lineColumn(data []byte, offset int64) (line, col int) {
	offset = min(max(offset, 1), int64(len(data))+1)
	before := data[:offset-1]
	line = bytes.Count(before, []byte("\n")) + 1
	col = len(before) - (bytes.LastIndexByte(before, '\n') + 1) + 1
	return line, col
}
