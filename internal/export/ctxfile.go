package export

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path"
	"slices"
	"time"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/redact"
)

// Sections is what an envelope of profile lists, as the convention's
// producer does (repo-safe lists plan even though it is null): inGit says
// whether a gitState exists; include is the custom profile's allowlist.
func Sections(profile string, include []string, inGit bool) ([]string, error) {
	var want []string
	switch profile {
	case "", contracts.ProfileRepoSafe:
		want = []string{contracts.SectionPlan, contracts.SectionGitState, contracts.SectionKeyFiles}
	case contracts.ProfileFull:
		want = []string{contracts.SectionPlan, contracts.SectionGitState, contracts.SectionKeyFiles, contracts.SectionKeyFileContent,
			contracts.SectionNotionPages, contracts.SectionSessionSummary}
	case contracts.ProfileCustom:
		for _, s := range include {
			if !slices.Contains(contracts.CtxfileSections, s) {
				return nil, contracts.Errorf(contracts.CodeCtxfileConfigInvalid, ".ctxfile.json export.include names %q, which is no section of the .ctxfile convention (%v)", s, contracts.CtxfileSections)
			}
		}
		want = include
	default:
		return nil, contracts.Errorf(contracts.CodeUsage, "unknown profile %q; use repo-safe, full or custom", profile)
	}
	out := []string{}
	for _, s := range contracts.CtxfileSections {
		if slices.Contains(want, s) && (s != contracts.SectionGitState || inGit) {
			out = append(out, s)
		}
	}
	return out, nil
}

// CtxfileTree is one tree's part of an envelope.
type CtxfileTree struct {
	Meta contracts.CtxfileTree
	// Prefix turns a tree path into a keyFiles path ("" or "docs/context").
	Prefix string
	Docs   []Document
}

// CtxfileInput is everything an envelope says.
type CtxfileInput struct {
	Profile     string
	Sections    []string
	ToolVersion string
	Encoding    string
	GeneratedAt time.Time
	SnapshotAt  time.Time
	GitSHA      string // "" outside git or on an unborn branch
	RootName    string
	Trees       []CtxfileTree
	GitState    *contracts.CtxfileGitState
}

// Envelope builds the .ctxfile envelope, schema 1.
func Envelope(in CtxfileInput) contracts.CtxfileEnvelope {
	var sha *string
	if in.GitSHA != "" {
		sha = &in.GitSHA
	}
	env := contracts.CtxfileEnvelope{
		CtxfileSchema:       contracts.CtxfileSchema,
		CtxfileVersion:      in.ToolVersion,
		Profile:             in.Profile,
		GeneratedAt:         Timestamp(in.GeneratedAt),
		SnapshotGeneratedAt: Timestamp(in.SnapshotAt),
		GitSHA:              sha,
		RootName:            in.RootName,
		Sections:            slices.Clone(in.Sections),
		Context: contracts.CtxfileContext{Meta: contracts.CtxfileMeta{
			Tool: "git-context-tree", ToolVersion: in.ToolVersion, Encoding: in.Encoding,
			Trees: []contracts.CtxfileTree{}, Commit: sha,
		}, KeyFiles: []contracts.CtxfileKeyFile{}, NotionPages: []any{}},
	}
	if env.Sections == nil {
		env.Sections = []string{}
	}
	var files []contracts.CtxfileKeyFile
	for _, t := range in.Trees {
		m := t.Meta
		m.Documents, m.Tokens = len(t.Docs), 0
		for _, d := range ExportOrder(t.Docs) {
			m.Tokens += d.Tokens
			kf := contracts.CtxfileKeyFile{Path: path.Join(t.Prefix, d.Path), Tree: m.Selector, Title: d.Title,
				Class: d.Class, Tokens: d.Tokens, Redactions: d.Redactions}
			if slices.Contains(in.Sections, contracts.SectionKeyFileContent) {
				body := d.Body
				kf.Content = &body
			}
			files = append(files, kf)
		}
		if m.Dirty != nil && *m.Dirty {
			env.Context.Meta.Dirty = true
		}
		env.Context.Meta.Trees = append(env.Context.Meta.Trees, m)
	}
	if slices.Contains(in.Sections, contracts.SectionKeyFiles) && files != nil {
		env.Context.KeyFiles = files
	}
	if slices.Contains(in.Sections, contracts.SectionGitState) {
		env.Context.GitState = in.GitState
	}
	return env
}

// Timestamp is the convention's time format: UTC, milliseconds, "Z".
func Timestamp(t time.Time) string {
	return t.UTC().Format("2006-01-02T15:04:05.000Z")
}

// MarshalEnvelope is the envelope as context.json: two-space indentation,
// a final newline, and no HTML escaping, so Markdown bodies read as written.
// Every string passes the redactor, paths, branch and names included (the
// documents' texts already did, and were counted, in Prepare).
func MarshalEnvelope(env contracts.CtxfileEnvelope) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(env); err != nil {
		return nil, fmt.Errorf("encode the ctxfile envelope: %w", err)
	}
	return redact.JSON(buf.Bytes()), nil
}

// Redacted is the envelope as context.json holds it: every string
// redacted. Comparisons and the render start from it, so what is compared
// or rendered is what was written.
func Redacted(env contracts.CtxfileEnvelope) (contracts.CtxfileEnvelope, error) {
	data, err := MarshalEnvelope(env)
	if err != nil {
		return env, err
	}
	var out contracts.CtxfileEnvelope
	if err := json.Unmarshal(data, &out); err != nil {
		return env, fmt.Errorf("decode the redacted ctxfile envelope: %w", err)
	}
	return out, nil
}
