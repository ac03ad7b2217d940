package staged

import (
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/git-context-tree/git-context-tree/internal/adapters/git"
	"github.com/git-context-tree/git-context-tree/internal/tree"
)

// fromWorkTree checks the documents docs[misses] whose work-tree file (below
// root, the tree's directory) holds exactly their staged blob, proven by the
// blob's id (git.IsBlobContent of the bytes read), on every core, and
// returns the misses left: files that differ from the index (a partial
// commit, an edit after `git add`, a conversion such as CRLF), are
// missing, unreadable, not regular or too large. Those are read from git.
//
// Right after `git add` of many documents their objects are loose, and
// git inflates each one through several opens and maps of its own file:
// reading them through cat-file costs git 4x what reading and parsing the
// work tree costs us. The bytes parsed are the bytes hashed, so a file
// changed while it is read is caught, never judged in the blob's place.
func fromWorkTree(root string, docs []doc, misses []int, found []tree.DocResult) []int {
	workers := min(runtime.GOMAXPROCS(0), (len(misses)+fromDiskChunk-1)/fromDiskChunk)
	var next atomic.Int64
	var mu sync.Mutex
	var left []int
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var buf []byte
			var mine []int
			for {
				lo := int(next.Add(fromDiskChunk)) - fromDiskChunk
				if lo >= len(misses) {
					break
				}
				for _, i := range misses[lo:min(lo+fromDiskChunk, len(misses))] {
					d := docs[i]
					data, err := tree.ReadDocumentFile(&buf, filepath.Join(root, filepath.FromSlash(d.rel)))
					if err != nil || !git.IsBlobContent(d.id, data) {
						mine = append(mine, i)
						continue
					}
					found[i] = tree.CheckDocument(d.rel, data)
				}
			}
			mu.Lock()
			left = append(left, mine...)
			mu.Unlock()
		}()
	}
	wg.Wait()
	slices.Sort(left)
	return left
}

// fromDiskChunk is how many documents a worker takes at a time.
const fromDiskChunk = 64
