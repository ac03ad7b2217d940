package mcp

import (
	"context"
	"errors"
	"strconv"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/operations"
	"github.com/git-context-tree/git-context-tree/internal/tree"
)

type outlineArgs struct {
	Tree   string `json:"tree"`
	Node   string `json:"path"`
	Depth  int    `json:"depth"`
	Cursor string `json:"cursor"`
	Limit  int    `json:"limit"`
}

func (s *server) addOutline(srv *sdk.Server) error {
	return addTool(srv, toolSpec[outlineArgs, *contracts.OutlineResult]{
		name:   contracts.MCPToolOutline,
		result: "mcp-outline",
		description: "Titles and descriptions of a subtree (default: the whole tree) to a depth (default 2, at most 8), " +
			"depth-first in path order, for orientation before reading. Bodies are not included; use read_node.",
		run:     s.outline,
		renamed: map[string]string{"node": "path"},
	})
}

func (s *server) outline(ctx context.Context, a outlineArgs) (*contracts.OutlineResult, error) {
	limit := pageLimit(a.Limit, contracts.MCPDefaultPage)
	depth := a.Depth
	if depth <= 0 {
		depth = contracts.MCPOutlineDepth
	}
	cur, err := decodeCursor(a.Cursor, callKey(contracts.MCPToolOutline, a.Tree, a.Node, strconv.Itoa(depth), strconv.Itoa(limit)))
	if err != nil {
		return nil, err
	}
	r, err := operations.OpenTreeReader(ctx, s.env, a.Tree, declared)
	if err != nil {
		return nil, err
	}
	node, entries, err := s.outlineOf(ctx, r, a.Node, depth, cur.Offset+limit+1)
	if err != nil {
		return nil, err
	}
	res := &contracts.OutlineResult{SchemaVersion: contracts.CLIVersion, Tree: r.Ref, Node: node, Depth: depth}
	var next int
	res.Entries, next = page(entries, cur.Offset, limit)
	if next >= 0 {
		res.NextCursor = cursor{Call: cur.Call, Offset: next}.encode()
	}
	return res, nil
}

// outlineOf is node's path and its outline to depth, at most want
// entries. Every summary in it, at any depth, is held to a git source's
// commit: one check after all the reads.
func (s *server) outlineOf(ctx context.Context, r *operations.TreeReader, node string, depth, want int) (string, []contracts.OutlineEntry, error) {
	nr, err := r.Read(node)
	if err != nil {
		return "", nil, err
	}
	o := outliner{read: r.Read, depth: depth, want: want}
	if err := o.add(ctx, nr.Children, 1); err != nil {
		return "", nil, err
	}
	if err := r.Check(ctx, s.env); err != nil {
		return "", nil, err
	}
	return nr.Node.Path, o.entries, nil
}

// outliner collects entries depth-first until it has want of them: a
// page, and one more to know whether another page follows.
type outliner struct {
	read    func(node string) (*tree.NodeRead, error)
	depth   int
	want    int
	entries []contracts.OutlineEntry
}

// add appends children at depth d and, below each directory, its own
// children, reading each directory as read does (so symlinks and
// infrastructure stay out exactly as in read).
func (o *outliner) add(ctx context.Context, kids []contracts.ChildNode, d int) error {
	for _, k := range kids {
		if len(o.entries) >= o.want {
			return nil
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		o.entries = append(o.entries, contracts.OutlineEntry{ChildNode: k, Depth: d})
		if k.Kind != contracts.KindDirectory || d >= o.depth {
			continue
		}
		nr, err := o.read(k.Path)
		var ce *contracts.Error
		switch {
		case errors.As(err, &ce):
			continue // listed with its finding; nothing below it to show
		case err != nil:
			return err
		}
		if err := o.add(ctx, nr.Children, d+1); err != nil {
			return err
		}
	}
	return nil
}
