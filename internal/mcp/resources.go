package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"net/url"
	"path"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/operations"
	"github.com/git-context-tree/git-context-tree/internal/redact"
	"github.com/git-context-tree/git-context-tree/internal/tree"
)

const (
	resourcePrefix   = contracts.MCPResourceScheme + "tree/"
	resourceTemplate = resourcePrefix + "{tree}/{+path}"
	markdownMIME     = "text/markdown"
)

// addResources exposes every node's document as a resource: reads go
// through the template (so any node, listed or not, is served by read's
// rules), and resources/list enumerates the declared trees' documents
// when asked, since they change while the server runs.
func (s *server) addResources(srv *sdk.Server) {
	srv.AddResourceTemplate(&sdk.ResourceTemplate{
		Name: "node", Title: "Context Tree node", MIMEType: markdownMIME, URITemplate: resourceTemplate,
		Description: "A node's Markdown body. tree is a declared tree's exact selector (percent-encoded), path the document's path in the tree.",
	}, s.readResource)
	srv.AddReceivingMiddleware(func(next sdk.MethodHandler) sdk.MethodHandler {
		return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
			if r, ok := req.(*sdk.ListResourcesRequest); ok && method == "resources/list" {
				return s.listResources(ctx, r.Params)
			}
			return next(ctx, method, req)
		}
	})
}

// resourceURI names a document of the tree with the exact selector.
func resourceURI(selector, rel string) string {
	segs := strings.Split(rel, "/")
	for i, s := range segs {
		segs[i] = escape(s)
	}
	return resourcePrefix + escape(selector) + "/" + strings.Join(segs, "/")
}

// escape percent-encodes everything but RFC 3986 unreserved characters,
// so a selector (a path or URL) is one segment the template matches.
func escape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("-._~", c) >= 0 {
			b.WriteByte(c)
			continue
		}
		b.WriteString("%" + strings.ToUpper(hex(c)))
	}
	return b.String()
}

func hex(c byte) string {
	const digits = "0123456789abcdef"
	return string([]byte{digits[c>>4], digits[c&15]})
}

// parseResourceURI splits a node URI into the selector and the path.
func parseResourceURI(uri string) (selector, rel string, ok bool) {
	rest, found := strings.CutPrefix(uri, resourcePrefix)
	if !found {
		return "", "", false
	}
	sel, p, found := strings.Cut(rest, "/")
	if !found || p == "" {
		return "", "", false
	}
	selector, err := url.PathUnescape(sel)
	if err != nil {
		return "", "", false
	}
	rel, err = url.PathUnescape(p)
	if err != nil {
		return "", "", false
	}
	return selector, rel, selector != ""
}

func (s *server) readResource(ctx context.Context, req *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
	uri := req.Params.URI
	selector, rel, ok := parseResourceURI(uri)
	if !ok {
		return nil, sdk.ResourceNotFoundError(uri)
	}
	r, err := operations.ReadAs(ctx, s.env, rel, selector, declared)
	var ce *contracts.Error
	switch {
	case errors.As(err, &ce):
		return nil, resourceErr(uri, ce)
	case err != nil:
		return nil, err
	}
	body := bodyChunk(r.Node.Body, contracts.MCPResourceBytes)
	meta := sdk.Meta{"tree": r.Tree, "path": r.Node.Path, "title": r.Node.Title, "bodyBytes": len(r.Node.Body)}
	if len(body) < len(r.Node.Body) {
		meta["truncated"] = true
	}
	return &sdk.ReadResourceResult{
		Cacheable: sdk.Cacheable{CacheScope: "private"},
		Contents:  []*sdk.ResourceContents{{URI: uri, MIMEType: markdownMIME, Text: redact.String(body), Meta: meta}},
	}, nil
}

// listResources lists every document of every declared tree that can be
// opened, a page at a time.
func (s *server) listResources(ctx context.Context, p *sdk.ListResourcesParams) (*sdk.ListResourcesResult, error) {
	asked := ""
	if p != nil {
		asked = p.Cursor
	}
	cur, err := decodeCursor(asked, callKey("resources/list"))
	if err != nil {
		return nil, err
	}
	targets, refs, _, err := operations.OpenTreeTargets(ctx, s.env)
	if err != nil {
		return nil, err
	}
	var all []*sdk.Resource
	for i, ref := range refs {
		if ref.Selector == "" {
			continue // not declared: no selector to name it by
		}
		docs, err := s.listDocuments(ctx, targets[i])
		if err != nil {
			return nil, err
		}
		for _, d := range docs {
			all = append(all, &sdk.Resource{URI: resourceURI(ref.Selector, d.Rel), Name: d.Rel, MIMEType: markdownMIME,
				Description: "in " + ref.Selector, Title: path.Base(d.Rel)})
		}
	}
	res := &sdk.ListResourcesResult{Cacheable: sdk.Cacheable{CacheScope: "private"}}
	var next int
	res.Resources, next = page(all, cur.Offset, contracts.MCPDefaultPage)
	if next >= 0 {
		res.NextCursor = cursor{Call: cur.Call, Offset: next}.encode()
	}
	return res, nil
}

// listDocuments lists a tree's documents; a git source's snapshot's names
// are held to its commit (one ls-tree), so a file added to the snapshot
// after its check is SNAPSHOT_CORRUPT, never listed as the commit's.
func (s *server) listDocuments(ctx context.Context, t operations.TreeTarget) ([]tree.DocStat, error) {
	docs, err := tree.ListDocuments(t.Root)
	if err != nil {
		return nil, err
	}
	served := t.ServedBlobs()
	for _, d := range docs {
		served.Listed(d.Rel)
	}
	if err := served.Check(ctx, s.env.Git); err != nil {
		return nil, err
	}
	return docs, nil
}

// resourceErr is a failed resource read as a JSON-RPC invalid-params error
// (what the protocol now uses for a resource that does not exist, too),
// with the CLI's error object as data so the client sees the stable code:
// READ_NOT_FOUND, READ_SYMLINK, READ_PATH_ESCAPE…
func resourceErr(uri string, ce *contracts.Error) error {
	data, _ := json.Marshal(map[string]any{"uri": uri, "error": ce})
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: redact.String(ce.Message), Data: redact.JSON(data)}
}
