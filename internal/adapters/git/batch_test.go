package git

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestBatchStream reads the same names through Objects and through Stream
// (split among several processes): ids and contents agree, every name is
// answered once, missing names get "", and an object larger than a read
// buffer arrives whole.
func TestBatchStream(t *testing.T) {
	r := newIndexRepo(t)
	r.populate()
	r.write("big.md", strings.Repeat("0123456789abcdef", objectBufferSize/16*2+3))
	r.git("add", "big.md")
	r.git("commit", "-q", "-m", "big")
	var names []string
	for range 40 {
		names = append(names, "HEAD:a.md", "HEAD:no such file", "HEAD:b/sp ace.md", "HEAD:big.md", "HEAD:", r.git("rev-parse", "HEAD:é.md"))
	}
	defer func(n int) { streamPerProcess = n }(streamPerProcess)
	streamPerProcess = 50

	b, err := New(os.Environ()).OpenBatch(context.Background(), r.dir)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	type object struct{ id, data string }
	want := make([]object, len(names))
	if err := b.Objects(names, func(i int, id string, data []byte) error {
		want[i] = object{id, string(data)}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if want[3].id == "" || len(want[3].data) != objectBufferSize*2+48 || want[1].id != "" {
		t.Fatalf("Objects: big %d bytes, missing %q", len(want[3].data), want[1].id)
	}
	got := make([]object, len(names))
	seen := make([]int, len(names))
	var mu sync.Mutex
	if err := b.Stream(names, func(i int, id string, data []byte) error {
		mu.Lock()
		defer mu.Unlock()
		got[i] = object{id, string(data)}
		seen[i]++
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(object{})); diff != "" {
		t.Errorf("Stream (-Objects +Stream):\n%s", diff)
	}
	for i, n := range seen {
		if n != 1 {
			t.Errorf("name %d (%s) answered %d times", i, names[i], n)
		}
	}
	// A few names are asked of the batch's own process.
	few := make([]object, 3)
	if err := b.Stream(names[:3], func(i int, id string, data []byte) error {
		few[i] = object{id, string(data)}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want[:3], few, cmp.AllowUnexported(object{})); diff != "" {
		t.Errorf("Stream of a few (-Objects +Stream):\n%s", diff)
	}
	// Read gives the same, with types.
	read, err := b.Read(names[:6])
	if err != nil {
		t.Fatal(err)
	}
	for i, o := range read {
		wantType := map[int]string{0: "blob", 1: "", 2: "blob", 3: "blob", 4: "tree", 5: "blob"}[i]
		if o.ID != want[i].id || string(o.Data) != want[i].data || o.Type != wantType {
			t.Errorf("Read %s = %q %q, want %q %q", names[i], o.ID, o.Type, want[i].id, wantType)
		}
	}
	// The batch still answers after a Stream.
	if err := b.Objects(names[:1], func(_ int, id string, _ []byte) error {
		if id != want[0].id {
			t.Errorf("Objects after Stream: %q, want %q", id, want[0].id)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
}

// TestBatchStreamError: the first error fn returns is Stream's, and the
// rest of the objects are not handed out.
func TestBatchStreamError(t *testing.T) {
	r := newIndexRepo(t)
	r.populate()
	defer func(n int) { streamPerProcess = n }(streamPerProcess)
	streamPerProcess = 10
	var names []string
	for range 200 {
		names = append(names, "HEAD:a.md")
	}
	b, err := New(os.Environ()).OpenBatch(context.Background(), r.dir)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	stop := errors.New("stop")
	var mu sync.Mutex
	calls := 0
	err = b.Stream(names, func(i int, _ string, _ []byte) error {
		mu.Lock()
		defer mu.Unlock()
		calls++
		if calls == 5 {
			return stop
		}
		return nil
	})
	if !errors.Is(err, stop) {
		t.Fatalf("Stream: %v, want %v", err, stop)
	}
	if calls >= len(names) {
		t.Errorf("fn called %d times after failing", calls)
	}
}

// TestObjectReaderSplitReads feeds cat-file output one byte per read.
func TestObjectReaderSplitReads(t *testing.T) {
	var out strings.Builder
	var names []string
	for i := range 50 {
		body := strings.Repeat("x", i*997%3000)
		fmt.Fprintf(&out, "%040d blob %d\n%s\n", i, len(body), body)
		names = append(names, fmt.Sprintf("%040d", i))
		fmt.Fprintf(&out, "n%d missing\n", i)
		names = append(names, fmt.Sprintf("n%d", i))
	}
	o := newObjectReader(&oneByte{s: out.String()})
	for k, name := range names {
		id, typ, data, err := o.next(name)
		if err != nil {
			t.Fatalf("next(%s): %v", name, err)
		}
		i := k / 2
		if k%2 == 1 {
			if id != "" || data != nil {
				t.Errorf("missing %s: %q", name, id)
			}
			continue
		}
		if id != name || typ != "blob" || len(data) != i*997%3000 {
			t.Errorf("object %s: id %q, %d bytes", name, id, len(data))
		}
	}
	if _, _, _, err := o.next("more"); err == nil {
		t.Error("next after the end: no error")
	}
}

type oneByte struct{ s string }

func (r *oneByte) Read(p []byte) (int, error) {
	if r.s == "" {
		return 0, fmt.Errorf("EOF: %w", errEOF)
	}
	p[0] = r.s[0]
	r.s = r.s[1:]
	return 1, nil
}

var errEOF = errors.New("end")
