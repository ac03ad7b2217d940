package session

import (
	"os"
	"path/filepath"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/operations"
	"github.com/git-context-tree/git-context-tree/internal/operations/session/record"
)

// sessionBranchPrefix begins every session branch.
const sessionBranchPrefix = record.BranchPrefix

func store(env operations.Env) record.Store {
	return record.Store{Home: env.Home, LockWait: env.LockWait, LockWaiting: env.LockWaiting}
}

func loadSession(env operations.Env, id string) (*contracts.Session, error) {
	return store(env).Load(id)
}

func saveSession(env operations.Env, s *contracts.Session) error { return store(env).Save(s) }

func listSessionIDs(env operations.Env) ([]string, error) { return store(env).IDs() }

// loadListed reads the record of a listed session for a command over
// every session. One that cannot be read is appended to unreadable and
// gives no session and no error, so that the command goes on with the
// others (neither is one removed since it was listed an error).
func loadListed(env operations.Env, id string, unreadable *[]contracts.SessionUnreadable) (*contracts.Session, error) {
	s, err := loadSession(env, id)
	if err == nil {
		return s, nil
	}
	bad, err := store(env).Unreadable(id, err)
	if bad != nil {
		*unreadable = append(*unreadable, *bad)
	}
	return nil, err
}

func lockSession(env operations.Env, id string) (func(), error) { return store(env).Lock(id) }

// deleteSession removes a session's record and the base indexes kept
// beside it.
func deleteSession(env operations.Env, id string) error {
	if err := store(env).Delete(id); err != nil {
		return err
	}
	removeBaseIndexes(env, id)
	if dir, err := env.Home.Dir("sessions"); err == nil {
		os.Remove(filepath.Join(dir, id+".homeconfig"))
	}
	return nil
}
