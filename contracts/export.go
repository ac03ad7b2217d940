package contracts

// Export error codes.
const (
	// CodeCtxfileConfigInvalid: .ctxfile.json cannot be read or its
	// export.include names an unknown section.
	CodeCtxfileConfigInvalid ErrorCode = "CTXFILE_CONFIG_INVALID"
)

// ExportFile is one file an export wrote (or, with --check, compared).
type ExportFile struct {
	Path   string `json:"path"` // absolute
	Bytes  int    `json:"bytes"`
	Tokens int    `json:"tokens,omitempty"`
	// Unchanged: the file already held these bytes (or, for context.json,
	// differed only in generated_at) and was left alone.
	Unchanged bool `json:"unchanged,omitempty"`
}

// ExportedDocument is one document of an export.
type ExportedDocument struct {
	Path       string `json:"path"` // tree-relative
	Title      string `json:"title"`
	Class      Class  `json:"class"`
	Tokens     int    `json:"tokens"`
	Redactions int    `json:"redactions"`
	// Included is false for a document --max-tokens left out of
	// llms-full.txt.
	Included bool `json:"included"`
}

// SkippedDocument is a document an export could not read.
type SkippedDocument struct {
	Path   string `json:"path"`
	Reason string `json:"reason"`
}

// ExportLLMSResult is the result of `export llms`.
type ExportLLMSResult struct {
	SchemaVersion int                `json:"schemaVersion"`
	Tree          TreeRef            `json:"tree"`
	OutputDir     string             `json:"outputDir"`
	Encoding      string             `json:"encoding"`
	BaseURL       string             `json:"baseUrl,omitempty"`
	MaxTokens     int                `json:"maxTokens,omitempty"`
	Files         []ExportFile       `json:"files"`
	TotalTokens   int                `json:"totalTokens"` // of llms-full.txt
	Documents     []ExportedDocument `json:"documents"`
	Omitted       []string           `json:"omitted,omitempty"`
	Skipped       []SkippedDocument  `json:"skipped,omitempty"`
}

// ExportCtxfileResult is the result of `export ctxfile`. With --check,
// Fresh says whether the file on disk matches the trees (exit 1 when not);
// with --stdout, Envelope carries the envelope instead of Files.
type ExportCtxfileResult struct {
	SchemaVersion int               `json:"schemaVersion"`
	ProjectRoot   string            `json:"projectRoot"`
	Profile       string            `json:"profile"`
	Encoding      string            `json:"encoding"`
	Sections      []string          `json:"sections"`
	Trees         []TreeRef         `json:"trees"`
	Documents     int               `json:"documents"`
	Tokens        int               `json:"tokens"`
	Redactions    int               `json:"redactions"`
	Files         []ExportFile      `json:"files,omitempty"`
	Check         bool              `json:"check,omitempty"`
	Fresh         *bool             `json:"fresh,omitempty"`
	Differences   []string          `json:"differences,omitempty"`
	Warnings      []string          `json:"warnings,omitempty"`
	Skipped       []SkippedDocument `json:"skipped,omitempty"`
	Envelope      *CtxfileEnvelope  `json:"envelope,omitempty"`
	// Staged: --stage added the written files to git's index.
	Staged bool `json:"staged,omitempty"`
	// AgentContext is the README section the .ctxfile convention asks a
	// producer to advertise, given when the envelope is first written (it
	// is never written into the README: that file is the user's).
	AgentContext string `json:"agentContext,omitempty"`
}

// CtxfileAgentContext is that section.
const CtxfileAgentContext = `## Agent context

This repo ships machine-readable working context via the
[.ctxfile convention](https://ctxfile.dev/convention).
Agents: read ` + "`.ctxfile/context.json`" + ` before asking humans to re-explain.
`

// ExitCode is 1 when --check found the envelope stale.
func (r *ExportCtxfileResult) ExitCode() int { return exitIf(r.Fresh != nil && !*r.Fresh) }

// Site export and preview error codes.
const (
	// CodeSiteOutputForeign: the output directory of `export site` is not
	// empty and holds no previous site export (its marker file), or is not
	// a directory. Nothing is written: the export replaces the whole
	// directory and must never delete what someone else put there.
	CodeSiteOutputForeign ErrorCode = "SITE_OUTPUT_FOREIGN"
)

// ExportSiteResult is the result of `export site`.
type ExportSiteResult struct {
	SchemaVersion int     `json:"schemaVersion"`
	Tree          TreeRef `json:"tree"`
	OutputDir     string  `json:"outputDir"` // absolute
	// Replaced: the output directory held a previous export, now replaced.
	Replaced    bool              `json:"replaced"`
	Files       int               `json:"files"`
	Bytes       int64             `json:"bytes"`
	GeneratedAt string            `json:"generatedAt"` // RFC 3339, SOURCE_DATE_EPOCH when set
	Pages       []SitePage        `json:"pages"`
	Skipped     []SkippedDocument `json:"skipped,omitempty"`
}

// SitePage is one document's page in a site export.
type SitePage struct {
	Path  string `json:"path"` // the document, tree-relative
	Page  string `json:"page"` // its page, site-relative
	Title string `json:"title"`
	Class Class  `json:"class"`
	// SoftLinks are the documents its soft links name; Backlinks the
	// documents whose soft links or Markdown links point at it.
	SoftLinks []string `json:"softLinks"`
	Backlinks []string `json:"backlinks"`
}

// ServeResult is what `serve --json` prints once the site is served.
type ServeResult struct {
	SchemaVersion int     `json:"schemaVersion"`
	URL           string  `json:"url"`
	Tree          TreeRef `json:"tree"`
	Pages         int     `json:"pages"`
}
