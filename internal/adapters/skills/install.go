package skills

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Change is what Install or Uninstall did in one location (or, dry, would
// do).
type Change struct {
	Location Location
	// Skills are the skills installed, or the entries uninstalled.
	Skills []string
	// Removed are context-tree-* entries install removed because this
	// binary does not ship them.
	Removed []string
	Changed bool
}

// entries lists a skills directory's context-tree-* entries and leftover
// staging directories, sorted.
func entries(dir string) (owned, leftovers []string, err error) {
	des, err := os.ReadDir(dir)
	if err != nil {
		return nil, nil, ioErr("read", dir, err)
	}
	for _, e := range des {
		switch n := e.Name(); {
		case strings.HasPrefix(n, stagingPrefix):
			leftovers = append(leftovers, n)
		case strings.HasPrefix(n, Prefix):
			owned = append(owned, n)
		}
	}
	sort.Strings(owned)
	return owned, leftovers, nil
}

// Install makes loc's context-tree-* entries exactly the bundle's skills:
// each skill that differs (or a foreign entry of the same name) is built
// in a staging directory beside them and swapped in, context-tree-*
// entries the bundle lacks are removed, and leftovers of an interrupted
// install are cleared. Other skills are never touched. An unchanged
// location is not written at all.
func Install(loc Location, b *Bundle, dry bool) (Change, error) {
	ch := Change{Location: loc, Skills: b.Names()}
	exists, err := checkPath(loc)
	if err != nil {
		return ch, err
	}
	dir := loc.Dir()
	var write, leftovers []string
	if exists {
		var owned []string
		if owned, leftovers, err = entries(dir); err != nil {
			return ch, err
		}
		for _, n := range owned {
			if _, ours := b.Skill(n); !ours {
				ch.Removed = append(ch.Removed, n)
			}
		}
	}
	for i := range b.Skills {
		s := &b.Skills[i]
		if !exists || !sameSkill(filepath.Join(dir, s.Name), s) {
			write = append(write, s.Name)
		}
	}
	ch.Changed = len(write)+len(ch.Removed)+len(leftovers) > 0
	if dry || !ch.Changed {
		return ch, nil
	}
	if err := makeDirs(loc); err != nil {
		return ch, err
	}
	st, err := newStaging(dir)
	if err != nil {
		return ch, err
	}
	defer st.discard()
	for _, n := range write {
		s, _ := b.Skill(n)
		if err := st.build(s); err != nil {
			return ch, err
		}
	}
	for _, n := range write {
		if err := st.swapIn(n); err != nil {
			return ch, err
		}
	}
	for _, n := range ch.Removed {
		if err := st.moveOut(n); err != nil {
			return ch, err
		}
	}
	return ch, finish(st, dir, leftovers)
}

// Uninstall removes every context-tree-* entry of loc and any leftover
// staging directory; other skills and the directory itself stay.
func Uninstall(loc Location, dry bool) (Change, error) {
	ch := Change{Location: loc, Skills: []string{}}
	exists, err := checkPath(loc)
	if err != nil || !exists {
		return ch, err
	}
	dir := loc.Dir()
	owned, leftovers, err := entries(dir)
	if err != nil {
		return ch, err
	}
	ch.Skills = append(ch.Skills, owned...)
	ch.Changed = len(owned)+len(leftovers) > 0
	if dry || !ch.Changed {
		return ch, nil
	}
	st, err := newStaging(dir)
	if err != nil {
		return ch, err
	}
	defer st.discard()
	for _, n := range owned {
		if err := st.moveOut(n); err != nil {
			return ch, err
		}
	}
	return ch, finish(st, dir, leftovers)
}

// finish deletes the staging directory (with the entries swapped out) and
// the leftovers of interrupted runs, then syncs the skills directory.
func finish(st *staging, dir string, leftovers []string) error {
	if err := st.discard(); err != nil {
		return err
	}
	for _, n := range leftovers {
		if err := removeAll(filepath.Join(dir, n)); err != nil {
			return err
		}
	}
	return syncDir(dir)
}
