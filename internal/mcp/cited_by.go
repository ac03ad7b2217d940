package mcp

import (
	"context"
	"strconv"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/operations"
	"github.com/git-context-tree/git-context-tree/internal/operations/evidence"
	"github.com/git-context-tree/git-context-tree/internal/sources"
)

type citedByArgs struct {
	Path       string `json:"path"`
	Lines      string `json:"lines"`
	Repository string `json:"repository"`
	Tree       string `json:"tree"`
	Cursor     string `json:"cursor"`
	Limit      int    `json:"limit"`
}

func (s *server) addCitedBy(srv *sdk.Server) error {
	return addTool(srv, toolSpec[citedByArgs, *contracts.CitesReport]{
		name:   contracts.MCPToolCitedBy,
		result: "cites",
		description: "What do the trees know about a code file? The documents whose sources cite the path (or lines of it), " +
			"each citation with its freshness: fresh (unchanged since the commit it records), changed (with the commits " +
			"since), unstamped or unavailable. Exactly `git context-tree cites`; documents come in pages (nextCursor continues).",
		run: s.citedBy,
	})
}

func (s *server) citedBy(ctx context.Context, a citedByArgs) (*contracts.CitesReport, error) {
	limit := pageLimit(a.Limit, contracts.MCPDefaultPage)
	cur, err := decodeCursor(a.Cursor, callKey(contracts.MCPToolCitedBy, a.Path, a.Lines, a.Repository, a.Tree, strconv.Itoa(limit)))
	if err != nil {
		return nil, err
	}
	req := evidence.CitesRequest{Paths: []string{a.Path}, Repository: a.Repository}
	if a.Lines != "" {
		req.Paths[0] += ":" + a.Lines
	}
	if a.Tree != "" {
		// Declared trees only: never a directory the client names.
		_, conns, err := operations.OpenProject(ctx, s.env)
		if err != nil {
			return nil, err
		}
		c, err := sources.Select(conns, a.Tree, s.env.Dir)
		if err != nil {
			return nil, err
		}
		req.Trees = []string{c.Exact}
	}
	rep, err := evidence.Cites(ctx, s.env, req)
	if err != nil {
		return nil, err
	}
	var next int
	rep.Documents, next = page(rep.Documents, cur.Offset, limit)
	if next >= 0 {
		rep.NextCursor = cursor{Call: cur.Call, Offset: next}.encode()
	}
	return rep, nil
}
