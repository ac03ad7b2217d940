package record

import (
	"errors"
	"os"

	"github.com/git-context-tree/git-context-tree/contracts"
)

// Unreadable turns what Load(id) failed with into the entry that names the
// record, when the failure is that one record's (a *contracts.Error: the
// record is damaged, a symlink, not a regular file, unreadable), so that a
// listing goes on with the other sessions. A record removed since its id
// was listed (SESSION_NOT_FOUND) is gone: no entry and no error. Anything
// else is not one record's failure and is returned, to fail the listing.
func (st Store) Unreadable(id string, err error) (*contracts.SessionUnreadable, error) {
	var ce *contracts.Error
	switch {
	case !errors.As(err, &ce):
		return nil, err
	case ce.Code == contracts.CodeSessionNotFound:
		return nil, nil
	}
	entry := &contracts.SessionUnreadable{ID: id, Record: st.Home.Path("sessions", id+".json"), Error: ce}
	// Where prepare puts the session's folder; lstat only, never followed.
	if wt := st.Home.Path("worktrees", id); isDir(wt) {
		entry.Worktree = wt
	}
	return entry, nil
}

func isDir(path string) bool {
	fi, err := os.Lstat(path)
	return err == nil && fi.IsDir()
}
