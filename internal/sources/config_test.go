package sources

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/schematest"
)

func TestParseConfigValid(t *testing.T) {
	data := []byte(`{"schemaVersion":3,"trees":[
		{"kind":"directory","path":"docs/context"},
		{"kind":"directory","path":"/srv/trees/team"},
		{"kind":"directory","path":"."},
		{"kind":"git","repository":"Acme/Handbook","path":".","ref":"main"},
		{"kind":"git","repository":"acme/handbook","path":"teams/platform","ref":"feature/x"}]}`)
	cfg, err := ParseConfig("cfg.json", data)
	if err != nil {
		t.Fatal(err)
	}
	want := []contracts.Source{
		{Kind: "directory", Path: "docs/context"},
		{Kind: "directory", Path: "/srv/trees/team"},
		{Kind: "directory", Path: "."},
		{Kind: "git", Repository: "Acme/Handbook", Path: ".", Ref: "main"},
		{Kind: "git", Repository: "acme/handbook", Path: "teams/platform", Ref: "feature/x"},
	}
	if diff := cmp.Diff(want, cfg.Trees); diff != "" {
		t.Errorf("trees (-want +got):\n%s", diff)
	}
	v, err := schematest.New()
	if err != nil {
		t.Fatal(err)
	}
	if err := v.Validate("config", MarshalConfig(cfg)); err != nil {
		t.Errorf("marshalled config: %v", err)
	}
}

func TestParseConfigInvalid(t *testing.T) {
	tests := []struct {
		name, data, pointer string
	}{
		{"not json", `{"schemaVersion":3,`, ""},
		{"bom", "\xef\xbb\xbf{\"schemaVersion\":3,\"trees\":[]}", ""},
		{"trailing garbage", `{"schemaVersion":3,"trees":[]} x`, ""},
		{"two values", `{"schemaVersion":3,"trees":[]}{}`, ""},
		{"array", `[]`, ""},
		{"unknown top key", `{"schemaVersion":3,"trees":[],"aliases":{}}`, "/aliases"},
		{"missing version", `{"trees":[]}`, "/schemaVersion"},
		{"old version", `{"schemaVersion":2,"trees":[]}`, "/schemaVersion"},
		{"string version", `{"schemaVersion":"3","trees":[]}`, "/schemaVersion"},
		{"float version", `{"schemaVersion":3.0,"trees":[]}`, "/schemaVersion"},
		{"missing trees", `{"schemaVersion":3}`, "/trees"},
		{"trees object", `{"schemaVersion":3,"trees":{}}`, "/trees"},
		{"duplicate key", `{"schemaVersion":3,"trees":[],"trees":[]}`, "/trees"},
		{"source not object", `{"schemaVersion":3,"trees":["docs"]}`, "/trees/0"},
		{"unknown kind", `{"schemaVersion":3,"trees":[{"kind":"svn","path":"x"}]}`, "/trees/0/kind"},
		{"missing kind", `{"schemaVersion":3,"trees":[{"path":"x"}]}`, "/trees/0/kind"},
		{"unknown source key", `{"schemaVersion":3,"trees":[{"kind":"directory","path":"x","alias":"y"}]}`, "/trees/0/alias"},
		{"ref on directory", `{"schemaVersion":3,"trees":[{"kind":"directory","path":"x","ref":"main"}]}`, "/trees/0/ref"},
		{"git without ref", `{"schemaVersion":3,"trees":[{"kind":"git","repository":"a/b","path":"."}]}`, "/trees/0/ref"},
		{"git without path", `{"schemaVersion":3,"trees":[{"kind":"git","repository":"a/b","ref":"main"}]}`, "/trees/0/path"},
		{"dotdot", `{"schemaVersion":3,"trees":[{"kind":"directory","path":"../x"}]}`, "/trees/0/path"},
		{"inner dotdot", `{"schemaVersion":3,"trees":[{"kind":"git","repository":"a/b","path":"a/../b","ref":"main"}]}`, "/trees/0/path"},
		{"dot git", `{"schemaVersion":3,"trees":[{"kind":"git","repository":"a/b","path":"x/.git","ref":"main"}]}`, "/trees/0/path"},
		{"dot segment", `{"schemaVersion":3,"trees":[{"kind":"directory","path":"./docs"}]}`, "/trees/0/path"},
		{"empty segment", `{"schemaVersion":3,"trees":[{"kind":"directory","path":"a//b"}]}`, "/trees/0/path"},
		{"trailing slash", `{"schemaVersion":3,"trees":[{"kind":"directory","path":"docs/"}]}`, "/trees/0/path"},
		{"backslash", `{"schemaVersion":3,"trees":[{"kind":"directory","path":"a\\b"}]}`, "/trees/0/path"},
		{"leading slash subtree", `{"schemaVersion":3,"trees":[{"kind":"git","repository":"a/b","path":"/docs","ref":"main"}]}`, "/trees/0/path"},
		{"empty path", `{"schemaVersion":3,"trees":[{"kind":"directory","path":""}]}`, "/trees/0/path"},
		{"unclean absolute", `{"schemaVersion":3,"trees":[{"kind":"directory","path":"/srv//x"}]}`, "/trees/0/path"},
		{"absolute through dot git", `{"schemaVersion":3,"trees":[{"kind":"directory","path":"/tmp/x/.git/y"}]}`, "/trees/0/path"},
		{"absolute dot git", `{"schemaVersion":3,"trees":[{"kind":"directory","path":"/tmp/x/.Git"}]}`, "/trees/0/path"},
		{"absolute NUL", `{"schemaVersion":3,"trees":[{"kind":"directory","path":"/tmp/x\u0000y"}]}`, "/trees/0/path"},
		{"url repository", `{"schemaVersion":3,"trees":[{"kind":"git","repository":"https://github.com/a/b","path":".","ref":"main"}]}`, "/trees/0/repository"},
		{"credentials", `{"schemaVersion":3,"trees":[{"kind":"git","repository":"tok@github.com/a/b","path":".","ref":"main"}]}`, "/trees/0/repository"},
		{"git suffix", `{"schemaVersion":3,"trees":[{"kind":"git","repository":"a/b.git","path":".","ref":"main"}]}`, "/trees/0/repository"},
		{"bad ref", `{"schemaVersion":3,"trees":[{"kind":"git","repository":"a/b","path":".","ref":"a..b"}]}`, "/trees/0/ref"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseConfig("cfg.json", []byte(tt.data))
			var ce *contracts.Error
			if !errors.As(err, &ce) || ce.Code != contracts.CodeConfigInvalid {
				t.Fatalf("err = %v, want CONFIG_INVALID", err)
			}
			if got := ce.Details["pointer"]; got != tt.pointer {
				t.Errorf("pointer = %q, want %q (%s)", got, tt.pointer, ce.Message)
			}
			if ce.Details["file"] != "cfg.json" {
				t.Errorf("file = %v", ce.Details["file"])
			}
		})
	}
}

// TestAbsoluteDirectoryPathSegments: an absolute directory path gets the
// .git segment rule relative paths get (S4), in the code and in the
// config schema alike; a name that only looks like .git is fine.
func TestAbsoluteDirectoryPathSegments(t *testing.T) {
	v, err := schematest.New()
	if err != nil {
		t.Fatal(err)
	}
	paths := []string{"/tmp/x/.git/y", "/tmp/x/.git", "/.git", "/srv/.GIT/t", "/srv/x.git", "/srv/.github/t", "/srv/.gitx", "/"}
	want := map[string]bool{"/tmp/x/.git/y": false, "/tmp/x/.git": false, "/.git": false, "/srv/.GIT/t": false,
		"/srv/x.git": true, "/srv/.github/t": true, "/srv/.gitx": true, "/": true}
	code, schema := map[string]bool{}, map[string]bool{}
	for _, p := range paths {
		why := CheckDirectoryPath(p)
		code[p] = why == ""
		if !code[p] && why != CheckSubtree("x/.git") {
			t.Errorf("CheckDirectoryPath(%q) = %q, want the relative paths' %q", p, why, CheckSubtree("x/.git"))
		}
		cfg := &contracts.Config{SchemaVersion: contracts.CLIVersion, Trees: []contracts.Source{{Kind: contracts.SourceDirectory, Path: p}}}
		schema[p] = v.Validate("config", MarshalConfig(cfg)) == nil
	}
	if diff := cmp.Diff(want, code); diff != "" {
		t.Errorf("CheckDirectoryPath accepts (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(want, schema); diff != "" {
		t.Errorf("config schema accepts (-want +got):\n%s", diff)
	}
}

func TestLoadConfigRejectsSymlinkAndDirectory(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "real.json")
	if err := os.WriteFile(real, []byte(`{"schemaVersion":3,"trees":[]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.json")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(dir, "sub.json")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{link, sub} {
		_, err := LoadConfig(name)
		var ce *contracts.Error
		if !errors.As(err, &ce) || ce.Code != contracts.CodeConfigInvalid {
			t.Errorf("LoadConfig(%s) = %v, want CONFIG_INVALID", filepath.Base(name), err)
		}
	}
}

func TestDuplicateIdentities(t *testing.T) {
	root := t.TempDir()
	for _, trees := range [][]contracts.Source{
		{{Kind: "directory", Path: "docs"}, {Kind: "directory", Path: filepath.Join(root, "docs")}},
		{{Kind: "git", Repository: "Acme/X", Path: ".", Ref: "main"}, {Kind: "git", Repository: "acme/x", Path: ".", Ref: "main"}},
	} {
		p := &Project{Root: root, ConfigFile: filepath.Join(root, contracts.ConfigFile), Config: &contracts.Config{SchemaVersion: 3, Trees: trees}}
		_, err := p.Connections()
		var ce *contracts.Error
		if !errors.As(err, &ce) || ce.Code != contracts.CodeConfigInvalid || ce.Details["pointer"] != "/trees/1" {
			t.Errorf("Connections(%v) = %v, want CONFIG_INVALID at /trees/1", trees, err)
		}
	}
	distinct := []contracts.Source{
		{Kind: "git", Repository: "acme/x", Path: ".", Ref: "main"},
		{Kind: "git", Repository: "acme/x", Path: "docs", Ref: "main"},
		{Kind: "git", Repository: "acme/x", Path: ".", Ref: "dev"},
	}
	p := &Project{Root: root, Config: &contracts.Config{SchemaVersion: 3, Trees: distinct}}
	if _, err := p.Connections(); err != nil {
		t.Errorf("distinct subtrees and branches of one repository: %v", err)
	}
}

func TestMarshalConfigStable(t *testing.T) {
	cfg := &contracts.Config{SchemaVersion: 3, Trees: []contracts.Source{
		{Kind: "directory", Path: "docs/<ctx>&"},
		{Kind: "git", Repository: "a/b", Path: ".", Ref: "main"},
	}}
	want := `{
  "schemaVersion": 3,
  "trees": [
    {
      "kind": "directory",
      "path": "docs/<ctx>&"
    },
    {
      "kind": "git",
      "repository": "a/b",
      "path": ".",
      "ref": "main"
    }
  ]
}
`
	if diff := cmp.Diff(want, string(MarshalConfig(cfg))); diff != "" {
		t.Errorf("MarshalConfig (-want +got):\n%s", diff)
	}
	empty := string(MarshalConfig(&contracts.Config{SchemaVersion: 3}))
	if empty != "{\n  \"schemaVersion\": 3,\n  \"trees\": []\n}\n" {
		t.Errorf("empty config = %q", empty)
	}
}

// TestParseConfigSaysWhereTheJSONBreaks: a syntax error names its line
// and column, as an editor numbers them.
func TestParseConfigSaysWhereTheJSONBreaks(t *testing.T) {
	for _, tc := range []struct{ data, where string }{
		{"{\"schemaVersion\": 3,\n  \"trees\": [tru]}", "line 2, column 16"},
		{"{\"schemaVersion\": 3,", "line 1, column 21"},
		{"{,}", "line 1, column 2"},
	} {
		_, err := ParseConfig("c.json", []byte(tc.data))
		if err == nil || !strings.Contains(err.Error(), "not valid JSON at "+tc.where+":") {
			t.Errorf("%q: %v, want %s", tc.data, err, tc.where)
		}
	}
}
