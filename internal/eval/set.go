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

	"github.com/BurntSushi/toml"

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
	md, err := toml.NewDecoder(bytes.NewReader(data)).Decode(&s)
	if err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return nil, contracts.Errorf(contracts.CodeEvalSetInvalid, "%s:%d: %s", name, pe.Position.Line, pe.Message)
		}
		return nil, contracts.Errorf(contracts.CodeEvalSetInvalid, "%s: %v", name, err)
	}
	if err := unknownKey(name, md, s.Question); err != nil {
		return nil, err
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

// unknownKey refuses the first key no field takes, naming its question
// (keys are listed in the file's order; each [[question]] header is one).
func unknownKey(name string, md toml.MetaData, questions []contracts.EvalQuestion) error {
	undecoded := md.Undecoded()
	if len(undecoded) == 0 {
		return nil
	}
	unknown := map[string]bool{}
	for _, k := range undecoded {
		unknown[k.String()] = true
	}
	n := 0
	for _, k := range md.Keys() {
		switch {
		case len(k) == 1 && k[0] == "question":
			n++
		case unknown[k.String()] && len(k) > 1 && k[0] == "question" && n > 0 && n <= len(questions):
			return contracts.Errorf(contracts.CodeEvalSetInvalid, "%s: question %d (%s): unknown key %s (a question has id, question, criteria and tags)", name, n, questions[n-1].ID, strings.Join(k[1:], "."))
		case unknown[k.String()]:
			return contracts.Errorf(contracts.CodeEvalSetInvalid, "%s: unknown key %s (a set holds only [[question]] tables)", name, k)
		}
	}
	return contracts.Errorf(contracts.CodeEvalSetInvalid, "%s: unknown key %s", name, undecoded[0])
}

// Digest identifies a set's questions: the SHA-256 of their canonical
// JSON, so formatting and comments may change and the digest does not.
func (s *Set) Digest() string {
	b, _ := json.Marshal(s.Question) // strings only: cannot fail
	sum := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(sum[:])
}
