package git

import (
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"path"
	"strconv"
)

// Tree objects are read through the open cat-file of a repository, so a
// finish asks one process for its listings and comparisons instead of one
// ls-tree or diff-tree each. Only well-formed trees are read here: a tree
// whose entries are not strictly in git's order (or are repeated), or a
// name that is not a tree where one must be, makes the reader report
// ErrUnusualTree, and the caller asks git itself (ls-tree, diff-tree),
// whose answer is the reference, errors included.

// ErrUnusualTree is a tree object that is not in git's canonical form
// (entries out of order or repeated, an unparsable mode or entry).
var ErrUnusualTree = errors.New("tree object not in canonical form")

// TreeItem is one entry of a tree object, its mode canonical as git reads
// it (100644, 100755, 120000, 040000 or 160000).
type TreeItem struct {
	Mode string
	Name string
	ID   string
}

// IsTree reports a subtree entry.
func (t TreeItem) IsTree() bool { return t.Mode == "040000" }

// ParseTree parses a raw tree object ("<octal mode> <name>\0<raw id>"…)
// whose object ids are idLen bytes long.
func ParseTree(data []byte, idLen int) ([]TreeItem, error) {
	var items []TreeItem
	for len(data) > 0 {
		sp := bytes.IndexByte(data, ' ')
		if sp <= 0 {
			return nil, ErrUnusualTree
		}
		mode, err := strconv.ParseUint(string(data[:sp]), 8, 32)
		if err != nil {
			return nil, ErrUnusualTree
		}
		rest := data[sp+1:]
		nul := bytes.IndexByte(rest, 0)
		if nul <= 0 || len(rest) < nul+1+idLen {
			return nil, ErrUnusualTree
		}
		item := TreeItem{Mode: canonMode(uint32(mode)), Name: string(rest[:nul]), ID: hex.EncodeToString(rest[nul+1 : nul+1+idLen])}
		if n := len(items); n > 0 && compareEntries(items[n-1], item) >= 0 {
			return nil, ErrUnusualTree
		}
		items = append(items, item)
		data = rest[nul+1+idLen:]
	}
	return items, nil
}

// canonMode is git's canon_mode: the mode a tree entry is read with.
func canonMode(mode uint32) string {
	switch mode & 0o170000 {
	case 0o100000:
		if mode&0o100 != 0 {
			return "100755"
		}
		return "100644"
	case 0o120000:
		return "120000"
	case 0o040000:
		return "040000"
	}
	return "160000"
}

// compareEntries orders entries as git sorts a tree: by name, a subtree's
// name compared as if it ended in "/".
func compareEntries(a, b TreeItem) int {
	an, bn := a.Name, b.Name
	n := min(len(an), len(bn))
	if c := bytes.Compare([]byte(an[:n]), []byte(bn[:n])); c != 0 {
		return c
	}
	ac, bc := entryEnd(a, n), entryEnd(b, n)
	switch {
	case ac < bc:
		return -1
	case ac > bc:
		return 1
	}
	return 0
}

// entryEnd is the character after the first n of an entry's sort name.
func entryEnd(t TreeItem, n int) int {
	if n < len(t.Name) {
		return int(t.Name[n])
	}
	if t.IsTree() {
		return '/'
	}
	return 0
}

// Trees reads tree objects by name (ids or revision expressions such as
// <commit>^{tree} or <tree>:<path>), in order: a name that names no
// object or no tree gives a nil slice and "" as id.
func (b *Batch) Trees(names []string) (ids []string, trees [][]TreeItem, err error) {
	objs, err := b.Read(names)
	if err != nil {
		return nil, nil, err
	}
	ids, trees = make([]string, len(objs)), make([][]TreeItem, len(objs))
	for i, o := range objs {
		if o.ID == "" || o.Type != "tree" {
			continue
		}
		if trees[i], err = ParseTree(o.Data, len(o.ID)/2); err != nil {
			return nil, nil, fmt.Errorf("tree %s: %w", o.ID, err)
		}
		if trees[i] == nil {
			trees[i] = []TreeItem{}
		}
		ids[i] = o.ID
	}
	return ids, trees, nil
}

// ListTree lists every entry below a tree, subtrees included, in the
// order of `git ls-tree -r -t` with paths relative to the tree. It reads
// one level of subtrees per request.
func (b *Batch) ListTree(root string) ([]TreeEntry, error) {
	got, err := b.readLevels(root, "")
	if err != nil {
		return nil, err
	}
	rootID := got.ids[root]
	if rootID == "" {
		return nil, fmt.Errorf("%s is not a tree: %w", root, ErrUnusualTree)
	}
	var out []TreeEntry
	var walk func(prefix, id string)
	walk = func(prefix, id string) {
		for _, it := range got.trees[id] {
			p := path.Join(prefix, it.Name)
			out = append(out, TreeEntry{Mode: it.Mode, Type: typeOfMode(it.Mode), ID: it.ID, Path: p})
			if it.IsTree() {
				walk(p, it.ID)
			}
		}
	}
	walk("", rootID)
	return out, nil
}

func typeOfMode(mode string) string {
	switch mode {
	case "040000":
		return "tree"
	case "160000":
		return "commit"
	}
	return "blob"
}

// DiffTrees lists what `git diff-tree -r --raw` lists between two trees
// (named as Trees names them): every non-tree entry added, deleted or
// changed, paths relative to the trees, in git's order.
func (b *Batch) DiffTrees(from, to string) ([]TreeChange, error) {
	got, err := b.readLevels(from, to)
	if err != nil {
		return nil, err
	}
	fromID, toID := got.ids[from], got.ids[to]
	if fromID == "" || toID == "" {
		return nil, fmt.Errorf("%s or %s is not a tree: %w", from, to, ErrUnusualTree)
	}
	var out []TreeChange
	var diff func(prefix, oldID, newID string)
	diff = func(prefix, oldID, newID string) {
		if oldID == newID {
			return
		}
		mergeEntries(got.trees[oldID], got.trees[newID], func(o, n *TreeItem) {
			name := n
			if name == nil {
				name = o
			}
			p := path.Join(prefix, name.Name)
			switch {
			case o != nil && n != nil && o.IsTree() && n.IsTree():
				diff(p, o.ID, n.ID)
			case o != nil && o.IsTree():
				diff(p, o.ID, "")
			case n != nil && n.IsTree():
				diff(p, "", n.ID)
			case o == nil:
				out = append(out, TreeChange{OldMode: "000000", NewMode: n.Mode, OldID: zeroID(n.ID), NewID: n.ID, Path: p})
			case n == nil:
				out = append(out, TreeChange{OldMode: o.Mode, NewMode: "000000", OldID: o.ID, NewID: zeroID(o.ID), Path: p})
			case o.Mode != n.Mode || o.ID != n.ID:
				out = append(out, TreeChange{OldMode: o.Mode, NewMode: n.Mode, OldID: o.ID, NewID: n.ID, Path: p})
			}
		})
	}
	diff("", fromID, toID)
	return out, nil
}

func zeroID(like string) string { return string(bytes.Repeat([]byte{'0'}, len(like))) }

// mergeEntries walks two sorted entry lists side by side, calling fn with
// the entries of one sort key (nil for a side that lacks it). A subtree
// and a file of the same name are different keys, as in git's diff.
func mergeEntries(old, cur []TreeItem, fn func(o, n *TreeItem)) {
	i, j := 0, 0
	for i < len(old) || j < len(cur) {
		switch {
		case j == len(cur) || (i < len(old) && compareEntries(old[i], cur[j]) < 0):
			fn(&old[i], nil)
			i++
		case i == len(old) || compareEntries(old[i], cur[j]) > 0:
			fn(nil, &cur[j])
			j++
		default:
			fn(&old[i], &cur[j])
			i, j = i+1, j+1
		}
	}
}

// treeLevels holds the trees read: ids by the names first asked, and
// entries by tree id ("" is the empty tree).
type treeLevels struct {
	ids   map[string]string
	trees map[string][]TreeItem
}

// readLevels reads the trees named from and to ("" for none), then level
// after level the pairs of subtrees a recursive diff of them descends
// into (a subtree against nothing when the other side has none): one
// request to cat-file per level.
func (b *Batch) readLevels(from, to string) (*treeLevels, error) {
	got := &treeLevels{ids: map[string]string{}, trees: map[string][]TreeItem{"": {}}}
	names := []string{from}
	if to != "" {
		names = append(names, to)
	}
	ids, trees, err := b.Trees(names)
	if err != nil {
		return nil, err
	}
	for i, n := range names {
		got.ids[n] = ids[i]
		if ids[i] != "" {
			got.trees[ids[i]] = trees[i]
		}
	}
	pairs := [][2]string{{got.ids[from], got.ids[to]}}
	for len(pairs) > 0 {
		var want []string
		var next [][2]string
		for _, p := range pairs {
			mergeEntries(got.trees[p[0]], got.trees[p[1]], func(o, n *TreeItem) {
				var pair [2]string
				switch {
				case o != nil && n != nil && o.IsTree() && n.IsTree():
					if o.ID == n.ID {
						return
					}
					pair = [2]string{o.ID, n.ID}
				case o != nil && o.IsTree():
					pair = [2]string{o.ID, ""}
				case n != nil && n.IsTree():
					pair = [2]string{"", n.ID}
				default:
					return
				}
				next = append(next, pair)
				for _, id := range pair {
					if _, ok := got.trees[id]; !ok {
						got.trees[id] = nil // asked once
						want = append(want, id)
					}
				}
			})
		}
		if len(want) > 0 {
			wids, wtrees, err := b.Trees(want)
			if err != nil {
				return nil, err
			}
			for i, id := range want {
				if wids[i] == "" {
					return nil, fmt.Errorf("tree %s is missing or not a tree: %w", id, ErrUnusualTree)
				}
				got.trees[id] = wtrees[i]
			}
		}
		pairs = next
	}
	return got, nil
}
