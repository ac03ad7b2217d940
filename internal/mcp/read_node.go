package mcp

import (
	"context"
	"strconv"
	"unicode/utf8"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/operations"
)

type readNodeArgs struct {
	Tree   string `json:"tree"`
	Node   string `json:"path"`
	Cursor string `json:"cursor"`
	Limit  int    `json:"limit"`
}

// declared is how the server opens trees: by declared selector only, never
// an arbitrary directory the client names.
var declared = operations.TreeAccess{DeclaredOnly: true}

func (s *server) addReadNode(srv *sdk.Server) error {
	return addTool(srv, toolSpec[readNodeArgs, *contracts.MCPReadResult]{
		name:   contracts.MCPToolReadNode,
		result: "mcp-read-node",
		description: "Read one node of a tree (a directory, by its path or its NODE.md, or a Markdown document): title, " +
			"description, soft links, frontmatter, body, and a summary of each immediate child. Soft links are not expanded. " +
			"Refuses symlinks, paths outside the tree, infrastructure and non-Markdown files. The body comes in chunks of " +
			"64 KiB and children in pages (page.nextCursor continues).",
		run:     s.readNode,
		renamed: map[string]string{"node": "path"},
	})
}

func (s *server) readNode(ctx context.Context, a readNodeArgs) (*contracts.MCPReadResult, error) {
	limit := pageLimit(a.Limit, contracts.MCPDefaultPage)
	cur, err := decodeCursor(a.Cursor, callKey(contracts.MCPToolReadNode, a.Tree, a.Node, strconv.Itoa(limit)))
	if err != nil {
		return nil, err
	}
	r, err := operations.ReadAs(ctx, s.env, a.Node, a.Tree, declared)
	if err != nil {
		return nil, err
	}
	body := r.Node.Body
	pg := contracts.ReadPage{BodyOffset: min(cur.Body, len(body)), BodyBytes: len(body), ChildrenOffset: cur.Offset, ChildrenTotal: len(r.Children)}
	chunk := bodyChunk(body[pg.BodyOffset:], contracts.MCPBodyChunk)
	r.Node.Body = chunk
	kids, nextKid := page(r.Children, cur.Offset, limit)
	r.Children = kids
	nextBody := pg.BodyOffset + len(chunk)
	if nextBody < len(body) || nextKid >= 0 {
		next := cursor{Call: cur.Call, Body: nextBody, Offset: len(r.Children) + cur.Offset}
		pg.NextCursor = next.encode()
	}
	return &contracts.MCPReadResult{ReadResult: *r, Page: pg}, nil
}

// bodyChunk is the longest prefix of s of at most max bytes that does not
// split a UTF-8 sequence.
func bodyChunk(s string, max int) string {
	if len(s) <= max {
		return s
	}
	end := max
	for end > 0 && !utf8.RuneStart(s[end]) {
		end--
	}
	return s[:end]
}
