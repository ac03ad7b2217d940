package mcp

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/operations"
)

func TestToolsAreListedReadOnlyWithContractSchemas(t *testing.T) {
	cs := newFixture(t).connect(t)
	if got := cs.InitializeResult().ServerInfo.Name; got != "git-context-tree" {
		t.Errorf("server name %q", got)
	}
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range res.Tools {
		names = append(names, tl.Name)
		if tl.Annotations == nil || !tl.Annotations.ReadOnlyHint {
			t.Errorf("%s is not marked read-only", tl.Name)
		}
		if tl.InputSchema == nil || tl.OutputSchema == nil {
			t.Errorf("%s lacks a schema", tl.Name)
		}
	}
	slices.Sort(names)
	if diff := cmp.Diff([]string{"cited_by", "list_trees", "outline", "read_node", "resolve", "search", "verify"}, names); diff != "" {
		t.Errorf("tools (-want +got):\n%s", diff)
	}
}

func TestListTreesNamesSourceCommitAndDirtiness(t *testing.T) {
	f := newFixture(t)
	cs := f.connect(t)
	var res contracts.ListTreesResult
	call(t, cs, "list_trees", nil, &res)
	if len(res.Trees) != 3 {
		t.Fatalf("trees: %+v", res.Trees)
	}
	docs, handbook, never := res.Trees[0], res.Trees[1], res.Trees[2]
	if docs.Root != f.docs || docs.Head == "" || docs.Dirty == nil || *docs.Dirty {
		t.Errorf("docs: %+v", docs)
	}
	if handbook.Head != f.handbookHead || handbook.LastSync == nil || handbook.Dirty == nil || *handbook.Dirty {
		t.Errorf("handbook: %+v", handbook)
	}
	if never.Error == nil || never.Error.Code != contracts.CodeNotSynced || never.Root != "" {
		t.Errorf("never: %+v", never)
	}
}

func TestReadNodePagesChildrenAndBody(t *testing.T) {
	cs := newFixture(t).connect(t)
	var first, second contracts.MCPReadResult
	call(t, cs, "read_node", map[string]any{"tree": "docs", "path": "guide", "limit": 2}, &first)
	if first.Tree.Selector == "" || first.Tree.Head == "" || first.Tree.Dirty == nil {
		t.Errorf("tree: %+v", first.Tree)
	}
	if first.Node.Title != "Guide" || first.Page.ChildrenTotal != 3 || len(first.Children) != 2 || first.Page.NextCursor == "" {
		t.Fatalf("first page: %+v", first)
	}
	call(t, cs, "read_node", map[string]any{"tree": "docs", "path": "guide", "limit": 2, "cursor": first.Page.NextCursor}, &second)
	if len(second.Children) != 1 || second.Children[0].Path != "guide/review.md" || second.Page.NextCursor != "" || second.Page.ChildrenOffset != 2 {
		t.Errorf("second page: %+v", second.Page)
	}

	var big1, big2 contracts.MCPReadResult
	call(t, cs, "read_node", map[string]any{"tree": "docs", "path": "big.md"}, &big1)
	if len(big1.Node.Body) != contracts.MCPBodyChunk || big1.Page.BodyBytes <= contracts.MCPBodyChunk || big1.Page.NextCursor == "" {
		t.Fatalf("big first chunk: %d of %d", len(big1.Node.Body), big1.Page.BodyBytes)
	}
	call(t, cs, "read_node", map[string]any{"tree": "docs", "path": "big.md", "cursor": big1.Page.NextCursor}, &big2)
	if big2.Page.BodyOffset != contracts.MCPBodyChunk || len(big1.Node.Body)+len(big2.Node.Body) != big1.Page.BodyBytes || big2.Page.NextCursor != "" {
		t.Errorf("big second chunk: %+v", big2.Page)
	}
}

func TestReadNodeRefusesWhatReadRefuses(t *testing.T) {
	f := newFixture(t)
	cs := f.connect(t)
	for _, tc := range []struct {
		args map[string]any
		code contracts.ErrorCode
	}{
		{map[string]any{"tree": "docs", "path": "linked.md"}, contracts.CodeReadSymlink},
		{map[string]any{"tree": "docs", "path": "../outside"}, contracts.CodeReadPathEscape},
		{map[string]any{"tree": "docs", "path": f.outside}, contracts.CodeReadPathEscape},
		{map[string]any{"tree": "docs", "path": "AGENTS.md"}, contracts.CodeReadInfrastructure},
		{map[string]any{"tree": "docs", "path": ".hidden"}, contracts.CodeReadInfrastructure},
		{map[string]any{"tree": f.outside}, contracts.CodeSelectorNotFound}, // a directory is not a declared tree
		{map[string]any{}, contracts.CodeSelectorAmbiguous},                 // three trees, none named
		{map[string]any{"tree": "never"}, contracts.CodeNotSynced},
		{map[string]any{"tree": "docs", "bogus": 1}, contracts.CodeUsage},
		{map[string]any{"tree": "docs", "path": strings.Repeat("a/", 3000)}, contracts.CodeUsage},
		{map[string]any{"tree": "docs", "cursor": "bm90IGEgY3Vyc29y"}, contracts.CodeCursorInvalid},
	} {
		if got := toolError(t, cs, "read_node", tc.args); got != string(tc.code) {
			t.Errorf("%v: %s, want %s", tc.args, got, tc.code)
		}
	}
}

func TestReadNodeReadsAGitSourceFromItsSnapshot(t *testing.T) {
	f := newFixture(t)
	cs := f.connect(t)
	// Upstream moves on; without a sync the server still serves the
	// snapshot it has, and says which commit that is.
	f.gh.Publish("acme/handbook", "main", map[string]string{"travel/NODE.md": doc("Travel", "Changed upstream.\n")})
	var res contracts.MCPReadResult
	call(t, cs, "read_node", map[string]any{"tree": "handbook", "path": "travel/NODE.md"}, &res)
	if res.Tree.Head != f.handbookHead || res.Node.Path != "travel" || !strings.Contains(res.Node.Body, "Book trains") {
		t.Errorf("%+v", res)
	}
}

func TestOutlineFollowsTreeRulesAndPages(t *testing.T) {
	cs := newFixture(t).connect(t)
	var res contracts.OutlineResult
	call(t, cs, "outline", map[string]any{"tree": "docs"}, &res)
	var paths []string
	for _, e := range res.Entries {
		paths = append(paths, e.Path)
	}
	want := []string{"big.md", "guide", "guide/deploy.md", "guide/oncall.md", "guide/review.md", "members", "members/ann"}
	if diff := cmp.Diff(want, paths); diff != "" {
		t.Errorf("outline (-want +got):\n%s", diff)
	}
	var shallow contracts.OutlineResult
	call(t, cs, "outline", map[string]any{"tree": "docs", "depth": 1, "limit": 2}, &shallow)
	if len(shallow.Entries) != 2 || shallow.NextCursor == "" {
		t.Fatalf("page 1: %+v", shallow)
	}
	var rest contracts.OutlineResult
	call(t, cs, "outline", map[string]any{"tree": "docs", "depth": 1, "limit": 2, "cursor": shallow.NextCursor}, &rest)
	if len(rest.Entries) != 1 || rest.Entries[0].Path != "members" || rest.NextCursor != "" {
		t.Errorf("page 2: %+v", rest)
	}
	if code := toolError(t, cs, "outline", map[string]any{"tree": "docs", "depth": 1, "limit": 3, "cursor": shallow.NextCursor}); code != string(contracts.CodeCursorInvalid) {
		t.Errorf("a cursor of another call: %s", code)
	}
}

func TestSearchRanksAcrossTreesWithSnippets(t *testing.T) {
	f := newFixture(t)
	cs := f.connect(t)
	var res contracts.SearchResult
	call(t, cs, "search", map[string]any{"query": "canary"}, &res)
	got := map[string]contracts.SearchHit{}
	for _, h := range res.Hits {
		got[h.Path] = h
	}
	for _, p := range []string{"guide/deploy.md", "travel", "members/ann"} {
		if _, ok := got[p]; !ok {
			t.Errorf("no hit for %s: %+v", p, res.Hits)
		}
	}
	for _, p := range []string{".hidden", "AGENTS.md", "linked.md"} {
		if _, ok := got[p]; ok {
			t.Errorf("%s was searched", p)
		}
	}
	if diff := cmp.Diff([]contracts.Snippet{{Line: 6, Text: "We ship with canary releases."}}, got["guide/deploy.md"].Snippets); diff != "" {
		t.Errorf("snippets (-want +got):\n%s", diff)
	}
	if len(res.Trees) != 2 || len(res.Skipped) != 1 || res.Skipped[0].Error.Code != contracts.CodeNotSynced {
		t.Errorf("trees %+v skipped %+v", res.Trees, res.Skipped)
	}

	var one, next contracts.SearchResult
	call(t, cs, "search", map[string]any{"query": "canary", "limit": 1}, &one)
	if len(one.Hits) != 1 || one.Total != len(res.Hits) || one.NextCursor == "" {
		t.Fatalf("page 1: %+v", one)
	}
	call(t, cs, "search", map[string]any{"query": "canary", "limit": 1, "cursor": one.NextCursor}, &next)
	if len(next.Hits) != 1 || next.Hits[0].Path == one.Hits[0].Path {
		t.Errorf("page 2: %+v", next.Hits)
	}

	// The index follows the files.
	writeFile(t, filepath.Join(f.docs, "guide", "review.md"), doc("Review", "Reviews mention zeppelins now.\n"))
	var fresh contracts.SearchResult
	call(t, cs, "search", map[string]any{"query": "zeppelins", "tree": "docs"}, &fresh)
	if len(fresh.Hits) != 1 || fresh.Hits[0].Path != "guide/review.md" || len(fresh.Trees) != 1 || fresh.Trees[0].Dirty == nil || !*fresh.Trees[0].Dirty {
		t.Errorf("after an edit: %+v", fresh)
	}
	if code := toolError(t, cs, "search", map[string]any{"query": strings.Repeat("q", contracts.MCPMaxQueryChars+1)}); code != string(contracts.CodeUsage) {
		t.Errorf("oversized query: %s", code)
	}
	if code := toolError(t, cs, "search", map[string]any{}); code != string(contracts.CodeUsage) {
		t.Errorf("missing query: %s", code)
	}
}

func TestVerifyReportsSymlinkFindingsInPages(t *testing.T) {
	f := newFixture(t)
	if err := os.Symlink(f.outside, filepath.Join(f.docs, "linkdir")); err != nil {
		t.Fatal(err)
	}
	cs := f.connect(t)
	var res contracts.MCPVerifyResult
	call(t, cs, "verify", map[string]any{"tree": "docs", "limit": 1}, &res)
	if res.OK || res.FindingsTotal != 2 || len(res.Findings) != 1 || res.Findings[0].Code != contracts.FindingSymlinkUnsupported || res.NextCursor == "" {
		t.Fatalf("%+v", res)
	}
	var handbook contracts.MCPVerifyResult
	call(t, cs, "verify", map[string]any{"tree": "handbook"}, &handbook)
	if !handbook.OK || handbook.Tree.Head != f.handbookHead || handbook.Scanned.Documents != 2 {
		t.Errorf("handbook: %+v", handbook)
	}
}

func TestResolveIsTheResolveContract(t *testing.T) {
	cs := newFixture(t).connect(t)
	var res contracts.ResolveResult
	call(t, cs, "resolve", nil, &res)
	if len(res.Resolutions) != 3 || !res.Resolutions[1].OK || res.Resolutions[2].OK {
		t.Errorf("%+v", res.Resolutions)
	}
	var one contracts.ResolveResult
	call(t, cs, "resolve", map[string]any{"tree": "handbook"}, &one)
	if len(one.Resolutions) != 1 || one.Resolutions[0].Head == "" {
		t.Errorf("%+v", one)
	}
}

func TestNodesAreResources(t *testing.T) {
	f := newFixture(t)
	cs := f.connect(t)
	ctx := context.Background()
	var uris []string
	for r, err := range cs.Resources(ctx, nil) { // pages through nextCursor
		if err != nil {
			t.Fatal(err)
		}
		uris = append(uris, r.URI)
	}
	deploy := resourceURI(f.docs, "guide/deploy.md")
	travel := "context-tree://tree/https%3A%2F%2Fgithub.com%2Facme%2Fhandbook%2Ftree%2Fmain/travel/NODE.md"
	for _, want := range []string{deploy, travel} {
		if !slices.Contains(uris, want) {
			t.Errorf("%s not listed in %v", want, uris)
		}
	}
	for _, u := range uris {
		if strings.Contains(u, "linked.md") || strings.Contains(u, "AGENTS") || strings.Contains(u, "hidden") {
			t.Errorf("listed %s", u)
		}
	}
	res, err := cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: deploy})
	if err != nil {
		t.Fatal(err)
	}
	c := res.Contents[0]
	tree, _ := c.Meta["tree"].(map[string]any)
	if !strings.Contains(c.Text, "canary releases") || c.MIMEType != "text/markdown" || tree["head"] == nil || tree["dirty"] != false {
		t.Errorf("%+v", c)
	}
	if _, err := cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: resourceURI(f.docs, "linked.md")}); err == nil || !strings.Contains(err.Error(), "symlink") {
		t.Errorf("a symlinked document was served: %v", err)
	}
	if _, err := cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: resourceURI(f.docs, "../../etc/passwd")}); err == nil {
		t.Error("a path outside the tree was served")
	}
}

func TestUnknownToolIsAProtocolError(t *testing.T) {
	cs := newFixture(t).connect(t)
	if _, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "write_node"}); err == nil {
		t.Error("an unknown tool was called")
	}
}

// sparseFixture adds acme/wiki to the fixture's project: its subtree kb
// synced, then its subtree team declared after that sync, so the branch's
// sparse snapshot does not hold team.
func sparseFixture(t *testing.T) *fixture {
	f := newFixture(t)
	f.gh.Publish("acme/wiki", "main", map[string]string{
		"kb/NODE.md":   "---\nschemaVersion: 1\ntitle: KB\n---\nKnowledge of zeppelin routes.\n",
		"team/NODE.md": "---\nschemaVersion: 1\ntitle: Team\n---\nZeppelin crews.\n",
	})
	config := func(trees ...string) {
		writeFile(t, filepath.Join(f.project, ".context-tree.json"), `{"schemaVersion":3,"trees":[
  {"kind":"directory","path":"docs"},
  {"kind":"git","repository":"acme/handbook","path":".","ref":"main"}`+strings.Join(trees, "")+`]}`)
	}
	kb := `,{"kind":"git","repository":"acme/wiki","path":"kb","ref":"main"}`
	config(kb)
	res, err := operations.Sync(context.Background(), f.env, []string{"https://github.com/acme/wiki/tree/main/kb"}, false)
	if err != nil || len(res.Connections) != 1 || !res.Connections[0].OK {
		t.Fatalf("sync: %+v %v", res, err)
	}
	config(kb, `,{"kind":"git","repository":"acme/wiki","path":"team","ref":"main"}`)
	return f
}

func TestASubtreeTheSparseSnapshotLacksIsNotSynced(t *testing.T) {
	f := sparseFixture(t)
	cs := f.connect(t)
	const team = "https://github.com/acme/wiki/tree/main/team"
	for _, tool := range []string{"read_node", "outline", "verify"} {
		if code := toolError(t, cs, tool, map[string]any{"tree": team}); code != string(contracts.CodeNotSynced) {
			t.Errorf("%s of team: %s, want NOT_SYNCED", tool, code)
		}
	}
	if code := toolError(t, cs, "search", map[string]any{"query": "zeppelin", "tree": "wiki/team"}); code != string(contracts.CodeNotSynced) {
		t.Errorf("search of team: %s", code)
	}
	// Searching every tree finds kb and skips team, saying why; nothing
	// of team is served from the snapshot or fetched.
	var res contracts.SearchResult
	call(t, cs, "search", map[string]any{"query": "zeppelin"}, &res)
	var paths []string
	for _, h := range res.Hits {
		if strings.Contains(h.Selector, "acme/wiki") {
			paths = append(paths, h.Selector+" "+h.Path)
		}
	}
	if diff := cmp.Diff([]string{"https://github.com/acme/wiki/tree/main/kb ."}, paths); diff != "" {
		t.Errorf("wiki hits (-want +got):\n%s", diff)
	}
	skipped := map[string]contracts.ErrorCode{}
	for _, s := range res.Skipped {
		skipped[s.Selector] = s.Error.Code
	}
	if skipped[team] != contracts.CodeNotSynced && skipped["wiki/team"] != contracts.CodeNotSynced {
		t.Errorf("skipped: %+v", res.Skipped)
	}
	var list contracts.ListTreesResult
	call(t, cs, "list_trees", nil, &list)
	for _, tr := range list.Trees {
		if tr.Exact == team && (tr.Error == nil || tr.Error.Code != contracts.CodeNotSynced || tr.Root != "") {
			t.Errorf("list_trees team: %+v", tr)
		}
	}
	for r, err := range cs.Resources(context.Background(), nil) {
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(r.URI, "team") {
			t.Errorf("listed %s", r.URI)
		}
	}
	if _, err := cs.ReadResource(context.Background(), &sdk.ReadResourceParams{URI: resourceURI(team, "NODE.md")}); err == nil || !strings.Contains(err.Error(), "does not hold team") {
		t.Errorf("resource of team: %v", err)
	}
}

func TestAnAmbiguousSelectorIsRefused(t *testing.T) {
	cs := sparseFixture(t).connect(t)
	for _, tool := range []string{"read_node", "outline", "verify", "search"} {
		args := map[string]any{"tree": "wiki"}
		if tool == "search" {
			args["query"] = "zeppelin"
		}
		if code := toolError(t, cs, tool, args); code != string(contracts.CodeSelectorAmbiguous) {
			t.Errorf("%s of wiki: %s, want SELECTOR_AMBIGUOUS", tool, code)
		}
	}
	if code := toolError(t, cs, "resolve", map[string]any{"tree": "wiki"}); code != string(contracts.CodeSelectorAmbiguous) {
		t.Errorf("resolve wiki: %s", code)
	}
}

func TestOversizedArgumentsAndHugeDocuments(t *testing.T) {
	f := newFixture(t)
	huge := filepath.Join(f.docs, "huge.md")
	writeFile(t, huge, doc("Huge", "zeppelin\n"))
	if err := os.Truncate(huge, contracts.MaxDocumentBytes+1); err != nil {
		t.Fatal(err)
	}
	cs := f.connect(t)
	res := callRaw(t, cs, "read_node", map[string]any{"tree": "docs", "path": strings.Repeat("a", 20<<10)})
	if !res.IsError || !strings.Contains(text(res), `"USAGE"`) || !strings.Contains(text(res), "the limit is 16384") {
		t.Errorf("20 KiB of arguments: %s", text(res))
	}
	if code := toolError(t, cs, "read_node", map[string]any{"tree": "docs", "path": "huge.md"}); code != string(contracts.CodeReadTooLarge) {
		t.Errorf("huge document: %s", code)
	}
	var found contracts.SearchResult
	call(t, cs, "search", map[string]any{"query": "zeppelin", "tree": "docs"}, &found)
	for _, h := range found.Hits {
		if h.Path == "huge.md" {
			t.Errorf("a document over the size cap was searched: %+v", h)
		}
	}
	if _, err := cs.ReadResource(context.Background(), &sdk.ReadResourceParams{URI: resourceURI(f.docs, "huge.md")}); err == nil || !strings.Contains(err.Error(), "limit") {
		t.Errorf("huge resource: %v", err)
	}
}

// TestToolsServeTheLastGoodCommitMarkedStale: after sync fetched a commit
// that does not verify, read_node and resolve answer from the last commit
// that did, and say so (stale, rejectedCommit, findings); never the
// rejected content (issue 29).
func TestToolsServeTheLastGoodCommitMarkedStale(t *testing.T) {
	f := newFixture(t)
	rejected := f.gh.Publish("acme/handbook", "main", map[string]string{"travel/NODE.md": "no frontmatter: rejected\n"})
	res, err := operations.Sync(context.Background(), f.env, []string{"handbook"}, false)
	if err != nil || res.Connections[0].OK {
		t.Fatalf("sync of a rejected commit: %+v %v", res, err)
	}
	cs := f.connect(t)
	var read contracts.MCPReadResult
	call(t, cs, "read_node", map[string]any{"tree": "handbook", "path": "travel/NODE.md"}, &read)
	want := contracts.Staleness{Stale: true, RejectedCommit: rejected, Findings: 1}
	if read.Tree.Head != f.handbookHead || read.Tree.Staleness != want || !strings.Contains(read.Node.Body, "Book trains") {
		t.Errorf("read_node: %+v", read.Tree)
	}
	var resolved contracts.ResolveResult
	call(t, cs, "resolve", map[string]any{"tree": "handbook"}, &resolved)
	if r := resolved.Resolutions[0]; !r.OK || r.Head != f.handbookHead || r.Staleness != want {
		t.Errorf("resolve: %+v", r)
	}
}

func TestFormerArgumentNamesAreAcceptedWithANote(t *testing.T) {
	f := newFixture(t)
	cs := f.connect(t)
	res := callRaw(t, cs, "resolve", map[string]any{"selector": "handbook"})
	if res.IsError {
		t.Fatalf("resolve with selector: %s", text(res))
	}
	notes, _ := res.Meta["deprecations"].([]any)
	if len(notes) != 1 || !strings.Contains(notes[0].(string), `"selector" is now "tree"`) {
		t.Errorf("deprecations: %v", res.Meta)
	}
	if now := callRaw(t, cs, "resolve", map[string]any{"tree": "handbook"}); now.Meta["deprecations"] != nil {
		t.Errorf("the current name has a note: %v", now.Meta)
	}
	if code := toolError(t, cs, "read_node", map[string]any{"tree": "docs", "node": "guide", "path": "guide"}); code != string(contracts.CodeUsage) {
		t.Errorf("both names: %s, want USAGE", code)
	}
}
