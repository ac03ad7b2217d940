package staged

// The delta path: most commits of a tree edit a few of its documents in
// place. When the tree as HEAD holds it is known to verify (its tree id
// is in verified-trees) and the commit only changes the content of regular
// files already there (same paths, same modes), everything that depends
// on the rest of the tree is HEAD's: the same directories and NODE.md
// files, the same linkable paths, no symlink or gitlink (a tree that
// verified has none the walk reaches). What the commit holds then verifies
// exactly when each edited document does on its own (tree.CheckDocument)
// and its soft links name documents or indexed directories of HEAD's tree
// (asked of the open cat-file, path by path). No index is listed and no
// other document is looked at: the work is that of the edit, plus the
// diff git runs anyway. TestDeltaEqualsFullVerify holds it to the full
// verification of the index.
//
// A commit's tree id is not known before it is made (git write-tree would
// write the index), so a passing check leaves a pending record in
// tree-states: HEAD's tree id, the commit's changes below the tree and
// what it scanned. The next check finds HEAD's new tree unknown, and
// proves it is that record's tree plus those changes by diffing the two
// trees through cat-file (Batch.DiffTrees): then it is verified, and its
// citations are HEAD's old ones with the edited documents' replaced.

import (
	"encoding/binary"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

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
	edits   bool             // only content edits of regular files in place
}

// deltaOf takes the changes below prefix. A change at the prefix itself
// or above it (the tree replaced by a file or symlink) is no edit.
func deltaOf(changes []git.TreeChange, prefix string) treeDelta {
	d := treeDelta{edits: true}
	for _, c := range changes {
		if !under(c.Path, prefix) && !under(prefix, c.Path) {
			continue
		}
		rel, ok := strings.CutPrefix(c.Path, prefix+"/")
		if prefix == "." {
			rel, ok = c.Path, true
		}
		if !ok {
			d.edits = false
			continue
		}
		c.Path = rel
		d.changes = append(d.changes, c)
		if c.OldMode != c.NewMode || (c.NewMode != "100644" && c.NewMode != "100755") {
			d.edits = false
		}
	}
	return d
}

// deltaReport verifies one tree by the delta path: ok false when it does
// not apply (the full path must run). head is HEAD's entry at the tree's
// prefix; citing, when notes are wanted, is what HEAD's tree cites.
func (r *run) deltaReport(t declared, head git.IndexEntry, d treeDelta, states *treeStates) (*contracts.TreeReport, []tree.DocResult, []doc, bool, error) {
	scanned, known := states.scan(head.ID)
	if head.Mode != "040000" || !r.verified.has(head.ID) || !known || !d.edits {
		return nil, nil, nil, false, nil
	}
	var docs []doc
	for _, c := range d.changes {
		if tree.WantsBlob(tree.IndexEntry{Path: c.Path, Mode: c.NewMode}) {
			docs = append(docs, doc{rel: c.Path, id: c.NewID})
		}
	}
	if len(docs) > deltaMaxDocs {
		return nil, nil, nil, false, nil
	}
	root := filepath.Join(r.top, filepath.FromSlash(t.prefix))
	// No staged cache: a few documents parse faster than it loads.
	results, err := (&cache{}).results(docs, root, r.objects)
	if err != nil {
		return nil, nil, nil, false, gitErr(err)
	}
	lk := &headLinkable{objects: r.objects, tree: head.ID, known: map[string]bool{}}
	findings := []contracts.Finding{}
	for i, res := range results {
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
// indexed directory of HEAD's tree, which verified: every directory the
// walk reaches there has its NODE.md, and nothing it reaches is a symlink
// or gitlink.
type headLinkable struct {
	objects   *git.Batch
	tree      string
	known     map[string]bool
	unaskable bool // a path cat-file cannot be asked (a newline in it)
	err       error
}

func (h *headLinkable) linkable(p string) bool {
	if p == "." {
		return true
	}
	if v, ok := h.known[p]; ok {
		return v
	}
	v := false
	switch {
	case !tree.WalkReaches(p):
	case strings.ContainsAny(p, "\n\r") || h.err != nil:
		h.unaskable = true
	default:
		objs, err := h.objects.Read([]string{h.tree + ":" + p})
		if err != nil {
			h.err = err
			break
		}
		o := objs[0]
		v = o.Type == "tree" || (o.Type == "blob" && tree.IsDocumentName(path.Base(p)))
	}
	h.known[p] = v
	return v
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
