package mcp

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/git-context-tree/git-context-tree/internal/adapters/git"
	"github.com/git-context-tree/git-context-tree/internal/adapters/state"
	"github.com/git-context-tree/git-context-tree/internal/operations"
	"github.com/git-context-tree/git-context-tree/internal/schematest"
	"github.com/git-context-tree/git-context-tree/internal/sources"
	"github.com/git-context-tree/git-context-tree/internal/testutil/fakegithub"
)

// fixture is a project declaring three trees: the directory docs (with a
// symlink, infrastructure, a large document and several children), the
// git source acme/handbook (synced: read from its snapshot) and
// acme/never (declared, never synced).
type fixture struct {
	project, docs, outside string
	handbookHead           string
	env                    operations.Env
	gh                     *fakegithub.GitHub
}

func doc(title, body string) string { return "---\ntitle: " + title + "\n---\n" + body }

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func newFixture(t *testing.T) *fixture {
	gh := fakegithub.New(t)
	t.Setenv("CONTEXT_TREE_HOME", filepath.Join(t.TempDir(), "state"))
	f := &fixture{project: t.TempDir(), outside: t.TempDir(), gh: gh}
	f.project, _ = filepath.EvalSymlinks(f.project)
	f.docs = filepath.Join(f.project, "docs")
	gh.Git(f.project, "init", "-q")
	writeFile(t, filepath.Join(f.project, ".context-tree.json"), `{"schemaVersion":3,"trees":[
  {"kind":"directory","path":"docs"},
  {"kind":"git","repository":"acme/handbook","path":".","ref":"main"},
  {"kind":"git","repository":"acme/never","path":".","ref":"main"}]}`)
	files := map[string]string{
		"NODE.md":             "---\nschemaVersion: 1\ntitle: Docs\n---\nThe project's knowledge.\n",
		"guide/NODE.md":       doc("Guide", "How we work.\n"),
		"guide/deploy.md":     doc("Deploy", "Intro.\n\nWe ship with canary releases.\n"),
		"guide/review.md":     doc("Review", "Reviews are short.\n"),
		"guide/oncall.md":     doc("Oncall", "Pages go to the rota.\n"),
		"big.md":              doc("Big", strings.Repeat("filler line of the big document\n", 4000)),
		".hidden/NODE.md":     doc("Hidden canary", "canary\n"),
		"AGENTS.md":           doc("Agents", "canary\n"),
		"members/ann/NODE.md": doc("Ann", "Ann's notes on canary rollouts.\n"),
		"members/NODE.md":     doc("Members", "People.\n"),
	}
	for rel, text := range files {
		writeFile(t, filepath.Join(f.docs, rel), text)
	}
	writeFile(t, filepath.Join(f.outside, "secret.md"), doc("Secret canary", "canary outside the tree\n"))
	if err := os.Symlink(filepath.Join(f.outside, "secret.md"), filepath.Join(f.docs, "linked.md")); err != nil {
		t.Fatal(err)
	}
	gh.Git(f.project, "add", "-A")
	gh.Git(f.project, "commit", "-q", "-m", "docs")
	f.handbookHead = gh.Publish("acme/handbook", "main", map[string]string{
		"NODE.md":        "---\nschemaVersion: 1\ntitle: Handbook\n---\nCompany handbook.\n",
		"travel/NODE.md": doc("Travel", "Book trains, not planes; canary islands excepted.\n"),
	})
	home, err := state.Locate(os.Environ(), "")
	if err != nil {
		t.Fatal(err)
	}
	f.env = operations.Env{Dir: f.project, Vars: os.Environ(), Git: git.New(os.Environ()), Home: home}
	res, err := operations.Sync(context.Background(), f.env, []string{"handbook"}, false)
	if err != nil || len(res.Connections) != 1 || !res.Connections[0].OK {
		t.Fatalf("sync: %+v %v", res, err)
	}
	return f
}

// connect starts the server on an in-memory transport and returns a
// client session.
func (f *fixture) connect(t *testing.T) *sdk.ClientSession {
	t.Helper()
	ctx := context.Background()
	env := f.env
	env.Resolved = sources.NewResolveCache()
	t.Cleanup(env.Resolved.Close)
	srv, err := New(env, "test")
	if err != nil {
		t.Fatal(err)
	}
	ct, st := sdk.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ss.Close() })
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

// call calls a tool, fails the test on a tool error, validates the
// structured result against the tool's contract (with the CLI's validator)
// and against the advertised output schema (with the SDK's), and decodes
// it into out.
func call(t *testing.T, cs *sdk.ClientSession, tool string, args map[string]any, out any) {
	t.Helper()
	res := callRaw(t, cs, tool, args)
	if res.IsError {
		t.Fatalf("%s %v: tool error %s", tool, args, text(res))
	}
	b, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	checkSchemas(t, cs, tool, b)
	if err := json.Unmarshal(b, out); err != nil {
		t.Fatal(err)
	}
}

func callRaw(t *testing.T, cs *sdk.ClientSession, tool string, args map[string]any) *sdk.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	return res
}

// toolError calls a tool that must fail and returns the error code of the
// envelope it carries.
func toolError(t *testing.T, cs *sdk.ClientSession, tool string, args map[string]any) string {
	t.Helper()
	res := callRaw(t, cs, tool, args)
	if !res.IsError {
		t.Fatalf("%s %v succeeded: %s", tool, args, text(res))
	}
	var env struct {
		OK    *bool `json:"ok"`
		Error struct {
			Code string `json:"code"`
		} `json:"error"`
	}
	if err := json.Unmarshal([]byte(text(res)), &env); err != nil || env.OK == nil || *env.OK {
		t.Fatalf("%s: not an error envelope: %s", tool, text(res))
	}
	v, _ := schematest.New()
	if err := v.Validate("error", []byte(text(res))); err != nil {
		t.Errorf("%s error envelope: %v", tool, err)
	}
	return env.Error.Code
}

func text(res *sdk.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return strings.Join(parts, "\n")
}

func checkSchemas(t *testing.T, cs *sdk.ClientSession, tool string, b []byte) {
	t.Helper()
	name := schemaName(tool, "")
	if tool == "resolve" {
		name = "resolve"
	}
	v, err := schematest.New()
	if err != nil {
		t.Fatal(err)
	}
	if err := v.Validate(name, b); err != nil {
		t.Errorf("%s result does not match %s: %v\n%s", tool, name, err, b)
	}
	tools, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tl := range tools.Tools {
		if tl.Name != tool {
			continue
		}
		sb, _ := json.Marshal(tl.OutputSchema)
		var s jsonschema.Schema
		if err := json.Unmarshal(sb, &s); err != nil {
			t.Fatal(err)
		}
		rs, err := s.Resolve(nil)
		if err != nil {
			t.Fatalf("%s advertised output schema does not resolve alone: %v", tool, err)
		}
		var inst any
		_ = json.Unmarshal(b, &inst)
		if err := rs.Validate(inst); err != nil {
			t.Errorf("%s result does not match its advertised output schema: %v", tool, err)
		}
	}
}
