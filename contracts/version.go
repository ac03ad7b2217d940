// Package contracts holds the public, versioned shapes of git-context-tree:
// the JSON documents the CLI prints, the project configuration, the document
// frontmatter, and the stable error and finding codes. Scripts and other
// tools may depend on everything exported here.
package contracts

// CLIVersion is the schemaVersion of every JSON document the CLI prints and
// of the project configuration file. Adding fields is compatible; renaming or
// removing one bumps it.
const CLIVersion = 3

// DocumentVersion is the schemaVersion a tree's root NODE.md declares.
const DocumentVersion = 1
