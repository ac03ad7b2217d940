package mcp

import (
	"cmp"
	"context"
	"slices"
	"strconv"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/operations"
	"github.com/git-context-tree/git-context-tree/internal/tree/search"
)

type searchArgs struct {
	Query  string `json:"query"`
	Tree   string `json:"tree"`
	Cursor string `json:"cursor"`
	Limit  int    `json:"limit"`
}

func (s *server) addSearch(srv *sdk.Server) error {
	return addTool(srv, toolSpec[searchArgs, *contracts.SearchResult]{
		name:   contracts.MCPToolSearch,
		result: "mcp-search",
		description: "Ranked full-text search over the titles, descriptions and bodies of one tree or every declared tree " +
			"(words, case-insensitive; documents holding every word rank first). Each hit has its node path and up to 3 " +
			"matching lines with their line numbers in the file. Read a hit with read_node.",
		run: s.search,
	})
}

type treeHit struct {
	selector string
	hit      search.Hit
}

func (s *server) search(ctx context.Context, a searchArgs) (*contracts.SearchResult, error) {
	if strings.TrimSpace(a.Query) == "" {
		return nil, contracts.Errorf(contracts.CodeUsage, "the query is empty")
	}
	limit := min(pageLimit(a.Limit, contracts.MCPSearchDefaultLimit), contracts.MCPSearchMaxLimit)
	cur, err := decodeCursor(a.Cursor, callKey(contracts.MCPToolSearch, a.Query, a.Tree, strconv.Itoa(limit)))
	if err != nil {
		return nil, err
	}
	res := &contracts.SearchResult{SchemaVersion: contracts.CLIVersion, Query: a.Query, Trees: []contracts.TreeRef{}, Hits: []contracts.SearchHit{}}
	var targets []operations.TreeTarget
	if a.Tree != "" {
		t, ref, err := operations.OpenTreeTarget(ctx, s.env, a.Tree, declared)
		if err != nil {
			return nil, err
		}
		targets, res.Trees = append(targets, t), append(res.Trees, ref)
	} else {
		ts, refs, skipped, err := operations.OpenTreeTargets(ctx, s.env)
		if err != nil {
			return nil, err
		}
		targets, res.Trees, res.Skipped = ts, append(res.Trees, refs...), skipped
	}
	var all []treeHit
	for i, ref := range res.Trees {
		ix, err := s.index(ctx, targets[i], ref.Head)
		if err != nil {
			return nil, err
		}
		for _, h := range ix.Search(a.Query, contracts.MCPSearchMaxResults) {
			all = append(all, treeHit{selector: ref.Selector, hit: h})
		}
	}
	slices.SortStableFunc(all, func(x, y treeHit) int { return cmp.Compare(y.hit.Score, x.hit.Score) })
	all = all[:min(len(all), contracts.MCPSearchMaxResults)]
	res.Total = len(all)
	pageHits, next := page(all, cur.Offset, limit)
	for _, th := range pageHits {
		d := th.hit.Doc
		res.Hits = append(res.Hits, contracts.SearchHit{
			Selector: th.selector, Path: d.Node, Kind: d.Kind, Class: d.Class,
			Title: d.Title, Description: d.Description, Score: th.hit.Score,
			Snippets: search.Snippets(th.hit, a.Query, contracts.MCPSnippetsPerResult, contracts.MCPSnippetChars),
		})
	}
	if next >= 0 {
		res.NextCursor = cursor{Call: cur.Call, Offset: next}.encode()
	}
	return res, nil
}

// index is a tree's search index. A git source's snapshot is indexed held
// to its commit: a build that read a document whose bytes are not the
// commit's is SNAPSHOT_CORRUPT and never kept, so the index searched is
// built from the commit's content only (search.Hold).
func (s *server) index(ctx context.Context, t operations.TreeTarget, head string) (*search.Index, error) {
	var hold *search.Hold
	if served := t.ServedBlobs(); served != nil {
		hold = &search.Hold{Observe: served.Observer(), Check: func() error { return served.Check(ctx, s.env.Git) }}
	}
	return s.indexes.Index(t.Root, head, hold)
}
