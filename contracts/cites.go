package contracts

// CitesReport is the result of `cites`: the documents of the declared
// trees whose sources cite the queried code paths, and whether what each
// citation recorded is still true at the head of its repository.
type CitesReport struct {
	SchemaVersion int              `json:"schemaVersion"`
	Queries       []CitesQuery     `json:"queries"`
	Trees         []TreeRef        `json:"trees"`
	Documents     []CitingDocument `json:"documents"`
	NextCursor    string           `json:"nextCursor,omitempty"` // the MCP tool's next page
}

// CitesQuery is one path asked about: repository-relative, with an
// optional line range, in the project's repository or (Repository, a
// declared git source's selector) in that source's.
type CitesQuery struct {
	Path       string `json:"path"`
	Lines      string `json:"lines,omitempty"`
	Repository string `json:"repository,omitempty"`
}

// CitingDocument is one document citing a queried path: Tree is the tree
// it belongs to (commit and dirtiness as every read reports), Path its
// node path in that tree.
type CitingDocument struct {
	Tree        TreeRef    `json:"tree"`
	Path        string     `json:"path"`
	Title       string     `json:"title"`
	Description string     `json:"description,omitempty"`
	Citations   []Citation `json:"citations"`
}

// Freshness of a citation: fresh (nothing changed the cited file or lines
// since the commit the entry records) or one of the drift statuses.
const CitationFresh = "fresh"

// Citation is one sources entry matching a query (Query is its index in
// CitesReport.Queries): what it cites, the commit it records, and its
// freshness at Head with the commits that changed it and where the cited
// code is now (as drift reports them).
type Citation struct {
	Query        int      `json:"query"`
	Index        int      `json:"index"`
	Path         string   `json:"path"`
	Lines        string   `json:"lines,omitempty"`
	Repository   string   `json:"repository,omitempty"`
	Commit       string   `json:"commit,omitempty"`
	Freshness    string   `json:"freshness"`
	Head         string   `json:"head,omitempty"`
	Commits      []string `json:"commits"`
	CurrentPath  string   `json:"currentPath,omitempty"`
	CurrentLines string   `json:"currentLines,omitempty"`
	Message      string   `json:"message,omitempty"`
}

// CodePathOutsideRepository: a path given to cites lies outside the
// repository it is taken in.
const CodePathOutsideRepository ErrorCode = "PATH_OUTSIDE_REPOSITORY"
