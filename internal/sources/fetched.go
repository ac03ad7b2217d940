package sources

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// When each branch of a repository was last fetched is remembered in
// fetched/<owner>/<name>.json (a directory of its own: repos/ holds only
// caches), a JSON object from branch to {at, commit}: when the successful
// fetch began (so the age reported is never younger than upstream's view)
// and the tip it brought. write prepare reports from it how old its
// snapshot's view of upstream is (issue 13); git keeps no such time
// itself, since the cache writes no FETCH_HEAD and no reflog. The file is
// replaced atomically under the repository lock. Failing to write or read
// it only makes the age unknown, which prepare reports as stale.

// FetchRecord is the last successful fetch of one branch.
type FetchRecord struct {
	At     time.Time `json:"at"`
	Commit string    `json:"commit"`
}

func (m *Managed) fetchedFile(repository string) (dir, name string, err error) {
	owner, repo := splitRepository(repository)
	dir, err = m.Home.Dir("fetched", owner)
	return dir, repo + ".json", err
}

func (m *Managed) loadFetched(repository string) map[string]FetchRecord {
	records := map[string]FetchRecord{}
	dir, name, err := m.fetchedFile(repository)
	if err != nil {
		return records
	}
	if data, err := os.ReadFile(filepath.Join(dir, name)); err == nil {
		_ = json.Unmarshal(data, &records) // damaged: every age unknown until the next fetch
	}
	return records
}

// recordFetch remembers a successful fetch of branch. The caller holds the
// repository lock, so read-modify-write loses no other branch's record.
func (m *Managed) recordFetch(repository, branch, commit string, at time.Time) {
	records := m.loadFetched(repository)
	records[branch] = FetchRecord{At: at.UTC(), Commit: commit}
	data, err := json.MarshalIndent(records, "", "  ")
	if err != nil {
		return
	}
	dir, name, err := m.fetchedFile(repository)
	if err != nil {
		return
	}
	_ = m.Home.WriteFile(dir, name, append(data, '\n'))
}

// LastFetch returns the last successful fetch of a repository's branch on
// this machine, ok false when none is known.
func (m *Managed) LastFetch(repository, branch string) (rec FetchRecord, ok bool) {
	rec, ok = m.loadFetched(strings.ToLower(repository))[branch]
	return rec, ok && !rec.At.IsZero()
}
