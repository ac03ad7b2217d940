// Package session carries out write sessions (S12–S14): prepare, finish
// (commit and publish), abort, update, prune, list and show. A session is
// a repository of its own at worktrees/<id> that borrows the home
// repository's objects; the tool trusts only the ids it recorded, the
// files on disk it hashes itself and objects it reads by id from the home
// repository, and runs no git command with the session's own .git.
// Inspect is the one reading of what a session holds, which finish, abort,
// prune and cleanup run all judge from.
package session
