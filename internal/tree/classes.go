// Package tree is the Context Tree itself: documents, frontmatter, links,
// content classes, indexed reads, verification and content-only scaffolding.
// It knows nothing of git, project configuration or machine state (S2).
package tree

import (
	"strings"

	"github.com/git-context-tree/git-context-tree/contracts"
)

// NodeFile is the name of every directory's index document.
const NodeFile = "NODE.md"

// infrastructureNames are path segments that make everything below them
// repository infrastructure rather than tree content, at any depth.
var infrastructureNames = map[string]bool{
	"node_modules": true,
	"__pycache__":  true,
	"dist":         true,
	"build":        true,
	".next":        true,
	".turbo":       true,
}

// instructionFiles are agent instruction files: infrastructure wherever they are.
var instructionFiles = map[string]bool{
	"AGENTS.md": true,
	"CLAUDE.md": true,
}

// membersDir is the first segment of member content: personal working
// memory, indexed like normal content but under its owner's authority.
const membersDir = "members"

// rootScriptsDir is infrastructure only at the tree root.
const rootScriptsDir = "scripts"

// ClassOf returns the content class of a tree-relative, slash-separated path.
// This is the one place the classes are defined (S17).
func ClassOf(rel string) contracts.Class {
	if rel == "" || rel == "." {
		return contracts.ClassNormal
	}
	segs := strings.Split(rel, "/")
	if segs[0] == rootScriptsDir {
		return contracts.ClassInfrastructure
	}
	for _, s := range segs {
		if strings.HasPrefix(s, ".") || infrastructureNames[s] {
			return contracts.ClassInfrastructure
		}
	}
	if instructionFiles[segs[len(segs)-1]] {
		return contracts.ClassInfrastructure
	}
	if segs[0] == membersDir {
		return contracts.ClassMember
	}
	return contracts.ClassNormal
}

// IsDocumentName reports whether a file name is a Markdown document. Only a
// lowercase ".md" suffix counts; every other file is an asset.
func IsDocumentName(name string) bool {
	return strings.HasSuffix(name, ".md") && len(name) > len(".md")
}
