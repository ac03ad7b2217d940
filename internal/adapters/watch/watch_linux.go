package watch

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"sync"
	"unsafe"

	"golang.org/x/sys/unix"
)

// events are the changes that matter: anything created, removed, renamed,
// written or re-permissioned in a watched directory, or the directory
// itself going away. Reads (git's own) are not among them.
const events = unix.IN_CREATE | unix.IN_DELETE | unix.IN_MODIFY | unix.IN_ATTRIB | unix.IN_CLOSE_WRITE |
	unix.IN_MOVED_FROM | unix.IN_MOVED_TO | unix.IN_DELETE_SELF | unix.IN_MOVE_SELF | unix.IN_ONLYDIR

// Watcher is one inotify instance shared by every mark.
type Watcher struct {
	mu    sync.Mutex
	fd    int
	marks map[int32]map[*Mark]bool // watch descriptor → the marks it serves
	// locksOnly are the watch descriptors of git directories, where a
	// *.lock file appearing or going is git taking a lock, not a change.
	locksOnly map[int32]bool
	buf       []byte
}

// Mark is a point in time for a set of directories: Changed reports
// whether anything in them changed since the mark was set.
type Mark struct {
	w       *Watcher
	wds     []int32
	changed bool
}

// New starts a watcher.
func New() (*Watcher, error) {
	fd, err := unix.InotifyInit1(unix.IN_CLOEXEC | unix.IN_NONBLOCK)
	if err != nil {
		return nil, fmt.Errorf("watch: %w", err)
	}
	return &Watcher{fd: fd, marks: map[int32]map[*Mark]bool{}, locksOnly: map[int32]bool{}, buf: make([]byte, 64<<10)}, nil
}

// Dir is a directory a mark covers.
type Dir struct {
	Path string
	// Deep covers every directory below Path too (symlinks not followed).
	Deep bool
	// GitDir says Path is a git directory: a lock file created or removed
	// there (index.lock, HEAD.lock, config.lock) is git taking a lock,
	// which a plain git status does too; the change itself is the rename
	// of the lock onto the file, which still counts.
	GitDir bool
}

// Mark sets a mark on dirs. Directories that do not exist are skipped:
// creating one changes its parent, which the caller watches when it
// matters. An error (the system's watch limit) sets no mark.
func (w *Watcher) Mark(dirs []Dir) (*Mark, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.fd < 0 {
		return nil, ErrUnsupported
	}
	m := &Mark{w: w}
	add := func(dir string, gitDir bool) error {
		wd, err := unix.InotifyAddWatch(w.fd, dir, events|unix.IN_MASK_ADD)
		switch {
		case errors.Is(err, unix.ENOENT) || errors.Is(err, unix.ENOTDIR):
			return nil
		case err != nil:
			return fmt.Errorf("watch %s: %w", dir, err)
		}
		id := int32(wd)
		if w.marks[id] == nil {
			w.marks[id] = map[*Mark]bool{}
			w.locksOnly[id] = gitDir
		}
		w.locksOnly[id] = w.locksOnly[id] && gitDir
		if !w.marks[id][m] {
			w.marks[id][m] = true
			m.wds = append(m.wds, id)
		}
		return nil
	}
	var err error
	for _, d := range dirs {
		if !d.Deep {
			err = add(d.Path, d.GitDir)
		} else {
			err = filepath.WalkDir(d.Path, func(p string, e fs.DirEntry, werr error) error {
				if werr != nil || !e.IsDir() {
					return nil // gone or unreadable: its parent's events still count
				}
				return add(p, d.GitDir)
			})
		}
		if err != nil {
			break
		}
	}
	if err != nil {
		m.closeLocked()
		return nil, err
	}
	return m, nil
}

// Close stops the watcher; every mark reports changed from then on.
func (w *Watcher) Close() {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, ms := range w.marks {
		for m := range ms {
			m.wds, m.changed = nil, true
		}
	}
	w.marks = map[int32]map[*Mark]bool{}
	_ = unix.Close(w.fd)
	w.fd = -1
}

// Changed reads the events queued so far and reports whether one concerned
// this mark's directories. Once changed, a mark stays changed.
func (m *Mark) Changed() bool {
	w := m.w
	w.mu.Lock()
	defer w.mu.Unlock()
	w.drainLocked()
	return m.changed
}

// drainLocked reads every queued event without waiting.
func (w *Watcher) drainLocked() {
	for w.fd >= 0 {
		n, err := unix.Read(w.fd, w.buf)
		if err != nil || n <= 0 {
			if errors.Is(err, unix.EINTR) {
				continue
			}
			return // EAGAIN: nothing more queued
		}
		for off := 0; off+unix.SizeofInotifyEvent <= n; {
			ev := (*unix.InotifyEvent)(unsafe.Pointer(&w.buf[off]))
			off += unix.SizeofInotifyEvent + int(ev.Len)
			if ev.Mask&unix.IN_Q_OVERFLOW != 0 {
				for _, ms := range w.marks {
					for mk := range ms {
						mk.changed = true
					}
				}
				continue
			}
			if w.locksOnly[ev.Wd] && ev.Mask&(unix.IN_CREATE|unix.IN_DELETE|unix.IN_MODIFY|unix.IN_CLOSE_WRITE|unix.IN_ATTRIB) != 0 &&
				strings.HasSuffix(eventName(w.buf[off-int(ev.Len):off]), ".lock") {
				continue
			}
			for mk := range w.marks[ev.Wd] {
				mk.changed = true
			}
		}
	}
}

// Close removes the mark and the watches no other mark uses.
func (m *Mark) Close() {
	m.w.mu.Lock()
	defer m.w.mu.Unlock()
	m.closeLocked()
}

func (m *Mark) closeLocked() {
	w := m.w
	for _, wd := range m.wds {
		delete(w.marks[wd], m)
		if len(w.marks[wd]) == 0 && w.fd >= 0 {
			delete(w.marks, wd)
			delete(w.locksOnly, wd)
			_, _ = unix.InotifyRmWatch(w.fd, uint32(wd))
		}
	}
	m.wds, m.changed = nil, true
}

// eventName is an event's file name: NUL-padded bytes after the header.
func eventName(b []byte) string {
	if i := bytes.IndexByte(b, 0); i >= 0 {
		b = b[:i]
	}
	return string(b)
}
