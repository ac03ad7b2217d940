package mcp

import (
	"context"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/operations"
)

type listTreesArgs struct{}

func (s *server) addListTrees(srv *sdk.Server) error {
	return addTool(srv, toolSpec[listTreesArgs, *contracts.ListTreesResult]{
		name:   contracts.MCPToolListTrees,
		result: "mcp-list-trees",
		description: "List the project's declared Context Trees: selector (pass it as `tree` to the other tools), source kind, " +
			"content root, commit (head), whether it has uncommitted changes (dirty) and, for git sources, the last sync. " +
			"A tree that cannot be opened (a git source never synced) is listed with its error.",
		run: func(ctx context.Context, _ listTreesArgs) (*contracts.ListTreesResult, error) {
			return operations.ListTrees(ctx, s.env)
		},
	})
}
