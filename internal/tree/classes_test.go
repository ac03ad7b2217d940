package tree

import (
	"testing"

	"github.com/git-context-tree/git-context-tree/contracts"
)

func TestClassOf(t *testing.T) {
	const (
		normal = contracts.ClassNormal
		member = contracts.ClassMember
		infra  = contracts.ClassInfrastructure
	)
	tests := []struct {
		rel  string
		want contracts.Class
	}{
		{"", normal},
		{".", normal},
		{"NODE.md", normal},
		{"a", normal},
		{"a/b/c.md", normal},
		{"img.png", normal},
		{"membership.md", normal},
		{"a/members/x.md", normal}, // members only at the root
		{"members", member},
		{"members/NODE.md", member},
		{"members/alice/notes.md", member},
		{"members/alice/.private/x.md", infra},
		{"members/node_modules/x.md", infra},
		{"members/alice/CLAUDE.md", infra},
		{".git", infra},
		{".github/workflows/ci.md", infra},
		{".hidden.md", infra},
		{"a/.obsidian/x.md", infra},
		{"a/b/.DS_Store", infra},
		{"node_modules", infra},
		{"a/node_modules/pkg/README.md", infra},
		{"__pycache__/x", infra},
		{"a/b/__pycache__", infra},
		{"dist", infra},
		{"a/dist/x.md", infra},
		{"build/x.md", infra},
		{"a/build", infra},
		{".next/x", infra},
		{"a/.turbo/x", infra},
		{"AGENTS.md", infra},
		{"CLAUDE.md", infra},
		{"a/b/AGENTS.md", infra},
		{"a/CLAUDE.md", infra},
		{"agents.md", normal},
		{"AGENTS.md.bak", normal},
		{"scripts", infra},
		{"scripts/NODE.md", infra},
		{"scripts/x/y.md", infra},
		{"a/scripts", normal},
		{"a/scripts/x.md", normal},
		{"scripts.md", normal},
		{"distribution/x.md", normal},
		{"builds/x.md", normal},
	}
	for _, tt := range tests {
		if got := ClassOf(tt.rel); got != tt.want {
			t.Errorf("ClassOf(%q) = %s, want %s", tt.rel, got, tt.want)
		}
	}
}

func TestIsDocumentName(t *testing.T) {
	tests := []struct {
		name string
		want bool
	}{
		{"NODE.md", true},
		{"a.md", true},
		{"a.b.md", true},
		{"x.MD", false},
		{"x.Md", false},
		{"x.markdown", false},
		{"x.md.txt", false},
		{"md", false},
		{".md", false},
		{"x.mdx", false},
		{"image.png", false},
	}
	for _, tt := range tests {
		if got := IsDocumentName(tt.name); got != tt.want {
			t.Errorf("IsDocumentName(%q) = %v, want %v", tt.name, got, tt.want)
		}
	}
}
