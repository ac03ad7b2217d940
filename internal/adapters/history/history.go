// Package history keeps the record of cleanup runs under
// history/<schedule>/: one <run>.json per run and its agent output in
// <run>.log, credential-redacted before it is written and cut to a size
// cap; only the newest runs are kept. checkpoint.json holds the input
// digest of the last successful run.
package history

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/adapters/state"
	"github.com/git-context-tree/git-context-tree/internal/redact"
)

// Store is one schedule's history.
type Store struct {
	Home       *state.Home
	ScheduleID string
}

var runID = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[0-9a-f-]{36}$`) })

func (s Store) dir() (string, error) { return s.Home.Dir("history", s.ScheduleID) }

// Save writes a run record.
func (s Store) Save(rec *contracts.RunRecord) error {
	dir, err := s.dir()
	if err != nil {
		return err
	}
	data, err := json.MarshalIndent(rec, "", "  ")
	if err != nil {
		return err
	}
	return s.Home.WriteFile(dir, rec.ID+".json", append(redact.JSON(data), '\n'))
}

// SaveOutput writes a run's agent output: redacted, then cut to limit
// bytes (at a line end where possible). It reports whether it was cut.
func (s Store) SaveOutput(id string, output []byte, limit int) (bool, error) {
	dir, err := s.dir()
	if err != nil {
		return false, err
	}
	text, cut := Bound(redact.String(string(output)), limit)
	return cut, s.Home.WriteFile(dir, id+".log", []byte(text))
}

// truncMark ends a log that was cut.
const truncMark = "\n[output truncated by git-context-tree]\n"

// Bound cuts text to at most limit bytes, marker included, at the last
// line end in the kept part if there is one.
func Bound(text string, limit int) (string, bool) {
	if len(text) <= limit {
		return text, false
	}
	keep := max(limit-len(truncMark), 0)
	head := text[:keep]
	if i := strings.LastIndexByte(head, '\n'); i > 0 {
		head = head[:i]
	}
	return head + truncMark, true
}

// Prune removes the oldest runs beyond keep (run ids sort by time).
func (s Store) Prune(keep int) error {
	ids, err := s.IDs()
	if err != nil || len(ids) <= keep {
		return err
	}
	dir, _ := s.dir()
	for _, id := range ids[:len(ids)-keep] {
		for _, ext := range []string{".json", ".log"} {
			if err := os.Remove(filepath.Join(dir, id+ext)); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return contracts.Errorf(contracts.CodeIO, "cannot prune history: %v", err)
			}
		}
	}
	return nil
}

// IDs lists the stored run ids, oldest first.
func (s Store) IDs() ([]string, error) {
	entries, err := s.Home.ReadDir(s.Home.Path("history", s.ScheduleID))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var ids []string
	for _, e := range entries {
		if id, ok := strings.CutSuffix(e.Name(), ".json"); ok && runID().MatchString(id) {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	return ids, nil
}

// Load reads a run record.
func (s Store) Load(id string) (*contracts.RunRecord, error) {
	if !runID().MatchString(id) {
		return nil, contracts.Errorf(contracts.CodeUsage, "%q is not a run id", id)
	}
	path := s.Home.Path("history", s.ScheduleID, id+".json")
	data, err := s.Home.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, contracts.Errorf(contracts.CodeScheduleNotFound, "no run %s in the history of schedule %s", id, s.ScheduleID)
	}
	if err != nil {
		return nil, err
	}
	var rec contracts.RunRecord
	if err := json.Unmarshal(data, &rec); err != nil {
		return nil, contracts.Errorf(contracts.CodeStateInvalid, "run record %s is damaged", path)
	}
	return &rec, nil
}

// Output reads a run's stored (already redacted) output.
func (s Store) Output(id string) (string, error) {
	data, err := s.Home.ReadFile(s.Home.Path("history", s.ScheduleID, id+".log"))
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	return string(data), err
}

// Runs reads the stored runs ids (as IDs lists them), in order. A record
// that cannot be read (damaged, a symlink) is returned among the
// unreadable, and the others are read all the same; one pruned since the
// runs were listed is gone. An error that is not one record's fails the
// whole.
func (s Store) Runs(ids []string) ([]contracts.RunRecord, []contracts.UnreadableRecord, error) {
	runs := []contracts.RunRecord{}
	var unreadable []contracts.UnreadableRecord
	for _, id := range ids {
		rec, err := s.Load(id)
		if err != nil {
			bad, err := s.Unreadable(id, err)
			if err != nil {
				return nil, nil, err
			}
			if bad != nil {
				unreadable = append(unreadable, *bad)
			}
			continue
		}
		runs = append(runs, *rec)
	}
	return runs, unreadable, nil
}

// Unreadable turns what Load(id) failed with into the entry naming the
// record when the failure is that record's own (a *contracts.Error); nil
// for a record no longer there; any other error is returned.
func (s Store) Unreadable(id string, err error) (*contracts.UnreadableRecord, error) {
	var ce *contracts.Error
	switch {
	case !errors.As(err, &ce):
		return nil, err
	case ce.Code == contracts.CodeScheduleNotFound:
		return nil, nil
	}
	return &contracts.UnreadableRecord{ID: id, Record: s.Home.Path("history", s.ScheduleID, id+".json"), Error: ce}, nil
}

// Checkpoint is the input digest of the last successful run ("" if none,
// or if the record is damaged: the next run then runs). A checkpoint that
// is, or lies behind, a symlink is an error: a file outside the state
// must not decide that a run has nothing to do.
func (s Store) Checkpoint() (string, error) {
	data, err := s.Home.ReadFile(s.Home.Path("history", s.ScheduleID, "checkpoint.json"))
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	var cp struct {
		Digest string `json:"digest"`
	}
	if json.Unmarshal(data, &cp) != nil {
		return "", nil
	}
	return cp.Digest, nil
}

// SetCheckpoint records the digest the next run compares its input with.
func (s Store) SetCheckpoint(digest, run string) error {
	dir, err := s.dir()
	if err != nil {
		return err
	}
	data, _ := json.Marshal(map[string]string{"digest": digest, "run": run})
	return s.Home.WriteFile(dir, "checkpoint.json", append(data, '\n'))
}

// Purge removes the whole history of the schedule.
func (s Store) Purge() error {
	dir := s.Home.Path("history", s.ScheduleID)
	// RemoveAll does not follow a last-component link, but would remove
	// below a linked history/.
	if err := s.Home.CheckPath(dir); err != nil {
		return err
	}
	if err := os.RemoveAll(dir); err != nil {
		return contracts.Errorf(contracts.CodeIO, "cannot remove %s: %v", dir, err)
	}
	return nil
}
