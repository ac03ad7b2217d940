//go:build linux

package main

// BenchmarkProcessVerify measures `git-context-tree verify <dir>` as a whole
// process against a floor: a process that does nothing but read every file
// below the same directory, in parallel on all cores, with raw system calls
// (openat relative to its directory's descriptor, read into a reused
// buffer until end of file, close; directories listed with getdents64).
// The floor is this test binary itself, run with GCT_READ_FLOOR=<dir>
// (init), so it is built with the same toolchain and starts like any
// Go program. Trees of 20,000 and 100,000 documents are generated once
// (internal/treegen, not timed); the 100,000 one is skipped under -short.
// The processes run round-robin, so load from other work on the machine
// falls on both alike. Run it with
//
//	go test -run '^$' -bench BenchmarkProcessVerify -benchtime 5x ./cmd/git-context-tree/
//
// Reported per size: the median CPU time (user and system) of verify and
// of the floor, their ratio (the figure load changes least), the median
// wall times and their ratio.

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"github.com/git-context-tree/git-context-tree/internal/treegen"
)

// init turns the test binary into the floor when GCT_READ_FLOOR is set
// (before TestMain, which terminal_test.go owns).
func init() {
	if dir := os.Getenv("GCT_READ_FLOOR"); dir != "" {
		files, size, err := readFloor(dir)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		fmt.Printf("%d files, %d bytes\n", files, size)
		os.Exit(0)
	}
}

func BenchmarkProcessVerify(b *testing.B) {
	if f := flag.Lookup("test.bench"); f == nil || f.Value.String() == "" {
		b.Skip("run with -bench")
	}
	tmp := b.TempDir()
	bin := filepath.Join(tmp, "git-context-tree")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	self, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	home := filepath.Join(tmp, "home")
	if err := os.Mkdir(home, 0o700); err != nil {
		b.Fatal(err)
	}
	env := append(os.Environ(), "HOME="+home, "CONTEXT_TREE_HOME="+filepath.Join(home, ".context-tree"))

	type command struct {
		name string
		bin  string
		args []string
		env  []string
	}
	var cmds []command
	sizes := []int{20_000, 100_000}
	if testing.Short() {
		sizes = sizes[:1]
	}
	for _, docs := range sizes {
		dir := filepath.Join(tmp, fmt.Sprintf("tree%d", docs))
		if err := treegen.Generate(dir, treegen.Options{Seed: 1, Docs: docs, WideChildren: 1_000}); err != nil {
			b.Fatal(err)
		}
		k := fmt.Sprintf("%dk", docs/1000)
		cmds = append(cmds,
			command{"verify-" + k, bin, []string{"verify", dir}, env},
			command{"floor-" + k, self, nil, append(slices.Clone(env), "GCT_READ_FLOOR="+dir)},
		)
	}
	walls, cpus := inTurns(b, len(cmds), func(j int) (time.Duration, time.Duration) {
		c := cmds[j]
		return timeProcess(b, tmp, c.env, append([]string{c.bin}, c.args...)...)
	})
	for j := 0; j < len(cmds); j += 2 {
		k := strings.TrimPrefix(cmds[j].name, "verify-")
		vc, fc := medianMs(cpus[j]), medianMs(cpus[j+1])
		vw, fw := medianMs(walls[j]), medianMs(walls[j+1])
		b.ReportMetric(vc, "verify-"+k+"-cpu-ms")
		b.ReportMetric(fc, "floor-"+k+"-cpu-ms")
		b.ReportMetric(vc/fc, "verify-"+k+"-cpu-x-floor")
		b.ReportMetric(vw, "verify-"+k+"-ms")
		b.ReportMetric(fw, "floor-"+k+"-ms")
		b.ReportMetric(vw/fw, "verify-"+k+"-x-floor")
	}
	b.ReportMetric(0, "ns/op")
}

// readFloor reads every regular file below root on all cores with raw
// system calls and does nothing else: the least any verify of the tree
// must do. Directories are opened by path (there are ten documents to a
// directory), files with openat relative to their directory's descriptor.
func readFloor(root string) (files int, size int64, err error) {
	var (
		mu      sync.Mutex
		cond    = sync.NewCond(&mu)
		stack   = []string{root}
		pending = 1 // directories queued or being read
		first   error
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
			dents := make([]byte, 32<<10)
			buf := make([]byte, 64<<10)
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

				subdirs, err := readFloorDir(dir, dents, buf, &c.files, &c.size)
				mu.Lock()
				if err != nil && first == nil {
					first = err
				}
				stack = append(stack, subdirs...)
				pending += len(subdirs) - 1
				if pending == 0 {
					cond.Broadcast()
				} else {
					for range subdirs {
						cond.Signal()
					}
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
	return files, size, first
}

// readFloorDir reads every regular file of one directory and returns the
// paths of its subdirectories.
func readFloorDir(dir string, dents, buf []byte, files *int, size *int64) ([]string, error) {
	dfd, err := syscall.Open(dir, syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", dir, err)
	}
	defer syscall.Close(dfd)
	var subdirs []string
	for {
		n, err := syscall.ReadDirent(dfd, dents)
		if err != nil {
			return subdirs, fmt.Errorf("getdents %s: %w", dir, err)
		}
		if n <= 0 {
			return subdirs, nil
		}
		for off := 0; off < n; {
			// struct linux_dirent64: ino u64, off i64, reclen u16, type u8, name.
			reclen := int(*(*uint16)(unsafe.Pointer(&dents[off+16])))
			typ := dents[off+18]
			name := dents[off+19 : off+reclen]
			name = name[:bytes.IndexByte(name, 0)]
			off += reclen
			switch {
			case string(name) == "." || string(name) == "..":
			case typ == syscall.DT_DIR:
				subdirs = append(subdirs, dir+"/"+string(name))
			case typ == syscall.DT_REG:
				fd, err := syscall.Openat(dfd, string(name), syscall.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_CLOEXEC, 0)
				if err != nil {
					return subdirs, fmt.Errorf("open %s/%s: %w", dir, name, err)
				}
				for {
					m, err := syscall.Read(fd, buf)
					if err != nil {
						syscall.Close(fd)
						return subdirs, fmt.Errorf("read %s/%s: %w", dir, name, err)
					}
					if m <= 0 {
						break
					}
					*size += int64(m)
				}
				syscall.Close(fd)
				*files++
			}
		}
	}
}

// TestReadFloor checks the floor reads every file of a tree, so the
// benchmark compares verify with a reader that misses nothing.
func TestReadFloor(t *testing.T) {
	dir := t.TempDir()
	if err := treegen.Generate(dir, treegen.Options{Seed: 1, Docs: 300}); err != nil {
		t.Fatal(err)
	}
	var wantFiles int
	var wantSize int64
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		wantFiles++
		wantSize += info.Size()
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	files, size, err := readFloor(dir)
	if err != nil {
		t.Fatal(err)
	}
	if files != wantFiles || size != wantSize {
		t.Errorf("readFloor: %d files, %d bytes; want %d files, %d bytes", files, size, wantFiles, wantSize)
	}
}
