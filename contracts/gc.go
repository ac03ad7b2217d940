package contracts

// GCResult is the result of `gc`: what pruning old snapshots and
// compacting caches freed, per cached repository.
type GCResult struct {
	SchemaVersion int `json:"schemaVersion"`
	GCReport
}

// GCReport is what one pruning pass did; `sync` reports it as "prune"
// when it pruned (--prune, or automatically).
type GCReport struct {
	Repositories     []GCRepository `json:"repositories"`
	SnapshotsRemoved int            `json:"snapshotsRemoved"`
	BytesFreed       int64          `json:"bytesFreed"`
}

// GCRepository is one repository after pruning. Removed lists the commits
// whose snapshots were deleted; Kept counts old snapshots kept because an
// open write session works from them or they were used within the grace
// period; Snapshots is how many are left (the newest of each branch
// included). A repository that could not be pruned has Error instead.
type GCRepository struct {
	Repository string   `json:"repository"`
	Removed    []string `json:"removed"`
	Kept       int      `json:"kept"`
	Snapshots  int      `json:"snapshots"`
	BytesFreed int64    `json:"bytesFreed"`
	Error      *Error   `json:"error,omitempty"`
}

// ExitCode is 1 when any repository could not be pruned.
func (r *GCResult) ExitCode() int { return exitIf(r.GCReport.failed()) }

func (r *GCReport) failed() bool {
	if r == nil {
		return false
	}
	for _, repo := range r.Repositories {
		if repo.Error != nil {
			return true
		}
	}
	return false
}
