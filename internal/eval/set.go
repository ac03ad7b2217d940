// Package eval is the evaluation recipe's logic without processes or
// files of its own: question sets and their digest, tool calls counted
// from agents' traces, and the report's statistics and renderings.
package eval

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/pelletier/go-toml/v2"

	"github.com/git-context-tree/git-context-tree/contracts"
)

// Set is a parsed question set.
type Set struct {
	Question []contracts.EvalQuestion `toml:"question"`
}

var idPattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`) })

// ParseSet reads a set file: [[question]] tables with id, question,
// criteria and optional tags; an unknown key, a missing field or a
// repeated id is refused with its line.
func ParseSet(name string, data []byte) (*Set, error) {
	var s Set
	dec := toml.NewDecoder(bytes.NewReader(data)).DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		return nil, setError(name, data, err)
	}
	if len(s.Question) == 0 {
		return nil, contracts.Errorf(contracts.CodeEvalSetInvalid, "%s has no [[question]]", name)
	}
	seen := map[string]bool{}
	for i, q := range s.Question {
		where := fmt.Sprintf("%s: question %d", name, i+1)
		switch {
		case !idPattern().MatchString(q.ID):
			return nil, contracts.Errorf(contracts.CodeEvalSetInvalid, "%s: id %q must be 1-64 letters, digits, '.', '_' or '-', starting with a letter or digit", where, q.ID)
		case seen[q.ID]:
			return nil, contracts.Errorf(contracts.CodeEvalSetInvalid, "%s: id %q appears twice", where, q.ID)
		case strings.TrimSpace(q.Question) == "":
			return nil, contracts.Errorf(contracts.CodeEvalSetInvalid, "%s (%s) has no question", where, q.ID)
		case strings.TrimSpace(q.Criteria) == "":
			return nil, contracts.Errorf(contracts.CodeEvalSetInvalid, "%s (%s) has no criteria: write them before running", where, q.ID)
		}
		seen[q.ID] = true
	}
	return &s, nil
}

// setError words a decoding error with its line.
func setError(name string, data []byte, err error) error {
	var strict *toml.StrictMissingError
	var de *toml.DecodeError
	switch {
	case errors.As(err, &strict) && len(strict.Errors) > 0:
		row, _ := strict.Errors[0].Position()
		return contracts.Errorf(contracts.CodeEvalSetInvalid, "%s:%d: unknown key %s (a question has id, question, criteria and tags)", name, row, strings.Join(strict.Errors[0].Key(), "."))
	case errors.As(err, &de):
		row, _ := de.Position()
		return contracts.Errorf(contracts.CodeEvalSetInvalid, "%s:%d: %v", name, row, de)
	}
	return contracts.Errorf(contracts.CodeEvalSetInvalid, "%s: %v", name, err)
}

// Digest identifies a set's questions: the SHA-256 of their canonical
// JSON, so formatting and comments may change and the digest does not.
func (s *Set) Digest() string {
	b, _ := json.Marshal(s.Question) // strings only: cannot fail
	sum := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(sum[:])
}
