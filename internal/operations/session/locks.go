package session

import (
	"os"
	"path/filepath"
	"time"

	"github.com/git-context-tree/git-context-tree/contracts"
)

// staleLockAge is how old a ref lock must be before it counts as left by a
// killed process: git holds a ref lock for the milliseconds of one update.
const staleLockAge = 2 * time.Second

// clearStaleRefLocks removes the lock files of the session branch, in the
// home and the session repository, of its keep ref, and of the session
// repository's HEAD, that a finish, update or abort killed during a
// ref update left behind. Only the tool writes these refs, under the
// session lock the caller holds, so a lock there belongs to a killed run's
// git; one younger than staleLockAge may still belong to that git, still
// finishing, so it is waited for first.
func clearStaleRefLocks(s *contracts.Session) {
	branch := filepath.FromSlash("refs/heads/" + s.Branch + ".lock")
	for _, lock := range []string{
		filepath.Join(s.Repository.CommonDir, branch),
		// The keep ref moves in the same transaction as the branch.
		filepath.Join(s.Repository.CommonDir, filepath.FromSlash(keepRef(s)+".lock")),
		filepath.Join(sessionGitDir(s), branch),
		// Updating the branch HEAD names locks HEAD too (its reflog).
		filepath.Join(sessionGitDir(s), "HEAD.lock"),
	} {
		for {
			fi, err := os.Lstat(lock)
			if err != nil {
				break
			}
			if age := time.Since(fi.ModTime()); age < staleLockAge {
				time.Sleep(min(staleLockAge-age, 200*time.Millisecond))
				continue
			}
			os.Remove(lock)
			break
		}
	}
}
