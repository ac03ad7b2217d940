package tree

// Benchmarks of verify and read on generated trees. They only run with
// -bench; the 100,000-document ones are skipped under -short. Measure with
//
//	go test -run='^$' -bench=. -benchtime=3x ./internal/tree/
//
// Each tree is generated once per process (not timed) into a temporary
// directory that TestMain removes. The page cache is warm after generation,
// so the figures are warm-cache figures. BenchmarkReadFloor100k is the
// physical floor verify is measured against: a parallel walk that reads
// every file's bytes on all cores and does nothing else. Goals: Verify100k
// within 2x ReadFloor100k, Read1000Children under 50 ms. Besides ns/op
// the verify and floor benchmarks report docs/s, cpu-ns/op (user+system
// CPU of the process) and cores (CPU time over wall time: near 2 on two
// idle cores when both are kept busy).

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/treegen"
)

func TestMain(m *testing.M) {
	code := m.Run()
	benchTrees.Range(func(_, v any) bool {
		if t := v.(*benchTree); t.tmp != "" {
			_ = os.RemoveAll(t.tmp)
		}
		return true
	})
	os.Exit(code)
}

// benchTree is one generated tree, shared by every benchmark of the process.
type benchTree struct {
	once  sync.Once
	tmp   string // directory to remove
	root  string // tree root from OpenRoot
	docs  int
	bytes int64 // total size of all files
	err   error
}

var benchTrees sync.Map // treegen.Options -> *benchTree

const benchWideChildren = 1000

// generatedTree returns the tree of docs documents, generating it on first
// use; callers reset the timer afterwards so generation is never timed.
func generatedTree(b *testing.B, docs int) *benchTree {
	return generatedTreeOf(b, treegen.Options{Seed: 1, Docs: docs, WideChildren: benchWideChildren})
}

func generatedTreeOf(b *testing.B, opts treegen.Options) *benchTree {
	b.Helper()
	v, _ := benchTrees.LoadOrStore(opts, &benchTree{docs: opts.Docs})
	t := v.(*benchTree)
	t.once.Do(func() {
		if t.tmp, t.err = os.MkdirTemp("", fmt.Sprintf("gct-bench-%d-*", opts.Docs)); t.err != nil {
			return
		}
		if t.err = treegen.Generate(t.tmp, opts); t.err != nil {
			return
		}
		if t.root, t.err = OpenRoot(t.tmp); t.err != nil {
			return
		}
		_, t.bytes = readFloor(t.root) // also warms the page cache
	})
	if t.err != nil {
		b.Fatal(t.err)
	}
	return t
}

func BenchmarkVerify10k(b *testing.B) { benchVerify(b, generatedTree(b, 10_000)) }

func BenchmarkVerify100k(b *testing.B) {
	if testing.Short() {
		b.Skip("100,000 documents: skipped under -short")
	}
	benchVerify(b, generatedTree(b, 100_000))
}

// BenchmarkVerify10kAllCode is the worst case for verify's fast paths:
// every document's code shows links that would leave the tree, so every
// body goes through the CommonMark parser (5% of documents do elsewhere).
func BenchmarkVerify10kAllCode(b *testing.B) {
	benchVerify(b, generatedTreeOf(b, treegen.Options{Seed: 1, Docs: 10_000, WideChildren: benchWideChildren, EscapesInCode: 100}))
}

func benchVerify(b *testing.B, t *benchTree) {
	docs := t.docs
	b.SetBytes(t.bytes)
	b.ResetTimer()
	cpu := cpuTime()
	var rep *Report
	for b.Loop() {
		rep = Verify(t.root)
	}
	b.StopTimer()
	reportCPU(b, cpuTime()-cpu)
	if !rep.OK() || rep.Scanned.Documents != docs {
		b.Fatalf("verify: %d findings (first %+v), %d documents", len(rep.Findings), firstFinding(rep.Findings), rep.Scanned.Documents)
	}
	b.ReportMetric(float64(docs)*float64(b.N)/b.Elapsed().Seconds(), "docs/s")
}

// cpuTime is the user and system CPU time of the whole process so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// reportCPU reports the CPU time per operation and the cores kept busy on
// average (CPU time over wall time), which shows whether both cores work.
func reportCPU(b *testing.B, cpu time.Duration) {
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
	b.ReportMetric(cpu.Seconds()/b.Elapsed().Seconds(), "cores")
}

func firstFinding(s []contracts.Finding) any {
	if len(s) == 0 {
		return nil
	}
	return s[0]
}

func BenchmarkReadFloor10k(b *testing.B) { benchFloor(b, 10_000) }

func BenchmarkReadFloor100k(b *testing.B) {
	if testing.Short() {
		b.Skip("100,000 documents: skipped under -short")
	}
	benchFloor(b, 100_000)
}

func benchFloor(b *testing.B, docs int) {
	t := generatedTree(b, docs)
	b.SetBytes(t.bytes)
	b.ResetTimer()
	cpu := cpuTime()
	var files int
	for b.Loop() {
		files, _ = readFloor(t.root)
	}
	b.StopTimer()
	reportCPU(b, cpuTime()-cpu)
	if files < docs {
		b.Fatalf("floor read %d files, want at least %d", files, docs)
	}
	b.ReportMetric(float64(docs)*float64(b.N)/b.Elapsed().Seconds(), "docs/s")
}

// readFloor reads the bytes of every file below root on all cores: a
// parallel directory walk plus os.ReadFile, nothing else.
func readFloor(root string) (files int, size int64) {
	var (
		mu      sync.Mutex
		cond    = sync.NewCond(&mu)
		stack   = []string{root}
		pending = 1 // directories queued or being listed
		wg      sync.WaitGroup
	)
	workers := runtime.GOMAXPROCS(0)
	counts := make([]struct {
		files int
		size  int64
		_     [48]byte // no false sharing
	}, workers)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := &counts[w]
			for {
				mu.Lock()
				for len(stack) == 0 && pending > 0 {
					cond.Wait()
				}
				if pending == 0 {
					mu.Unlock()
					return
				}
				dir := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				mu.Unlock()

				entries, _ := os.ReadDir(dir)
				for _, e := range entries {
					p := filepath.Join(dir, e.Name())
					if e.IsDir() {
						mu.Lock()
						stack = append(stack, p)
						pending++
						mu.Unlock()
						cond.Signal()
						continue
					}
					if data, err := os.ReadFile(p); err == nil {
						c.files++
						c.size += int64(len(data))
					}
				}
				mu.Lock()
				pending--
				if pending == 0 {
					cond.Broadcast()
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	for _, c := range counts {
		files += c.files
		size += c.size
	}
	return files, size
}

func BenchmarkReadRoot(b *testing.B) {
	t := generatedTree(b, 10_000)
	b.ResetTimer()
	var r *NodeRead
	for b.Loop() {
		var err error
		if r, err = Read(t.root, "."); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(len(r.Children)), "children")
}

func BenchmarkRead1000Children(b *testing.B) {
	t := generatedTree(b, 10_000)
	b.ResetTimer()
	var r *NodeRead
	for b.Loop() {
		var err error
		if r, err = Read(t.root, treegen.WideDir); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	if len(r.Children) != benchWideChildren {
		b.Fatalf("%s has %d children, want %d", treegen.WideDir, len(r.Children), benchWideChildren)
	}
	for _, c := range r.Children {
		if c.Title == "" || len(c.Findings) > 0 {
			b.Fatalf("child %s: title %q, findings %v", c.Path, c.Title, c.Findings)
		}
	}
	b.ReportMetric(float64(len(r.Children)), "children")
}
