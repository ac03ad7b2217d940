package test

// The SARIF logs of drift and verify against the SARIF 2.1.0 JSON Schema
// (OASIS; the final schema as published in the npm package
// @microsoft/jest-sarif, which .ci/run fetches and names in
// GCT_SARIF_SCHEMA). Without it the test is skipped, or fails when
// GCT_REQUIRE_SARIF_SCHEMA=1.

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

func TestSARIFMatchesTheSchema(t *testing.T) {
	file := os.Getenv("GCT_SARIF_SCHEMA")
	if file == "" {
		if os.Getenv("GCT_REQUIRE_SARIF_SCHEMA") == "1" {
			t.Fatal("GCT_REQUIRE_SARIF_SCHEMA=1 but GCT_SARIF_SCHEMA names no schema file")
		}
		t.Skip("skipping SARIF schema validation: set GCT_SARIF_SCHEMA to the SARIF 2.1.0 JSON Schema")
	}
	schema := compileSARIF(t, file)
	if schema.Validate(map[string]any{"version": "2.1.0", "runs": []any{map[string]any{"results": []any{}}}}) == nil {
		t.Fatal("the schema accepts a run without a tool: not the SARIF schema")
	}
	bin := buildProduct(t)
	prog := filepath.Join(bin, "git-context-tree")
	e := newClientEnv(t, bin)
	repo := newTreeRepo(t, e, map[string]string{
		"docs/ctx/api.md": "---\ntitle: API\nsources:\n  - path: src/api.go\n    lines: 2-4\n  - path: src/gone.go\n---\n\nThe API.\n",
		"src/api.go":      "one\ntwo\nthree\nfour\nfive\n",
		"src/gone.go":     "gone\n",
	})
	e.must(repo, "git", "add", "-A")
	e.must(repo, "git", "commit", "-q", "-m", "tree")
	e.must(repo, prog, "evidence", "stamp", "docs/ctx/api.md")
	e.must(repo, "git", "commit", "-q", "-a", "-m", "stamped")
	writeFile(t, filepath.Join(repo, "src/api.go"), "one\ntwo\nTHREE\nfour\nfive\n")
	e.must(repo, "git", "rm", "-q", "src/gone.go")
	e.must(repo, "git", "commit", "-q", "-a", "-m", "change")
	writeFile(t, filepath.Join(repo, "docs/ctx/bad.md"), "---\ntitle: Bad\nsoft_links: [missing]\n---\n\nBroken.\n")

	for _, args := range [][]string{{"drift", "--format", "sarif"}, {"verify", "--format", "sarif"}} {
		cmd := exec.Command(prog, args...)
		cmd.Dir, cmd.Env = repo, e.env
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.ExitCode() != 1 {
			t.Fatalf("%v: %v, want exit 1\n%s", args, err, stderr.String())
		}
		var doc any
		if err := json.Unmarshal(out, &doc); err != nil {
			t.Fatalf("%v: not one JSON document: %v\n%s", args, err, out)
		}
		if err := schema.Validate(doc); err != nil {
			t.Errorf("%v: does not match the SARIF 2.1.0 schema: %v\n%s", args, err, out)
		}
		var log struct {
			Runs []struct {
				Results []struct {
					Locations []struct {
						PhysicalLocation struct {
							ArtifactLocation struct{ URI string } `json:"artifactLocation"`
						} `json:"physicalLocation"`
					} `json:"locations"`
				} `json:"results"`
			} `json:"runs"`
		}
		if err := json.Unmarshal(out, &log); err != nil || len(log.Runs) != 1 || len(log.Runs[0].Results) == 0 {
			t.Fatalf("%v: no results: %v\n%s", args, err, out)
		}
		uri := log.Runs[0].Results[0].Locations[0].PhysicalLocation.ArtifactLocation.URI
		if want := map[string]string{"drift": "src/api.go", "verify": "docs/ctx/bad.md"}[args[0]]; uri != want {
			t.Errorf("%v: first location %q, want the repository-relative %q", args, uri, want)
		}
		if strings.Contains(string(out), "schemaVersion") {
			t.Errorf("%v: a contract key in the SARIF log:\n%s", args, out)
		}
	}
}

func compileSARIF(t *testing.T, file string) *jsonschema.Schema {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("sarif-2.1.0.json", doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile("sarif-2.1.0.json")
	if err != nil {
		t.Fatal(err)
	}
	return s
}
