package contracts

// RootFrontmatter is the document contract (version 1) of a tree's root
// NODE.md. Fields other than these are allowed and preserved.
type RootFrontmatter struct {
	SchemaVersion int      `json:"schemaVersion" yaml:"schemaVersion"`
	Title         string   `json:"title" yaml:"title"`
	Description   string   `json:"description,omitempty" yaml:"description,omitempty"`
	SoftLinks     []string `json:"soft_links,omitempty" yaml:"soft_links,omitempty"`
}

// DescendantFrontmatter is the document contract (version 1) of every other
// NODE.md and Markdown document. Root-only fields (schemaVersion) are invalid
// here; unknown fields are allowed and preserved.
type DescendantFrontmatter struct {
	Title       string   `json:"title" yaml:"title"`
	Description string   `json:"description,omitempty" yaml:"description,omitempty"`
	SoftLinks   []string `json:"soft_links,omitempty" yaml:"soft_links,omitempty"`
}

// RootOnlyFields are the frontmatter keys only the root NODE.md may carry.
var RootOnlyFields = []string{"schemaVersion"}
