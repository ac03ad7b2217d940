package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/redact"
)

// maxArgumentBytes bounds a tool call's arguments; every argument the
// tools take is a short string or a number.
const maxArgumentBytes = 16 << 10

// toolSpec describes one tool: its name, what it does for the model, the
// contract its result follows, and the function that computes it.
type toolSpec[In, Out any] struct {
	name, description, result string
	run                       func(context.Context, In) (Out, error)
	// renamed maps an argument's former name to its name (one vocabulary
	// across tools: tree, path): the former is accepted for one release,
	// and the result's _meta says so.
	renamed map[string]string
}

// schemaName is the contract name of a tool's arguments or result
// ("read_node" → "mcp-read-node-input").
func schemaName(tool, suffix string) string {
	return "mcp-" + strings.ReplaceAll(tool, "_", "-") + suffix
}

// addTool registers a read-only tool whose argument and result schemas are
// the contracts' (served bundled, so a client resolves them alone). Bad
// arguments and failures are tool errors carrying the CLI's error
// envelope as text, never protocol failures or crashes.
func addTool[In, Out any](srv *sdk.Server, t toolSpec[In, Out]) error {
	in, ok := contracts.BundledSchema(schemaName(t.name, "-input"))
	if !ok {
		return fmt.Errorf("tool %s: no input schema", t.name)
	}
	out, ok := contracts.BundledSchema(t.result)
	if !ok {
		return fmt.Errorf("tool %s: no result schema %s", t.name, t.result)
	}
	validator, err := resolve(in)
	if err != nil {
		return fmt.Errorf("tool %s: input schema: %w", t.name, err)
	}
	closed := false
	srv.AddTool(&sdk.Tool{
		Name: t.name, Description: t.description, InputSchema: in, OutputSchema: out,
		Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: &closed},
	}, func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		raw, notes, err := renameArgs(req.Params.Arguments, t.renamed, t.name)
		if err != nil {
			return errorResult(err), nil
		}
		args, err := decodeArgs[In](validator, raw)
		if err != nil {
			return errorResult(err), nil
		}
		res, err := t.run(ctx, args)
		if err != nil {
			return errorResult(err), nil
		}
		out, err := structured(res)
		if err == nil && len(notes) > 0 {
			out.Meta = sdk.Meta{"deprecations": notes}
			out.Content = append(out.Content, &sdk.TextContent{Text: "deprecated: " + strings.Join(notes, "; ")})
		}
		return out, err
	})
	return nil
}

// renameArgs rewrites former argument names to their names, with a note
// for each; a call naming both is refused.
func renameArgs(raw json.RawMessage, renamed map[string]string, tool string) (json.RawMessage, []string, error) {
	if len(renamed) == 0 || len(raw) == 0 || len(raw) > maxArgumentBytes {
		return raw, nil, nil
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return raw, nil, nil // decodeArgs says what is wrong
	}
	var notes []string
	for old, name := range renamed {
		v, ok := m[old]
		if !ok {
			continue
		}
		if _, both := m[name]; both {
			return nil, nil, contracts.Errorf(contracts.CodeUsage, "%s: give %s only (%s is its former name)", tool, name, old)
		}
		delete(m, old)
		m[name] = v
		notes = append(notes, fmt.Sprintf("%s: the argument %q is now %q; the old name is accepted until the next release", tool, old, name))
	}
	if len(notes) == 0 {
		return raw, nil, nil
	}
	out, err := json.Marshal(m)
	return out, notes, err
}

// resolve prepares a schema for validation with the SDK's validator.
func resolve(doc map[string]any) (*jsonschema.Resolved, error) {
	b, err := json.Marshal(doc)
	if err != nil {
		return nil, err
	}
	var s jsonschema.Schema
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, err
	}
	return s.Resolve(nil)
}

// decodeArgs checks a call's arguments against the tool's schema, then
// decodes them.
func decodeArgs[In any](v *jsonschema.Resolved, raw json.RawMessage) (In, error) {
	var in In
	if len(raw) > maxArgumentBytes {
		return in, contracts.Errorf(contracts.CodeUsage, "the arguments are %d bytes; the limit is %d", len(raw), maxArgumentBytes)
	}
	if len(raw) == 0 || string(raw) == "null" {
		raw = json.RawMessage("{}")
	}
	var generic any
	if err := json.Unmarshal(raw, &generic); err != nil {
		return in, contracts.Errorf(contracts.CodeUsage, "the arguments are not JSON: %v", err)
	}
	if err := v.Validate(generic); err != nil {
		return in, contracts.Errorf(contracts.CodeUsage, "invalid arguments: %v", err)
	}
	if err := json.Unmarshal(raw, &in); err != nil {
		return in, contracts.Errorf(contracts.CodeUsage, "invalid arguments: %v", err)
	}
	return in, nil
}

// structured is a successful result: the contract JSON, redacted like all
// CLI output, as structured content and as text for clients that show
// only text.
func structured(v any) (*sdk.CallToolResult, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("encode result: %w", err)
	}
	b = redact.JSON(b)
	return &sdk.CallToolResult{StructuredContent: json.RawMessage(b), Content: []sdk.Content{&sdk.TextContent{Text: string(b)}}}, nil
}

// errorResult is a failed call: the CLI's error envelope (stable code,
// message, details) as the text of a tool error, so the model sees why.
func errorResult(err error) *sdk.CallToolResult {
	var ce *contracts.Error
	if !errors.As(err, &ce) {
		ce = contracts.Errorf(contracts.CodeInternal, "%v", err)
	}
	b, mErr := json.Marshal(contracts.ErrorEnvelope{SchemaVersion: contracts.CLIVersion, Error: ce})
	if mErr != nil {
		b = []byte(fmt.Sprintf(`{"schemaVersion":3,"ok":false,"error":{"code":"INTERNAL","message":%q}}`, mErr.Error()))
	}
	return &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: string(redact.JSON(b))}}}
}
