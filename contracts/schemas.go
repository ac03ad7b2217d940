package contracts

import (
	"embed"
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
