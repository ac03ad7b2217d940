package contracts

import "time"

// The read-only MCP server (`git context-tree mcp`, issue 17). Each tool's
// arguments and structured result have a JSON Schema named
// mcp-<tool>-input and mcp-<tool> (resolve answers with the resolve
// contract itself). Results are bounded by the caps below; a result with
// more to give carries nextCursor, which the same call takes back as
// cursor.

// MCP tool names.
const (
	MCPToolListTrees = "list_trees"
	MCPToolReadNode  = "read_node"
	MCPToolOutline   = "outline"
	MCPToolSearch    = "search"
	MCPToolVerify    = "verify"
	MCPToolResolve   = "resolve"
	MCPToolCitedBy   = "cited_by"
)

// Size caps of MCP results. A page holds at most MCPMaxPage entries
// (MCPDefaultPage unless the call asks for fewer or more); a node body is
// returned in chunks of at most MCPBodyChunk bytes.
const (
	MCPDefaultPage        = 100
	MCPMaxPage            = 500
	MCPBodyChunk          = 64 << 10
	MCPSearchDefaultLimit = 10
	MCPSearchMaxLimit     = 50
	MCPSearchMaxResults   = 500 // ranked results a query pages through
	MCPSnippetsPerResult  = 3
	MCPSnippetChars       = 240
	MCPMaxQueryChars      = 256
	MCPOutlineDepth       = 2
	MCPOutlineMaxDepth    = 8
)

// ListTreesResult is the result of the list_trees tool: every declared
// source and, when it can be opened without the network, where its content
// is and which commit it is at.
type ListTreesResult struct {
	SchemaVersion int           `json:"schemaVersion"`
	Project       ProjectRef    `json:"project"`
	Trees         []TreeListing `json:"trees"`
}

// TreeListing is one declared source as list_trees shows it. Root, Head and
// Dirty are absent when the source cannot be opened (Error says why, for
// example a git source never synced); LastSync is the last successful
// fetch of a git source's branch on this machine.
type TreeListing struct {
	Selector string     `json:"selector"`
	Exact    string     `json:"exact"`
	Source   Source     `json:"source"`
	Root     string     `json:"root,omitempty"`
	Head     string     `json:"head,omitempty"`
	Dirty    *bool      `json:"dirty,omitempty"`
	LastSync *time.Time `json:"lastSync,omitempty"`
	Error    *Error     `json:"error,omitempty"`
}

// MCPReadResult is the read_node result: exactly the read contract for one
// page, plus where the page lies in the node's body and children.
type MCPReadResult struct {
	ReadResult
	Page ReadPage `json:"page"`
}

// ReadPage places one read_node page: Body holds the node body's bytes
// from BodyOffset (of BodyBytes), Children the children from
// ChildrenOffset (of ChildrenTotal).
type ReadPage struct {
	BodyOffset     int    `json:"bodyOffset"`
	BodyBytes      int    `json:"bodyBytes"`
	ChildrenOffset int    `json:"childrenOffset"`
	ChildrenTotal  int    `json:"childrenTotal"`
	NextCursor     string `json:"nextCursor,omitempty"`
}

// OutlineResult is the outline tool's result: the titles and descriptions
// of a subtree to a depth, in depth-first path order.
type OutlineResult struct {
	SchemaVersion int            `json:"schemaVersion"`
	Tree          TreeRef        `json:"tree"`
	Node          string         `json:"node"`
	Depth         int            `json:"depth"`
	Entries       []OutlineEntry `json:"entries"`
	NextCursor    string         `json:"nextCursor,omitempty"`
}

// OutlineEntry is one node of an outline; Depth 1 is a child of the
// outlined node.
type OutlineEntry struct {
	ChildNode
	Depth int `json:"depth"`
}

// SearchResult is the search tool's result: ranked hits over one or every
// declared tree. Trees names every tree searched (with its commit); a tree
// that could not be searched is in Skipped with the reason.
type SearchResult struct {
	SchemaVersion int           `json:"schemaVersion"`
	Query         string        `json:"query"`
	Trees         []TreeRef     `json:"trees"`
	Hits          []SearchHit   `json:"hits"`
	Total         int           `json:"total"`
	NextCursor    string        `json:"nextCursor,omitempty"`
	Skipped       []SkippedTree `json:"skipped,omitempty"`
}

// SearchHit is one matching node. Snippets are body lines that hold query
// terms, with their line numbers in the file.
type SearchHit struct {
	Selector    string    `json:"selector"`
	Path        string    `json:"path"`
	Kind        NodeKind  `json:"kind"`
	Class       Class     `json:"class"`
	Title       string    `json:"title"`
	Description string    `json:"description,omitempty"`
	Score       float64   `json:"score"`
	Snippets    []Snippet `json:"snippets"`
}

// Snippet is one line of a document around a match.
type Snippet struct {
	Line int    `json:"line"`
	Text string `json:"text"`
}

// MCPVerifyResult is the verify tool's result for one tree: its findings
// one page at a time.
type MCPVerifyResult struct {
	SchemaVersion int       `json:"schemaVersion"`
	Tree          TreeRef   `json:"tree"`
	OK            bool      `json:"ok"`
	Scanned       Scanned   `json:"scanned"`
	FindingsTotal int       `json:"findingsTotal"`
	Findings      []Finding `json:"findings"`
	NextCursor    string    `json:"nextCursor,omitempty"`
}

// MCPConfigResult is the result of `mcp config <host>`: the snippet, the
// file it belongs in and, with --write, whether that file changed.
type MCPConfigResult struct {
	SchemaVersion int    `json:"schemaVersion"`
	Host          string `json:"host"`
	File          string `json:"file"`
	Format        string `json:"format"` // json or toml
	Snippet       string `json:"snippet"`
	Written       bool   `json:"written"`
	Changed       bool   `json:"changed"`
	// Warnings: the stdio entry runs `git context-tree mcp`, found on the
	// host's PATH; said when a host started outside a shell would not
	// find git-context-tree there.
	Warnings []string `json:"warnings,omitempty"`
}

// MCPHTTPServing is what `mcp --http` prints (with --json) once it
// serves: the endpoint, the file holding the bearer token, and the
// variable host configurations read the token from.
type MCPHTTPServing struct {
	SchemaVersion int    `json:"schemaVersion"`
	URL           string `json:"url"`
	TokenFile     string `json:"tokenFile"`
	TokenEnv      string `json:"tokenEnv"`
}

// MCP error codes. CURSOR_INVALID: a cursor that is not one this server
// gave for the same call. HOST_CONFIG_INVALID: `mcp config --write` found
// a host configuration file it cannot edit faithfully (a refusal: nothing
// was written).
const (
	CodeCursorInvalid     ErrorCode = "CURSOR_INVALID"
	CodeHostConfigInvalid ErrorCode = "HOST_CONFIG_INVALID"
)

// MCP resources: every content document of a declared tree is a resource
// whose URI is MCPResourceScheme + "tree/" + the exact selector
// (percent-encoded as one segment) + "/" + the document's tree-relative
// path (each segment percent-encoded), for example
// context-tree://tree/%2Fsrv%2Fproject%2Fdocs/deploy/NODE.md. A resource
// read returns at most MCPResourceBytes of the body (read_node pages the
// rest).
const (
	MCPResourceScheme = "context-tree://"
	MCPResourceBytes  = 256 << 10
)
