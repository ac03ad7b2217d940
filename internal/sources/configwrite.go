package sources

import (
	"bytes"
	"encoding/json"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/adapters/atomicfile"
	"github.com/git-context-tree/git-context-tree/internal/adapters/lock"
)

// MarshalConfig renders a configuration in its stable form: 2-space
// indentation, keys in contract order, a final newline.
func MarshalConfig(cfg *contracts.Config) []byte {
	if cfg.Trees == nil {
		cfg.Trees = []contracts.Source{}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	_ = enc.Encode(cfg) // plain strings and ints always encode
	return buf.Bytes()
}

// Mutation changes a configuration in place and reports whether it changed.
type Mutation func(cfg *contracts.Config) (changed bool, err error)

// UpdateConfig applies a mutation under the configuration lock
// (.context-tree.json.lock), reading the file afresh under the lock so
// concurrent updates never lose each other's changes, and replaces the file
// atomically only when something changed. p.Config is the result.
func (p *Project) UpdateConfig(wait lock.Wait, mutate Mutation) (bool, error) {
	l, err := lock.AcquireWaiting(p.ConfigFile+".lock", "git-context-tree configuration update", wait)
	if err != nil {
		return false, err
	}
	defer l.Release()
	cfg := &contracts.Config{SchemaVersion: contracts.CLIVersion, Trees: []contracts.Source{}}
	existed := fileExists(p.ConfigFile)
	if existed {
		if cfg, err = LoadConfig(p.ConfigFile); err != nil {
			return false, err
		}
		p.Config = cfg
	}
	changed, err := mutate(cfg)
	if err != nil || !changed {
		return false, err
	}
	probe := &Project{Root: p.Root, ConfigFile: p.ConfigFile, Config: cfg}
	if _, err := probe.Connections(); err != nil {
		return false, err
	}
	if err := atomicfile.Write(p.ConfigFile, MarshalConfig(cfg), 0o644); err != nil {
		return false, contracts.Errorf(contracts.CodeIO, "cannot write %s: %v", p.ConfigFile, err)
	}
	p.Config = cfg
	return true, nil
}
