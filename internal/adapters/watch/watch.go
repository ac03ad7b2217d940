// Package watch tells whether anything changed in a set of directories
// since a point in time, so a long-running reader (the MCP server) can
// reuse what git told it about a checkout until the checkout changes. On
// Linux it uses inotify and reads the events synchronously when asked: a
// change that completed before Changed is called is always seen, so a
// reuse is never based on a view older than the question. Elsewhere New
// fails with ErrUnsupported and callers do not reuse anything.
package watch

import "errors"

// ErrUnsupported is New's error where no watcher is available.
var ErrUnsupported = errors.New("watch: not supported on this system")
