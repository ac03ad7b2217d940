package git

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Batch reads objects of one repository through `git cat-file --batch`:
// Objects asks its own long-lived process, request after request; Stream
// reads many objects at once through one-shot processes side by side.
type Batch struct {
	g     *Git
	ctx   context.Context
	scope Scope
	dir   string
	env   []string // added to the scope's environment
	args  []string // the cat-file command line

	cmd    *exec.Cmd
	stdin  io.WriteCloser
	out    *objectReader
	stderr syncBuffer
	err    error
}

// OpenBatch starts `git cat-file --batch` in dir, in the invoking
// repository's environment. Close it.
func (g *Git) OpenBatch(ctx context.Context, dir string) (*Batch, error) {
	return g.openBatch(ctx, Invoking, dir, "cat-file", "--batch")
}

// OpenRepoBatch starts `git cat-file --batch` against the repository whose
// git directory is gitDir, isolated like InRepo. Close it.
func (g *Git) OpenRepoBatch(ctx context.Context, gitDir string) (*Batch, error) {
	return g.openBatch(ctx, Isolated, gitDir, "--git-dir="+gitDir, "cat-file", "--batch")
}

func (g *Git) openBatch(ctx context.Context, scope Scope, dir string, args ...string) (*Batch, error) {
	b := &Batch{g: g, ctx: ctx, scope: scope, dir: dir, args: args}
	if err := b.open(); err != nil {
		return nil, err
	}
	return b, nil
}

// open starts the batch's own process.
func (b *Batch) open() error {
	cmd, stdin, stdout, err := b.start(&b.stderr)
	if err != nil {
		return err
	}
	b.cmd, b.stdin, b.out = cmd, stdin, newObjectReader(stdout)
	return nil
}

// start runs one cat-file process with its stdin and stdout piped.
func (b *Batch) start(stderr *syncBuffer) (*exec.Cmd, io.WriteCloser, io.Reader, error) {
	cmd, err := b.g.command(b.ctx, b.scope, b.dir, b.args...)
	if err != nil {
		return nil, nil, nil, err
	}
	cmd.Env = append(cmd.Env, b.env...)
	cmd.Stderr = stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, nil, nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, nil, nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, nil, nil, fmt.Errorf("run git cat-file: %w", err)
	}
	enlargePipe(stdout)
	return cmd, stdin, stdout, nil
}

// Objects requests objects by name (an id, or a revision expression such
// as HEAD:path; never holding a newline) and calls fn with each one's id
// and content in order; id is "" for a name that names no object. fn may
// keep data.
func (b *Batch) Objects(names []string, fn func(i int, id string, data []byte) error) error {
	if b.err != nil {
		return b.err
	}
	done := make(chan error, 1)
	go func() { done <- writeNames(b.stdin, names) }()
	var err error
	for i, name := range names {
		var id string
		var data []byte
		if id, _, data, err = b.out.next(name); err != nil {
			break
		}
		if err = fn(i, id, data); err != nil {
			break
		}
	}
	if err != nil {
		b.err = fmt.Errorf("git cat-file --batch: %w%s", err, stderrNote(&b.stderr))
		b.cmd.Process.Kill()
		return b.err
	}
	if werr := <-done; werr != nil {
		b.err = fmt.Errorf("git cat-file --batch: %w%s", werr, stderrNote(&b.stderr))
		return b.err
	}
	return nil
}

// Object is what Read found for one name: ID is "" when the name names no
// object.
type Object struct {
	ID   string
	Type string // "blob", "tree", "commit" or "tag"
	Data []byte
}

// Read asks for a few objects, as Objects does, and returns them in order
// with their types.
func (b *Batch) Read(names []string) ([]Object, error) {
	if b.err != nil {
		return nil, b.err
	}
	done := make(chan error, 1)
	go func() { done <- writeNames(b.stdin, names) }()
	out := make([]Object, len(names))
	var err error
	for i, name := range names {
		if out[i].ID, out[i].Type, out[i].Data, err = b.out.next(name); err != nil {
			b.err = fmt.Errorf("git cat-file --batch: %w%s", err, stderrNote(&b.stderr))
			b.cmd.Process.Kill()
			return nil, b.err
		}
	}
	if werr := <-done; werr != nil {
		b.err = fmt.Errorf("git cat-file --batch: %w%s", werr, stderrNote(&b.stderr))
		return nil, b.err
	}
	return out, nil
}

// writeNames sends one request per line, buffered.
func writeNames(w io.Writer, names []string) error {
	var buf []byte
	for _, n := range names {
		buf = append(append(buf, n...), '\n')
		if len(buf) >= 64<<10 {
			if _, err := w.Write(buf); err != nil {
				return err
			}
			buf = buf[:0]
		}
	}
	_, err := w.Write(buf)
	return err
}

// streamPerProcess is how many objects make another process worth
// starting in Stream; below streamDirect, Stream asks the batch's own
// process, one object after another (a commit's hook staging a few new
// documents starts no process for them).
var streamPerProcess = 2048

const streamDirect = 64

// Stream reads the named objects as Objects does, for callers that read
// many at once and do work on each: a few are asked of the batch's own
// process; more are split among one-shot cat-file processes (one per
// core, when there are enough names), whose output is read as it comes,
// in large reads, and handed to one goroutine per core in groups. fn may
// be called concurrently from those goroutines,
// once for every name (in no particular order), with the name's index; it
// may keep data. The first error fn returns stops the rest and is
// returned.
func (b *Batch) Stream(names []string, fn func(i int, id string, data []byte) error) error {
	if len(names) == 0 {
		return nil
	}
	if b.err != nil {
		return b.err
	}
	if len(names) < streamDirect {
		return b.Objects(names, fn)
	}
	workers := runtime.GOMAXPROCS(0)
	procs := min(workers, (len(names)+streamPerProcess-1)/streamPerProcess)
	s := &stream{batches: make(chan []streamed, 4*workers)}
	var readers sync.WaitGroup
	for p := range procs {
		lo, hi := p*len(names)/procs, (p+1)*len(names)/procs
		readers.Add(1)
		go func() {
			defer readers.Done()
			s.fail(b.streamFrom(s, names, lo, hi))
		}()
	}
	var work sync.WaitGroup
	for range workers {
		work.Add(1)
		go func() {
			defer work.Done()
			for batch := range s.batches {
				for _, r := range batch {
					if s.failed() {
						break
					}
					s.fail(fn(r.i, r.id, r.data))
				}
			}
		}()
	}
	readers.Wait()
	close(s.batches)
	work.Wait()
	return s.err
}

// stream is one Stream call: groups of objects on their way to fn, and the
// first error.
type stream struct {
	batches chan []streamed
	mu      sync.Mutex
	err     error
	stop    atomic.Bool
}

type streamed struct {
	i    int
	id   string
	data []byte
}

func (s *stream) fail(err error) {
	if err == nil {
		return
	}
	s.mu.Lock()
	if s.err == nil {
		s.err = err
		s.stop.Store(true)
	}
	s.mu.Unlock()
}

func (s *stream) failed() bool { return s.stop.Load() }

// streamBatchBytes is the size of the groups readers hand out: large
// enough that goroutines rarely wait on each other, small enough to keep
// every core busy.
const streamBatchBytes = 64 << 10

// streamFrom reads names[lo:hi] through a process of their own.
func (b *Batch) streamFrom(s *stream, names []string, lo, hi int) error {
	var stderr syncBuffer
	cmd, stdin, stdout, err := b.start(&stderr)
	if err != nil {
		return err
	}
	written := make(chan error, 1)
	go func() {
		err := writeNames(stdin, names[lo:hi])
		if cerr := stdin.Close(); err == nil {
			err = cerr
		}
		written <- err
	}()
	r := newObjectReader(stdout)
	r.coalesce = true
	var batch []streamed
	size := 0
	for i := lo; i < hi && err == nil; i++ {
		if s.failed() {
			err = errStopped
			break
		}
		var rec streamed
		rec.i = i
		if rec.id, _, rec.data, err = r.next(names[i]); err != nil {
			break
		}
		batch = append(batch, rec)
		if size += len(rec.data) + 64; size >= streamBatchBytes || len(batch) >= 256 || i == hi-1 {
			s.batches <- batch
			batch, size = nil, 0
		}
	}
	if err != nil {
		cmd.Process.Kill()
		cmd.Wait()
		if errors.Is(err, errStopped) {
			return nil // another reader or fn failed first
		}
		return fmt.Errorf("git cat-file --batch: %w%s", err, stderrNote(&stderr))
	}
	werr := <-written
	if err := cmd.Wait(); err != nil {
		return fmt.Errorf("git cat-file --batch: %v%s", err, stderrNote(&stderr))
	}
	if werr != nil {
		return fmt.Errorf("git cat-file --batch: %w%s", werr, stderrNote(&stderr))
	}
	return nil
}

var errStopped = errors.New("stopped")

func stderrNote(stderr *syncBuffer) string {
	if s := strings.TrimSpace(stderr.String()); s != "" {
		return ": " + s
	}
	return ""
}

// syncBuffer is a cat-file's stderr: git may still be writing it (from
// exec's copying goroutine) when a failed read reports what it said.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.String()
}

// Close ends the process.
func (b *Batch) Close() error {
	b.stdin.Close()
	err := b.cmd.Wait()
	if b.err == nil && err != nil {
		return fmt.Errorf("git cat-file --batch: %v%s", err, stderrNote(&b.stderr))
	}
	return nil
}

// objectReader parses cat-file --batch output: for each request
// "<id> <type> <size>\n<content>\n", or "<name> missing\n" (or
// "ambiguous"). It reads as much as the pipe holds into buffers it never
// reuses, so contents are handed out without copying.
type objectReader struct {
	r          io.Reader
	buf        []byte
	start, end int // unparsed bytes: buf[start:end]
	// coalesce, for bulk reads: after a read that found the pipe nearly
	// empty, wait a little before the next, so that one read takes many
	// objects instead of one wake-up per write git makes (three per
	// object: header, content, newline).
	coalesce bool
	last     int // bytes the last read returned
}

const (
	coalesceBelow = 32 << 10
	coalesceWait  = 500 * time.Microsecond
)

// objectBufferSize is the size of each read buffer (an object larger than
// what is left gets a buffer of its own size).
const objectBufferSize = 256 << 10

func newObjectReader(r io.Reader) *objectReader { return &objectReader{r: r} }

// next reads the answer to the request name: the object's id, type and
// content, or "", "" and nil when name names no object.
func (o *objectReader) next(name string) (id, typ string, data []byte, err error) {
	for {
		need := o.end - o.start + 1 // at least one more byte: the header is incomplete
		if nl := bytes.IndexByte(o.buf[o.start:o.end], '\n'); nl >= 0 {
			header := o.buf[o.start : o.start+nl]
			if rest, ok := bytes.CutPrefix(header, []byte(name)); ok && (string(rest) == " missing" || string(rest) == " ambiguous") {
				o.start += nl + 1
				return "", "", nil, nil
			}
			oid, typ, size, ok := parseHeader(header)
			if !ok {
				return "", "", nil, fmt.Errorf("object %s: %q", name, header)
			}
			need = nl + 1 + size + 1
			if o.end-o.start >= need {
				body := o.start + nl + 1
				if o.buf[body+size] != '\n' {
					return "", "", nil, fmt.Errorf("object %s: content not followed by a newline", name)
				}
				o.start += need
				return oid, typ, o.buf[body : body+size : body+size], nil
			}
		}
		if o.start+need > len(o.buf) {
			// A new buffer: the old one may hold contents already handed out.
			nb := make([]byte, max(objectBufferSize, need))
			o.end = copy(nb, o.buf[o.start:o.end])
			o.buf, o.start = nb, 0
		}
		if o.coalesce && o.last < coalesceBelow {
			time.Sleep(coalesceWait)
		}
		n, err := o.r.Read(o.buf[o.end:])
		o.end, o.last = o.end+n, n
		if n == 0 && err != nil {
			if err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return "", "", nil, err
		}
	}
}

// parseHeader reads "<id> <type> <size>".
func parseHeader(h []byte) (id, typ string, size int, ok bool) {
	oid, rest, ok1 := bytes.Cut(h, []byte{' '})
	t, sz, ok2 := bytes.Cut(rest, []byte{' '})
	if !ok1 || !ok2 || len(oid) == 0 || len(sz) == 0 || len(sz) > 18 {
		return "", "", 0, false
	}
	for _, c := range sz {
		if c < '0' || c > '9' {
			return "", "", 0, false
		}
		size = size*10 + int(c-'0')
	}
	switch string(t) { // no allocation for the four types
	case "blob":
		typ = "blob"
	case "tree":
		typ = "tree"
	case "commit":
		typ = "commit"
	case "tag":
		typ = "tag"
	default:
		typ = string(t)
	}
	return string(oid), typ, size, true
}
