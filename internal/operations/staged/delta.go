package staged

// The delta path: most commits of a tree edit a few of its documents in
// place or add a few. When the tree as HEAD holds it is known to verify
// (its tree id is in verified-trees) and the commit only changes the
// content of regular files already there (same paths, same modes) or
// adds regular files to directories HEAD has, everything that depends on
// the rest of the tree is HEAD's: the same directories and NODE.md files,
// no symlink or gitlink (a tree that verified has none the walk reaches),
// the same linkable paths plus the added documents. What the commit holds
// then verifies exactly when each edited or added document does on its
// own (tree.CheckDocument) and its soft links name documents or indexed
// directories of HEAD's tree or documents the commit adds (HEAD's asked
// of the open cat-file, path by path). No index is listed and no other
// document is looked at: the work is that of the change, plus the diff
// git runs anyway. TestDeltaEqualsFullVerify and TestDeltaAdditions hold
// it to the full verification of the index.
//
// Why that is the whole verification (tree.verifyContent and walkDir are
// every check S16 makes; the Markdown-link, anchor and wikilink checks
// that compare documents with each other are opt-in, verify --links, and
// never part of the hook):
//   - Per directory: it is read and counted, and must hold a regular
//     NODE.md. An addition lands in a directory HEAD holds that the walk
//     reaches, so it already has its NODE.md (HEAD verified) and the
//     count is unchanged; a new NODE.md, or anything in a new directory,
//     takes the full path. Nothing is deleted the walk could see, so no
//     directory or NODE.md goes away, and an added path cannot replace a
//     directory: git's index holds no file beside files below the same
//     path, and every directory the walk reaches holds a NODE.md the
//     walk reaches, whose deletion would show.
//   - Per entry: a name that is not UTF-8 is a finding (an addition with
//     one takes the full path; HEAD's names are all valid); a symlink or
//     gitlink is a finding (an addition of one takes the full path); a
//     regular file is a document (counted, Member or Normal by its
//     class) or an asset (counted). The counts are HEAD's (tree-states)
//     plus the added files'.
//   - Per document: its findings depend on its path and bytes alone
//     (tree.CheckDocument), so only edited and added ones change.
//   - Soft links: each is checked against the set of linkable paths.
//     Additions only grow that set (edits and unseen changes leave it
//     alone), and HEAD's unchanged documents had no broken soft link, so
//     they have none now; edited and added documents are checked against
//     HEAD's set plus the added documents, the relative-path hint too.
//   - Nothing else compares documents: no check of titles, ids, order,
//     case or of what a NODE.md mentions. Names differing only in case
//     are separate paths for the index's walk as for git.
//   - Paths the walk never reaches (tree.WalkReaches: below hidden or
//     infrastructure directories, instruction-file names) are never
//     listed, whatever the change; a document there is parsed for its
//     citations, as the full path parses it, and reports nothing.
//
// A commit's tree id is not known before it is made (git write-tree would
// write the index), so a passing check leaves a pending record in
// tree-states: HEAD's tree id, the commit's changes below the tree and
// what it scanned. The next check finds HEAD's new tree unknown, and
// proves it is that record's tree plus those changes by diffing the two
// trees through cat-file (Batch.DiffTrees): then it is verified, and its
// citations are HEAD's old ones with the changed documents' replaced
// (an added document's added, a deleted one's dropped).

import (
	"encoding/binary"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/adapters/git"
	"github.com/git-context-tree/git-context-tree/internal/cachefile"
	"github.com/git-context-tree/git-context-tree/internal/tree"
)

const (
	statesName  = "tree-states"
	statesMagic = "git-context-tree tree states 1\n"
	// statesKeepScans and statesKeepPending bound the file: trees of a few
	// declared directories on a few branches.
	statesKeepScans   = 64
	statesKeepPending = 8
	// deltaMaxDocs is the most edited documents the delta path checks one
	// by one; a larger commit takes the full path (and the staged cache).
	deltaMaxDocs = 256
	// pendingMaxChanges is the largest commit a pending record describes.
	pendingMaxChanges = 4096
)

// deltaChange is one entry a passing check saw the commit change below a
// tree: tree-relative, the new mode ("000000" when deleted) and id, and
// what the document there cites.
type deltaChange struct {
	rel, mode, id string
	cites         []string
}

type pendingState struct {
	base    string // the tree id HEAD held at the tree's prefix
	scanned contracts.Scanned
	changes []deltaChange // in git's order
	// citing, when whole, is everything the tree then cites (a full
	// verification has it in hand); else the proof takes the base's
	// citations with the changed documents' replaced.
	whole  bool
	citing []citation
}

type scanRecord struct {
	id      string
	scanned contracts.Scanned
}

// treeStates is <git common dir>/context-tree/tree-states: what each
// verified tree scanned (a report needs the counts), and the pending
// records. Like every cache here it is keyed to the binary, replaced
// atomically and checked by CRC-32C: a torn or foreign file is empty.
type treeStates struct {
	file, fingerprint string
	scans             []scanRecord   // oldest first
	pending           []pendingState // oldest first
	dirty             bool
}

func openStates(commonDir string) *treeStates {
	s := &treeStates{fingerprint: cacheFingerprint()}
	if commonDir == "" {
		return s
	}
	s.file = filepath.Join(commonDir, cacheDir, statesName)
	if data, err := os.ReadFile(s.file); err == nil {
		s.scans, s.pending, _ = decodeStates(data, s.fingerprint)
	}
	return s
}

func (s *treeStates) scan(id string) (contracts.Scanned, bool) {
	for _, r := range s.scans {
		if r.id == id {
			return r.scanned, true
		}
	}
	return contracts.Scanned{}, false
}

func (s *treeStates) addScan(id string, scanned contracts.Scanned) {
	if _, ok := s.scan(id); ok || !validObjectID(id) {
		return
	}
	s.scans = append(s.scans, scanRecord{id, scanned})
	if len(s.scans) > statesKeepScans {
		s.scans = s.scans[len(s.scans)-statesKeepScans:]
	}
	s.dirty = true
}

func (s *treeStates) addPending(p pendingState) {
	if !validObjectID(p.base) || len(p.changes) == 0 || len(p.changes) > pendingMaxChanges {
		return
	}
	s.pending = append(s.pending, p)
	if len(s.pending) > statesKeepPending {
		s.pending = s.pending[len(s.pending)-statesKeepPending:]
	}
	s.dirty = true
}

func (s *treeStates) save() {
	if s.file == "" || !s.dirty {
		return
	}
	cachefile.Write(s.file, encodeStates(s.fingerprint, s.scans, s.pending))
}

// treeDelta is the commit's changes below one tree, tree-relative.
type treeDelta struct {
	changes []git.TreeChange // Path tree-relative
	// local: only content edits of regular files in place, additions of
	// regular files and changes the walk never sees, nothing at the
	// prefix or above it.
	local bool
}

// isRegular reports a git mode of a regular file.
func isRegular(mode string) bool { return mode == "100644" || mode == "100755" }

// deltaOf takes the changes below prefix. A change at the prefix itself
// or above it (the tree replaced by a file or symlink) is not local; a
// change of a path the walk never reaches (tree.WalkReaches) always is.
func deltaOf(changes []git.TreeChange, prefix string) treeDelta {
	d := treeDelta{local: true}
	for _, c := range changes {
		if !under(c.Path, prefix) && !under(prefix, c.Path) {
			continue
		}
		rel, ok := strings.CutPrefix(c.Path, prefix+"/")
		if prefix == "." {
			rel, ok = c.Path, true
		}
		if !ok {
			d.local = false
			continue
		}
		c.Path = rel
		d.changes = append(d.changes, c)
		if !tree.WalkReaches(rel) {
			continue // the walk never lists it: any change is local
		}
		edit := c.OldMode == c.NewMode && isRegular(c.NewMode)
		added := c.OldMode == "000000" && isRegular(c.NewMode)
		if !edit && !added {
			d.local = false
		}
	}
	return d
}

// deltaReport verifies one tree by the delta path: ok false when it does
// not apply (the full path must run). head is HEAD's entry at the tree's
// prefix; citing, when notes are wanted, is what HEAD's tree cites.
func (r *run) deltaReport(t declared, head git.IndexEntry, d treeDelta, states *treeStates) (*contracts.TreeReport, []tree.DocResult, []doc, bool, error) {
	scanned, known := states.scan(head.ID)
	if head.Mode != "040000" || !r.verified.has(head.ID) || !known || !d.local || len(d.changes) > pendingMaxChanges {
		return nil, nil, nil, false, nil
	}
	lk := &headLinkable{objects: r.objects, tree: head.ID, known: map[string]string{}, added: map[string]bool{}}
	// Additions the walk reaches must land in a directory HEAD holds:
	// asked of cat-file together.
	var dirs []string
	for _, c := range d.changes {
		if c.OldMode == "000000" && tree.WalkReaches(c.Path) {
			dirs = append(dirs, path.Dir(c.Path))
		}
	}
	lk.ask(dirs)
	var docs []doc
	for _, c := range d.changes {
		reached := tree.WalkReaches(c.Path)
		if c.OldMode == "000000" && reached {
			name := path.Base(c.Path)
			if !utf8.ValidString(name) || name == tree.NodeFile || !lk.isDir(path.Dir(c.Path)) {
				return nil, nil, nil, false, nil
			}
			if !tree.IsDocumentName(name) {
				scanned.Assets++
				continue
			}
			lk.added[c.Path] = true
			scanned.Documents++
			if tree.ClassOf(c.Path) == contracts.ClassMember {
				scanned.Member++
			} else {
				scanned.Normal++
			}
		}
		// A document the walk does not reach (below a directory named
		// like an instruction file) is parsed for its citations, as the
		// full path parses it, but reports nothing.
		if isRegular(c.NewMode) && tree.WantsBlob(tree.IndexEntry{Path: c.Path, Mode: c.NewMode}) {
			docs = append(docs, doc{rel: c.Path, id: c.NewID})
		}
	}
	if lk.err != nil {
		return nil, nil, nil, false, gitErr(lk.err)
	}
	if lk.unaskable || len(docs) > deltaMaxDocs {
		return nil, nil, nil, false, nil
	}
	root := filepath.Join(r.top, filepath.FromSlash(t.prefix))
	// No staged cache: a few documents parse faster than it loads.
	results, err := (&cache{}).results(docs, root, r.objects)
	if err != nil {
		return nil, nil, nil, false, gitErr(err)
	}
	findings := []contracts.Finding{}
	for i, res := range results {
		if !tree.WalkReaches(docs[i].rel) {
			continue
		}
		findings = append(findings, res.Findings...)
		findings = append(findings, tree.CheckSoftLinks(docs[i].rel, res.SoftLinks, lk.linkable)...)
	}
	if lk.err != nil {
		return nil, nil, nil, false, gitErr(lk.err)
	}
	if lk.unaskable {
		return nil, nil, nil, false, nil
	}
	findings = tree.SortFindings(findings)
	return &contracts.TreeReport{Root: root, Selector: t.conn.Exact, OK: len(findings) == 0, Findings: findings, Scanned: scanned},
		results, docs, true, nil
}

// headLinkable answers whether a tree-relative path is a document or an
// indexed directory of the commit's tree, from HEAD's tree and the
// documents the commit adds. HEAD's tree verified: every directory the
// walk reaches there has its NODE.md, and nothing it reaches is a symlink
// or gitlink; the commit adds no directory and deletes nothing.
type headLinkable struct {
	objects   *git.Batch
	tree      string
	known     map[string]string // path → its object type in HEAD's tree, "" for none or not reached
	added     map[string]bool   // the documents the walk reaches that the commit adds
	unaskable bool              // a path cat-file cannot be asked (a newline in it)
	err       error
}

// ask looks up the types of paths not known yet, in one request.
func (h *headLinkable) ask(paths []string) {
	var names, asked []string
	for _, p := range paths {
		if _, ok := h.known[p]; ok || p == "." || slices.Contains(asked, p) {
			continue
		}
		switch {
		case !tree.WalkReaches(p):
			h.known[p] = ""
		case strings.ContainsAny(p, "\n\r") || h.err != nil:
			h.unaskable = true
			h.known[p] = ""
		default:
			names = append(names, h.tree+":"+p)
			asked = append(asked, p)
		}
	}
	if len(names) == 0 {
		return
	}
	objs, err := h.objects.Read(names)
	if err != nil {
		h.err = err
		for _, p := range asked {
			h.known[p] = ""
		}
		return
	}
	for i, p := range asked {
		h.known[p] = objs[i].Type
	}
}

func (h *headLinkable) kind(p string) string {
	if p == "." {
		return "tree"
	}
	if _, ok := h.known[p]; !ok {
		h.ask([]string{p})
	}
	return h.known[p]
}

// isDir reports a directory of HEAD's tree the walk reaches.
func (h *headLinkable) isDir(p string) bool { return h.kind(p) == "tree" }

func (h *headLinkable) linkable(p string) bool {
	if h.added[p] {
		return true
	}
	switch h.kind(p) {
	case "tree":
		return true
	case "blob":
		return tree.IsDocumentName(path.Base(p))
	}
	return false
}

// pendingOf is the record a passing check leaves: the commit's changes
// below the tree, with what each document there now cites.
func pendingOf(head git.IndexEntry, scanned contracts.Scanned, d treeDelta, cites map[string][]string) pendingState {
	p := pendingState{base: head.ID, scanned: scanned}
	for _, c := range d.changes {
		p.changes = append(p.changes, deltaChange{rel: c.Path, mode: c.NewMode, id: c.NewID, cites: cites[c.Path]})
	}
	return p
}

func citesOfDocs(docs []doc, results []tree.DocResult) map[string][]string {
	cites := make(map[string][]string, len(docs))
	for i, dc := range docs {
		cites[dc.rel] = results[i].Cites
	}
	return cites
}

func citesOfCitations(citing []citation) map[string][]string {
	cites := map[string][]string{}
	for _, c := range citing {
		cites[c.doc] = append(cites[c.doc], c.path)
	}
	return cites
}

// prove marks HEAD's tree id verified when a pending record describes it:
// the record's base tree plus its changes, exactly (diffed through
// cat-file). Its citations follow when the base's are indexed.
func (r *run) prove(head string, states *treeStates, cits *citations) {
	if r.verified.has(head) {
		return
	}
	for i := len(states.pending) - 1; i >= 0; i-- {
		p := states.pending[i]
		if p.base == head {
			continue
		}
		diff, err := r.objects.DiffTrees(p.base, head)
		if err != nil || !sameChanges(diff, p.changes) {
			continue
		}
		r.verified.add(head)
		states.addScan(head, p.scanned)
		if p.whole {
			cits.put(head, p.citing)
		} else if base, ok := cits.lookup(p.base); ok {
			cits.put(head, replaceCitations(base, p.changes))
		}
		return
	}
}

func sameChanges(diff []git.TreeChange, changes []deltaChange) bool {
	if len(diff) != len(changes) {
		return false
	}
	want := make(map[string]deltaChange, len(changes))
	for _, c := range changes {
		want[c.rel] = c
	}
	for _, c := range diff {
		w, ok := want[c.Path]
		if !ok || w.mode != c.NewMode || (c.NewMode != "000000" && w.id != c.NewID) {
			return false
		}
	}
	return true
}

// replaceCitations is a tree's citations after changes: the changed
// documents' old entries dropped, their new ones added.
func replaceCitations(base []citation, changes []deltaChange) []citation {
	changed := map[string]bool{}
	for _, c := range changes {
		changed[c.rel] = true
	}
	out := slices.DeleteFunc(slices.Clone(base), func(ct citation) bool { return changed[ct.doc] })
	for _, c := range changes {
		for _, p := range c.cites {
			out = append(out, citation{doc: c.rel, path: p})
		}
	}
	slices.SortStableFunc(out, func(a, b citation) int { return strings.Compare(a.doc, b.doc) })
	return out
}

// The file: magic, fingerprint, then the scans (id and five counts) and
// the pending records (base, five counts, changes: path, mode, id, cites),
// CRC-32C of all that; as the other caches here.
func encodeStates(fingerprint string, scans []scanRecord, pending []pendingState) []byte {
	b := cachefile.Begin(statesMagic, fingerprint)
	appendScanned := func(b []byte, s contracts.Scanned) []byte {
		for _, n := range []int{s.Documents, s.Directories, s.Assets, s.Normal, s.Member} {
			b = binary.AppendUvarint(b, uint64(n))
		}
		return b
	}
	b = binary.AppendUvarint(b, uint64(len(scans)))
	for _, s := range scans {
		b = cachefile.AppendString(b, s.id)
		b = appendScanned(b, s.scanned)
	}
	b = binary.AppendUvarint(b, uint64(len(pending)))
	for _, p := range pending {
		b = cachefile.AppendString(b, p.base)
		b = appendScanned(b, p.scanned)
		b = binary.AppendUvarint(b, uint64(len(p.changes)))
		for _, c := range p.changes {
			b = cachefile.AppendString(b, c.rel)
			b = cachefile.AppendString(b, c.mode)
			b = cachefile.AppendString(b, c.id)
			b = binary.AppendUvarint(b, uint64(len(c.cites)))
			for _, ct := range c.cites {
				b = cachefile.AppendString(b, ct)
			}
		}
		whole := uint64(0)
		if p.whole {
			whole = 1
		}
		b = binary.AppendUvarint(b, whole)
		b = binary.AppendUvarint(b, uint64(len(p.citing)))
		for _, ct := range p.citing {
			b = cachefile.AppendString(b, ct.doc)
			b = cachefile.AppendString(b, ct.path)
		}
	}
	return cachefile.Seal(b)
}

func decodeStates(data []byte, fingerprint string) ([]scanRecord, []pendingState, error) {
	d, err := cachefile.Open(data, statesMagic, fingerprint)
	if err != nil {
		return nil, nil, err
	}
	scanned := func() contracts.Scanned {
		n := func() int { return int(min(d.Uvarint(), 1<<31)) }
		return contracts.Scanned{Documents: n(), Directories: n(), Assets: n(), Normal: n(), Member: n()}
	}
	scans := make([]scanRecord, d.Count())
	for i := range scans {
		scans[i].id = d.String()
		scans[i].scanned = scanned()
	}
	pending := make([]pendingState, d.Count())
	for i := range pending {
		pending[i].base = d.String()
		pending[i].scanned = scanned()
		pending[i].changes = make([]deltaChange, d.Count())
		for k := range pending[i].changes {
			c := &pending[i].changes[k]
			c.rel, c.mode, c.id = d.String(), d.String(), d.String()
			if n := d.Count(); n > 0 {
				c.cites = make([]string, n)
				for j := range c.cites {
					c.cites[j] = d.String()
				}
			}
		}
		pending[i].whole = d.Uvarint() == 1
		if n := d.Count(); n > 0 {
			pending[i].citing = make([]citation, n)
			for k := range pending[i].citing {
				pending[i].citing[k] = citation{doc: d.String(), path: d.String()}
			}
		}
	}
	if !d.Done() {
		return nil, nil, cachefile.ErrCorrupt
	}
	return scans, pending, nil
}
