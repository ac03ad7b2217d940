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
	first, _, _ := strings.Cut(rel, "/")
	if first == rootScriptsDir {
		return contracts.ClassInfrastructure
	}
	last := rel
	for rest := rel; ; {
		seg, more, ok := strings.Cut(rest, "/")
		if strings.HasPrefix(seg, ".") || infrastructureNames[seg] {
			return contracts.ClassInfrastructure
		}
		if !ok {
			last = seg
			break
		}
		rest = more
	}
	if instructionFiles[last] {
		return contracts.ClassInfrastructure
	}
	if first == membersDir {
		return contracts.ClassMember
	}
	return contracts.ClassNormal
}

// IsDocumentName reports whether a file name is a Markdown document. Only a
// lowercase ".md" suffix counts; every other file is an asset.
func IsDocumentName(name string) bool {
	return strings.HasSuffix(name, ".md") && len(name) > len(".md")
}
