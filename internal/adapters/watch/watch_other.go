//go:build !linux

package watch

// Watcher is unavailable on this system.
type Watcher struct{}

// Mark is unavailable on this system.
type Mark struct{}

// New fails: there is no watcher here.
func New() (*Watcher, error) { return nil, ErrUnsupported }

// Dir is a directory a mark covers (see the Linux watcher).
type Dir struct {
	Path   string
	Deep   bool
	GitDir bool
}

// Mark cannot be set without a watcher.
func (w *Watcher) Mark(dirs []Dir) (*Mark, error) { return nil, ErrUnsupported }

// Changed is always true: nothing is known not to have changed.
func (m *Mark) Changed() bool { return true }

// Close does nothing.
func (m *Mark) Close() {}

// Close does nothing.
func (w *Watcher) Close() {}
