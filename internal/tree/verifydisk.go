package tree

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"unicode/utf8"
	"unsafe"

	"github.com/git-context-tree/git-context-tree/contracts"
)

// verifyDisk is verifyContent of a directory on disk where documents can
// be opened relative to their directory (openAtDirs), without the opt-in
// link checks. Its result is verifyContent's (agree tests hold it to it);
// what differs is the shape of the work, which here is the shape of the
// least a reader of the tree can do: every core takes a directory from a
// shared stack, lists it and reads its documents right away, relative to
// the directory's descriptor, with no hand-over to another goroutine and
// no allocation per entry beyond its path (strings laid end to end in a
// worker's arena). Soft links are checked once the walk is over, against
// every worker's linkable paths gathered into one set.
func verifyDisk(root string, observe Observer) *Report {
	d := &diskWalk{root: root, observe: observe, stack: []walkDir{{rel: "."}}, pending: 1}
	d.cond = sync.NewCond(&d.mu)
	workers := make([]*diskWorker, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for i := range workers {
		w := &diskWorker{walk: d, x: NewLinkExtractor(), dents: make([]byte, 32<<10)}
		workers[i] = w
		wg.Add(1)
		go func() {
			defer wg.Done()
			w.run()
		}()
	}
	wg.Wait()

	n := 0
	for _, w := range workers {
		n += len(w.linkable)
	}
	linkable := make(map[string]struct{}, n)
	for _, w := range workers {
		for _, p := range w.linkable {
			linkable[p] = struct{}{}
		}
	}
	isLinkable := func(p string) bool { _, ok := linkable[p]; return ok }
	for _, w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			links := w.softLinks
			for _, d := range w.linking {
				for _, sl := range links[:d.links] {
					if f, bad := checkSoftLink(d.rel, sl, isLinkable); bad {
						w.findings = append(w.findings, f)
					}
				}
				links = links[d.links:]
			}
		}()
	}
	wg.Wait()

	var rep Report
	for _, w := range workers {
		rep.Findings = append(rep.Findings, w.findings...)
		rep.Scanned.Documents += w.scanned.Documents
		rep.Scanned.Directories += w.scanned.Directories
		rep.Scanned.Assets += w.scanned.Assets
		rep.Scanned.Normal += w.scanned.Normal
		rep.Scanned.Member += w.scanned.Member
	}
	rep.Findings = sortFindings(rep.Findings)
	return &rep
}

// diskWalk is the directories verifyDisk's workers share.
type diskWalk struct {
	root    string
	observe Observer // nil: none
	mu      sync.Mutex
	cond    *sync.Cond
	stack   []walkDir
	pending int // directories on the stack or being read
}

// linkingDoc is a document with soft links: how many of a worker's
// softLinks are its.
type linkingDoc struct {
	rel   string
	links int32
}

// walkDir is a content directory to list.
type walkDir struct {
	rel    string
	member bool // below the root's members directory
}

// next takes a directory off the stack, waiting while others are being
// read (they may add more); false once every directory is done.
func (d *diskWalk) next() (walkDir, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	for len(d.stack) == 0 && d.pending > 0 {
		d.cond.Wait()
	}
	if d.pending == 0 {
		return walkDir{}, false
	}
	dir := d.stack[len(d.stack)-1]
	d.stack = d.stack[:len(d.stack)-1]
	return dir, true
}

// done records one directory read and the subdirectories it holds.
func (d *diskWalk) done(subdirs []walkDir) {
	d.mu.Lock()
	d.stack = append(d.stack, subdirs...)
	d.pending += len(subdirs) - 1
	if d.pending == 0 {
		d.cond.Broadcast()
	} else {
		for range subdirs {
			d.cond.Signal()
		}
	}
	d.mu.Unlock()
}

// diskWorker is one core's share of verifyDisk: what it found, and its
// buffers.
type diskWorker struct {
	walk     *diskWalk
	x        *LinkExtractor
	dents    []byte      // getdents64's
	buf      []byte      // a document's bytes; nothing keeps them
	arena    stringArena // paths and soft links
	findings []contracts.Finding
	scanned  contracts.Scanned
	linkable []string // documents, and directories with a NODE.md
	// linking are the documents with soft links, in order, and softLinks
	// those links, one document's after another's: checked after the
	// walk, when every linkable path is known.
	linking   []linkingDoc
	softLinks []SoftLink
	scratch   quickScratch
	subdirs   []walkDir // of the directory being read
}

func (w *diskWorker) run() {
	for {
		dir, ok := w.walk.next()
		if !ok {
			return
		}
		w.subdirs = w.subdirs[:0]
		w.readDir(dir)
		w.walk.done(w.subdirs)
	}
}

// readDir lists one content directory, checks its documents and notes its
// subdirectories (walkDir's decisions, entry by entry).
func (w *diskWorker) readDir(dir walkDir) {
	w.scanned.Directories++
	name := filepath.Join(w.walk.root, filepath.FromSlash(dir.rel))
	fd, err := openDirectory(name)
	if err != nil {
		w.add(contracts.FindingDocumentUnreadable, dir.rel, fmt.Sprintf("directory cannot be read: %v", unwrapPathError(err)))
		return
	}
	defer syscall.Close(fd)
	atRoot := dir.rel == "."
	hasNode := false
	err = listDirectory(fd, name, w.dents, func(base []byte, typ fs.FileMode) {
		member := dir.member || atRoot && string(base) == membersDir
		if entryIsInfrastructure(atRoot, base) {
			return
		}
		if !utf8.Valid(base) {
			w.add(contracts.FindingDocumentUnreadable, w.pathOf(dir.rel, base), "the name is not valid UTF-8, so the tree cannot refer to it; rename it")
			return
		}
		switch {
		case typ&fs.ModeSymlink != 0:
			w.add(contracts.FindingSymlinkUnsupported, w.pathOf(dir.rel, base), "symlinks are not supported in tree content; its target was not read")
		case typ.IsDir():
			w.subdirs = append(w.subdirs, walkDir{rel: w.pathOf(dir.rel, base), member: member})
		case !typ.IsRegular():
			w.add(contracts.FindingNotRegular, w.pathOf(dir.rel, base), "not a regular file or directory")
		case isDocumentName(base):
			if string(base) == NodeFile {
				hasNode = true
			}
			rel := w.pathOf(dir.rel, base)
			w.linkable = append(w.linkable, rel)
			w.scanned.Documents++
			if member {
				w.scanned.Member++
			} else {
				w.scanned.Normal++
			}
			w.checkDocument(fd, name, base, rel, atRoot && string(base) == NodeFile)
		default:
			w.scanned.Assets++
		}
	})
	if err != nil {
		w.add(contracts.FindingDocumentUnreadable, dir.rel, fmt.Sprintf("directory cannot be read: %v", unwrapPathError(err)))
		return
	}
	switch {
	case hasNode:
		w.linkable = append(w.linkable, dir.rel)
	case atRoot:
		w.add(contracts.FindingRootMissing, ".", "the tree root has no regular NODE.md")
	default:
		w.add(contracts.FindingDirectoryNodeMissing, dir.rel, "directory has no NODE.md index")
	}
}

// checkDocument reads and checks the document base of the directory open
// as dirfd (dirName its path, for errors; base as listDirectory gives it,
// followed by a NUL).
func (w *diskWorker) checkDocument(dirfd int, dirName string, base []byte, rel string, root bool) {
	// p shares base's bytes: it only names the file in an error, which
	// copies it (docPath.String).
	p := docPath{dir: dirName, rel: unsafe.String(unsafe.SliceData(base), len(base))}
	var data []byte
	fd, err := openNoFollowAtZ(dirfd, base[:len(base)+1])
	if err != nil {
		err = openError(p, err, contracts.MaxDocumentBytes)
	} else {
		data, err = readOpenDocument(&w.buf, fd, p, contracts.MaxDocumentBytes)
	}
	if err == nil && w.walk.observe != nil {
		w.walk.observe(rel, data)
	}
	r := checkBytesWith(w.x, docJob{rel: rel, root: root}, data, err, &w.scratch)
	w.findings = append(w.findings, r.findings...)
	if len(r.softLinks) > 0 {
		w.linking = append(w.linking, linkingDoc{rel: rel, links: int32(len(r.softLinks))})
		w.softLinks = append(w.softLinks, r.softLinks...)
	}
}

func (w *diskWorker) add(code contracts.FindingCode, rel, msg string) {
	w.findings = append(w.findings, contracts.Finding{Code: code, Message: msg, Path: rel})
}

// pathOf is joinEntryBytes(dir, base) laid in the worker's arena.
func (w *diskWorker) pathOf(dir string, base []byte) string { return w.arena.join(dir, base) }

// entryIsInfrastructure is ClassOf's infrastructure test of the entry name
// of a directory that is not infrastructure itself (atRoot: the root).
func entryIsInfrastructure(atRoot bool, name []byte) bool {
	return len(name) > 0 && name[0] == '.' || infrastructureNames[string(name)] ||
		instructionFiles[string(name)] || atRoot && string(name) == rootScriptsDir
}

// isDocumentName is IsDocumentName of a name given as bytes.
func isDocumentName(name []byte) bool {
	return len(name) > len(".md") && strings.HasSuffix(unsafe.String(unsafe.SliceData(name), len(name)), ".md")
}
