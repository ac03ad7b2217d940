package contracts

import (
	"embed"
	"encoding/json"
	"slices"
	"strings"
)

//go:embed schemas/*.schema.json
var schemaFS embed.FS

// SchemaIDPrefix begins the $id of every schema; a schema refers to another
// as {"$ref": SchemaIDPrefix + name}.
const SchemaIDPrefix = "urn:git-context-tree:schema:"

// SchemaNames lists the contracts that have a JSON Schema, sorted.
func SchemaNames() []string {
	entries, _ := schemaFS.ReadDir("schemas") // embedded: cannot fail
	names := make([]string, 0, len(entries))
	for _, e := range entries {
		names = append(names, strings.TrimSuffix(e.Name(), ".schema.json"))
	}
	slices.Sort(names)
	return names
}

// Schema returns the JSON Schema document of a contract, and false when
// there is no such contract.
func Schema(name string) ([]byte, bool) {
	if strings.ContainsAny(name, "/\\") {
		return nil, false
	}
	b, err := schemaFS.ReadFile("schemas/" + name + ".schema.json")
	return b, err == nil
}

// SchemaList is the result of `schema` without a name.
type SchemaList struct {
	SchemaVersion int      `json:"schemaVersion"`
	Schemas       []string `json:"schemas"`
}

// BundledSchema returns a contract's JSON Schema as one self-contained
// document: every contract it refers to (by SchemaIDPrefix + name, at any
// depth) is embedded under $defs with its own $id, so a validator that
// loads nothing else (an MCP client checking a tool's outputSchema)
// resolves every reference. The bundle is the JSON Schema 2020-12
// "compound schema document".
func BundledSchema(name string) (map[string]any, bool) {
	doc, ok := schemaObject(name)
	if !ok {
		return nil, false
	}
	defs, _ := doc["$defs"].(map[string]any)
	if defs == nil {
		defs = map[string]any{}
	}
	seen := map[string]bool{name: true}
	queue := referenced(doc)
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		if seen[n] {
			continue
		}
		seen[n] = true
		sub, ok := schemaObject(n)
		if !ok {
			continue
		}
		delete(sub, "$schema")
		defs["contract-"+n] = sub
		queue = append(queue, referenced(sub)...)
	}
	if len(defs) > 0 {
		doc["$defs"] = defs
	}
	return doc, true
}

func schemaObject(name string) (map[string]any, bool) {
	b, ok := Schema(name)
	if !ok {
		return nil, false
	}
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		return nil, false
	}
	return doc, true
}

// referenced lists the contracts a schema's $refs name.
func referenced(v any) []string {
	var names []string
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			if s, ok := x.(string); ok && k == "$ref" && strings.HasPrefix(s, SchemaIDPrefix) {
				n, _, _ := strings.Cut(strings.TrimPrefix(s, SchemaIDPrefix), "#")
				names = append(names, n)
				continue
			}
			names = append(names, referenced(x)...)
		}
	case []any:
		for _, x := range v {
			names = append(names, referenced(x)...)
		}
	}
	return names
}
