package cli

import (
	"fmt"
	"strings"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/redact"
)

type schemaCmd struct {
	Name string `arg:"" optional:"" name:"name" help:"Contract name (default: list the names)."`
}

func (*schemaCmd) selfContained() {}

func (cmd *schemaCmd) Help() string {
	return `Prints the JSON Schema (draft 2020-12) of a public contract. Schemas refer
to each other by $id ("` + contracts.SchemaIDPrefix + `<name>"). Without a
name, lists the contracts.`
}

func (cmd *schemaCmd) Run(c *Context) error {
	names := contracts.SchemaNames()
	if cmd.Name == "" {
		return c.emit(contracts.SchemaList{SchemaVersion: contracts.CLIVersion, Schemas: names}, func() {
			fmt.Fprintln(c.Stdout, strings.Join(names, "\n"))
		})
	}
	doc, ok := contracts.Schema(cmd.Name)
	if !ok {
		return contracts.Errorf(contracts.CodeSchemaNotFound, "no contract named %q; known: %s", cmd.Name, strings.Join(names, ", "))
	}
	_, err := redact.Raw(c.Stdout).Write(redact.JSON(doc))
	return err
}
