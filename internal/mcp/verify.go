package mcp

import (
	"context"
	"strconv"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/operations"
	"github.com/git-context-tree/git-context-tree/internal/tree"
)

type verifyArgs struct {
	Tree   string `json:"tree"`
	Cursor string `json:"cursor"`
	Limit  int    `json:"limit"`
}

func (s *server) addVerify(srv *sdk.Server) error {
	return addTool(srv, toolSpec[verifyArgs, *contracts.MCPVerifyResult]{
		name:   contracts.MCPToolVerify,
		result: "mcp-verify",
		description: "Verify one tree as `git context-tree verify` does (directory indexes, metadata, link containment, " +
			"soft links, symlinks) and list its findings, a page at a time. Also reports a git snapshot that sync rejected.",
		run: s.verify,
	})
}

func (s *server) verify(ctx context.Context, a verifyArgs) (*contracts.MCPVerifyResult, error) {
	limit := pageLimit(a.Limit, contracts.MCPDefaultPage)
	cur, err := decodeCursor(a.Cursor, callKey(contracts.MCPToolVerify, a.Tree, strconv.Itoa(limit)))
	if err != nil {
		return nil, err
	}
	t, ref, err := operations.OpenTreeTarget(ctx, s.env, a.Tree, operations.TreeAccess{DeclaredOnly: true, Unverified: true})
	if err != nil {
		return nil, err
	}
	rep, err := operations.VerifyTarget(ctx, s.env, t, tree.VerifyOptions{})
	if err != nil {
		return nil, err
	}
	res := &contracts.MCPVerifyResult{SchemaVersion: contracts.CLIVersion, Tree: ref, OK: rep.OK(), Scanned: rep.Scanned, FindingsTotal: len(rep.Findings)}
	var next int
	res.Findings, next = page(rep.Findings, cur.Offset, limit)
	if next >= 0 {
		res.NextCursor = cursor{Call: cur.Call, Offset: next}.encode()
	}
	return res, nil
}
