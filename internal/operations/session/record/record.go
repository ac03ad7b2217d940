// Package record keeps write sessions' records on this machine
// (sessions/<id>.json under the state directory): read by the session
// commands and by gc, which spares the snapshots sessions start from.
package record

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/adapters/lock"
	"github.com/git-context-tree/git-context-tree/internal/adapters/state"
	"github.com/git-context-tree/git-context-tree/internal/operations/idprefix"
	"github.com/git-context-tree/git-context-tree/internal/sources"
)

// BranchPrefix begins every session branch.
const BranchPrefix = "context-tree/"

// Store is the session records of one state directory.
type Store struct {
	Home *state.Home
	// LockWait is how long Lock waits for a live holder.
	LockWait time.Duration
	// LockWaiting, when set, is told who holds a session's lock when the
	// wait for it lasts (lock.Wait).
	LockWaiting func(lock.Holder)
}

// CheckID accepts only a UUID in canonical lowercase form, which is
// also what keeps an id from naming a path outside sessions/.
func CheckID(id string) error {
	u, err := uuid.Parse(id)
	if err != nil || u.String() != id {
		return contracts.Errorf(contracts.CodeUsage, "%q is not a session id (a UUID as printed by write prepare)", id)
	}
	return nil
}

// Load reads a session's record, named by its id or by a unique prefix
// of at least four characters of it.
func (st Store) Load(id string) (*contracts.Session, error) {
	if CheckID(id) != nil {
		full, err := st.byPrefix(id)
		if err != nil {
			return nil, err
		}
		id = full
	}
	dir, err := st.Home.Dir("sessions")
	if err != nil {
		return nil, err
	}
	path := filepath.Join(dir, id+".json")
	data, err := st.Home.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, contracts.Errorf(contracts.CodeSessionNotFound, "no write session %s on this machine (see `git context-tree write list`)", id).
			WithDetails(map[string]any{"session": id})
	}
	if err != nil {
		return nil, err
	}
	var s contracts.Session
	if err := json.Unmarshal(data, &s); err != nil || s.ID != id {
		return nil, contracts.Errorf(contracts.CodeStateInvalid, "session record %s is damaged", path)
	}
	// Selectors are generated, never stored (S6); those of older records
	// are replaced.
	ref, ok := sources.PinnedRef(s.Identity, s.Connection.Source)
	if !ok {
		return nil, contracts.Errorf(contracts.CodeStateInvalid, "session record %s is damaged: its identity is not its source's", path)
	}
	s.Connection = ref
	if field, why := checkRequired(&s); field != "" {
		return nil, contracts.Errorf(contracts.CodeStateInvalid, "session record %s is damaged: its %s %s", path, field, why).
			WithDetails(map[string]any{"session": id, "path": path, "field": field})
	}
	return &s, nil
}

// checkRequired checks what every session has (S12: its repository,
// worktree and task branch) in the form session.schema.json gives it, so
// a record edited by hand is refused here rather than shown as a session
// or handed to git as an empty path. It names the first bad field.
func checkRequired(s *contracts.Session) (field, why string) {
	r := s.Repository
	switch {
	case r == (contracts.SessionRepository{}):
		return "repository", "is missing"
	case r.Kind != s.Connection.Source.Kind:
		return "repository.kind", "is not its source's"
	case !absolute(r.Root):
		return "repository.root", "is not an absolute path"
	case !absolute(r.CommonDir):
		return "repository.commonDir", "is not an absolute path"
	case r.Kind == contracts.SourceGit && !githubOrigin(r.Origin):
		return "repository.origin", "is not a GitHub repository's https URL"
	case s.Worktree == "":
		return "worktree", "is missing"
	case !absolute(s.Worktree):
		return "worktree", "is not an absolute path"
	case s.Branch == "":
		return "branch", "is missing"
	case !strings.HasPrefix(s.Branch, BranchPrefix) || s.Branch == BranchPrefix:
		return "branch", "is not a " + BranchPrefix + "<name> branch"
	}
	return "", ""
}

func absolute(p string) bool { return p != "" && filepath.IsAbs(p) }

// githubOrigin matches the schema's https://github.com/<owner>/<repo>.git.
func githubOrigin(origin string) bool {
	rest, ok := strings.CutPrefix(origin, "https://github.com/")
	if !ok {
		return false
	}
	rest, ok = strings.CutSuffix(rest, ".git")
	owner, repo, two := strings.Cut(rest, "/")
	return ok && two && owner != "" && repo != "" && !strings.Contains(repo, "/")
}

// byPrefix resolves a prefix of a session id.
func (st Store) byPrefix(prefix string) (string, error) {
	if len(prefix) >= idprefix.MinLength && strings.Trim(prefix, "0123456789abcdef-") == "" {
		ids, err := st.IDs()
		if err != nil {
			return "", err
		}
		full, err := idprefix.Resolve(prefix, ids, "session")
		if err != nil || full != "" {
			return full, err
		}
		return "", contracts.Errorf(contracts.CodeSessionNotFound, "no write session starts with %s on this machine (see `git context-tree write list`)", prefix).
			WithDetails(map[string]any{"session": prefix})
	}
	return "", CheckID(prefix)
}

// storedSession is a session record as written: its connection keeps the
// source only, since selectors are generated when it is read (S6).
type storedSession struct {
	contracts.Session
	Connection struct {
		Source contracts.Source `json:"source"`
	} `json:"connection"`
}

// Save writes a session's record whole.
func (st Store) Save(s *contracts.Session) error {
	dir, err := st.Home.Dir("sessions")
	if err != nil {
		return err
	}
	stored := storedSession{Session: *s}
	stored.Head = "" // computed when shown, never stored
	stored.Connection.Source = s.Connection.Source
	data, err := json.MarshalIndent(&stored, "", "  ")
	if err != nil {
		return err
	}
	return st.Home.WriteFile(dir, s.ID+".json", append(data, '\n'))
}

// Delete removes a session's record; a missing one is fine.
func (st Store) Delete(id string) error {
	dir, err := st.Home.Dir("sessions")
	if err != nil {
		return err
	}
	if err := os.Remove(filepath.Join(dir, id+".json")); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return contracts.Errorf(contracts.CodeIO, "cannot remove session record %s: %v", id, err)
	}
	return nil
}

// IDs lists the ids of every stored session, sorted.
func (st Store) IDs() ([]string, error) {
	dir, err := st.Home.Dir("sessions")
	if err != nil {
		return nil, err
	}
	entries, err := st.Home.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var ids []string
	for _, e := range entries {
		id, ok := strings.CutSuffix(e.Name(), ".json")
		if ok && CheckID(id) == nil {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	return ids, nil
}

// Lock serialises the commands that change one session.
func (st Store) Lock(id string) (func(), error) {
	l, err := st.Home.LockWaiting("session."+id, "git-context-tree write session "+id, lock.Wait{Max: st.LockWait, Waiting: st.LockWaiting})
	if err != nil {
		return nil, err
	}
	return func() { l.Release() }, nil
}
