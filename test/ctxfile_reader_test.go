package test

// A reader of .ctxfile/context.json written from the convention's own
// producer types (issue 32), independent of this tool's Go types: what a
// TypeScript reader typed from them dereferences without checking must be
// there with its type. A --json run's envelope is checked by schema; this
// is the other side: would the convention's consumers accept it?

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"

	"github.com/rogpeppe/go-internal/testscript"
)

var ctxfileSections = []string{"plan", "gitState", "keyFiles", "keyFileContent", "notionPages", "sessions", "sessionSummary", "notes", "noteContent"}

var semver = regexp.MustCompile(`^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$`)

// cmdCtxfileReader: `ctxfilereader <file>` fails unless a reader typed
// from the convention accepts the envelope.
func cmdCtxfileReader(ts *testscript.TestScript, neg bool, args []string) {
	noNeg(ts, neg, "ctxfilereader")
	if len(args) != 1 {
		ts.Fatalf("usage: ctxfilereader <file>")
	}
	if err := readCtxfile([]byte(ts.ReadFile(args[0]))); err != nil {
		ts.Fatalf("a .ctxfile reader rejects %s: %v", args[0], err)
	}
}

type obj = map[string]any

func readCtxfile(data []byte) error {
	var env obj
	if err := json.Unmarshal(data, &env); err != nil {
		return err
	}
	for _, k := range []string{"ctxfile_schema", "ctxfile_version", "profile", "generated_at", "snapshot_generated_at", "root_name"} {
		if _, ok := env[k].(string); !ok {
			return fmt.Errorf("%s is not a string", k)
		}
	}
	if !semver.MatchString(env["ctxfile_version"].(string)) {
		return fmt.Errorf("ctxfile_version %q is not a semantic version", env["ctxfile_version"])
	}
	sha, shaOK := env["git_sha"].(string)
	if !shaOK && env["git_sha"] != nil {
		return fmt.Errorf("git_sha is neither a string nor null")
	}
	sections, ok := env["sections"].([]any)
	if !ok {
		return fmt.Errorf("sections is not an array")
	}
	for _, s := range sections {
		if name, _ := s.(string); !slices.Contains(ctxfileSections, name) {
			return fmt.Errorf("section %v is not one of the convention's", s)
		}
	}
	ctx, ok := env["context"].(obj)
	if !ok {
		return fmt.Errorf("context is not an object")
	}
	if _, ok := ctx["meta"].(obj); !ok {
		return fmt.Errorf("context.meta is not an object")
	}
	for _, k := range []string{"plan", "sessionSummary"} {
		v, present := ctx[k]
		if _, isString := v.(string); !present || (v != nil && !isString) {
			return fmt.Errorf("context.%s is not a string or null", k)
		}
	}
	if _, ok := ctx["notionPages"].([]any); !ok {
		return fmt.Errorf("context.notionPages is not an array")
	}
	for _, k := range []string{"sessions", "notes"} {
		if v, present := ctx[k]; present {
			if _, ok := v.([]any); !ok {
				return fmt.Errorf("context.%s is present and not an array", k)
			}
		}
	}
	files, ok := ctx["keyFiles"].([]any)
	if !ok {
		return fmt.Errorf("context.keyFiles is not an array")
	}
	for i, f := range files {
		kf, ok := f.(obj)
		if !ok {
			return fmt.Errorf("keyFiles[%d] is not an object", i)
		}
		if err := typed(kf, fmt.Sprintf("keyFiles[%d]", i), map[string]string{"path": "string", "tokens": "number", "truncated": "bool", "redactions": "number"}); err != nil {
			return err
		}
		if c, present := kf["content"]; present {
			if _, ok := c.(string); !ok {
				return fmt.Errorf("keyFiles[%d].content is not a string", i)
			}
			if !slices.Contains(sections, any("keyFileContent")) {
				return fmt.Errorf("keyFiles[%d] has content but keyFileContent is not a section", i)
			}
		}
	}
	gs, present := ctx["gitState"]
	if !present {
		return fmt.Errorf("context.gitState is absent (null when there is none)")
	}
	if gs == nil {
		return nil
	}
	g, ok := gs.(obj)
	if !ok {
		return fmt.Errorf("gitState is neither null nor an object")
	}
	if b, present := g["branch"]; !present || (b != nil && fmt.Sprintf("%T", b) != "string") {
		return fmt.Errorf("gitState.branch is not a string or null")
	}
	if err := typed(g, "gitState", map[string]string{"ahead": "number", "behind": "number", "staged": "strings", "modified": "strings", "untracked": "strings", "diffSummary": "string"}); err != nil {
		return err
	}
	commits, ok := g["commits"].([]any)
	if !ok {
		return fmt.Errorf("gitState.commits is not an array")
	}
	for i, c := range commits {
		co, ok := c.(obj)
		if !ok {
			return fmt.Errorf("gitState.commits[%d] is not an object", i)
		}
		if err := typed(co, fmt.Sprintf("gitState.commits[%d]", i), map[string]string{"hash": "string", "message": "string", "author": "string"}); err != nil {
			return err
		}
	}
	if shaOK && len(commits) > 0 && commits[0].(obj)["hash"] != sha {
		return fmt.Errorf("git_sha %s is not gitState.commits[0].hash %v", sha, commits[0].(obj)["hash"])
	}
	return nil
}

// typed checks members' JSON types: string, number, bool, or strings (an
// array of strings).
func typed(o obj, where string, want map[string]string) error {
	for k, t := range want {
		v, present := o[k]
		ok := present
		switch t {
		case "string":
			_, ok = v.(string)
		case "number":
			_, ok = v.(float64)
		case "bool":
			_, ok = v.(bool)
		case "strings":
			var arr []any
			if arr, ok = v.([]any); ok {
				for _, s := range arr {
					if _, isString := s.(string); !isString {
						ok = false
					}
				}
			}
		}
		if !ok {
			return fmt.Errorf("%s.%s is not a %s (%v)", where, k, t, v)
		}
	}
	return nil
}
