// Package schematest validates JSON documents against the contracts' JSON
// Schemas. It serves the tests; the product only embeds the schemas.
package schematest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/git-context-tree/git-context-tree/contracts"
)

// Validator holds every contract schema, compiled once.
type Validator struct {
	mu       sync.Mutex
	compiler *jsonschema.Compiler
	compiled map[string]*jsonschema.Schema
}

// New loads every embedded schema as a resource so $refs between them resolve.
func New() (*Validator, error) {
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	for _, name := range contracts.SchemaNames() {
		raw, _ := contracts.Schema(name)
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
		if err != nil {
			return nil, fmt.Errorf("schema %s: %w", name, err)
		}
		if err := c.AddResource(contracts.SchemaIDPrefix+name, doc); err != nil {
			return nil, fmt.Errorf("schema %s: %w", name, err)
		}
	}
	return &Validator{compiler: c, compiled: map[string]*jsonschema.Schema{}}, nil
}

// Compile compiles the named schema (cached).
func (v *Validator) Compile(name string) (*jsonschema.Schema, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if s, ok := v.compiled[name]; ok {
		return s, nil
	}
	s, err := v.compiler.Compile(contracts.SchemaIDPrefix + name)
	if err != nil {
		return nil, fmt.Errorf("compile schema %s: %w", name, err)
	}
	v.compiled[name] = s
	return s, nil
}

// Validate checks one JSON document against the named schema.
func (v *Validator) Validate(name string, data []byte) error {
	s, err := v.Compile(name)
	if err != nil {
		return err
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return fmt.Errorf("not JSON: %w", err)
	}
	if err := s.Validate(doc); err != nil {
		return fmt.Errorf("does not match schema %s: %w", name, err)
	}
	return nil
}

// ValidateValue marshals v and validates it.
func (v *Validator) ValidateValue(name string, value any) error {
	data, err := json.Marshal(value)
	if err != nil {
		return err
	}
	return v.Validate(name, data)
}
