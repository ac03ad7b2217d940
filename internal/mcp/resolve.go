package mcp

import (
	"context"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/operations"
)

type resolveArgs struct {
	Selector string `json:"tree"`
}

func (s *server) addResolve(srv *sdk.Server) error {
	return addTool(srv, toolSpec[resolveArgs, *contracts.ResolveResult]{
		name:   contracts.MCPToolResolve,
		result: "resolve",
		description: "Where a declared tree's selector points (or every declared tree's): content root, repository root, " +
			"subtree, branch, commit and dirtiness. Exactly `git context-tree resolve`; never touches the network.",
		run: func(ctx context.Context, a resolveArgs) (*contracts.ResolveResult, error) {
			return operations.Resolve(ctx, s.env, a.Selector)
		},
		renamed: map[string]string{"selector": "tree"},
	})
}
