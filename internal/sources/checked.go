package sources

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
)

// A commit never changes, so once a subtree of it passed checkSubtree the
// verdict holds forever. It is remembered in snapshots/<owner>/<repo>/
// <commit>.subtrees (one subtree per line) so that an unchanged sync does
// not list the tree again.

func (m *Managed) checkedFile(repository, commit string) (string, error) {
	snap, err := m.snapshotPath(repository, commit)
	if err != nil {
		return "", err
	}
	return snap + ".subtrees", nil
}

// checkSubtreeOnce runs checkSubtree unless the subtree of this commit
// already passed it.
func (m *Managed) checkSubtreeOnce(ctx context.Context, cache, repository, commit, subtree string) error {
	file, err := m.checkedFile(repository, commit)
	if err != nil {
		return err
	}
	data, _ := m.Home.ReadFile(file) // none, or through a symlink: check again
	known := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	if slices.Contains(known, subtree) {
		return nil
	}
	if err := m.checkSubtree(ctx, cache, commit, subtree); err != nil {
		return err
	}
	known = append(slices.DeleteFunc(known, func(s string) bool { return s == "" }), subtree)
	// Remembering is an optimisation: failing to write only costs a re-check.
	_ = m.Home.WriteFile(filepath.Dir(file), filepath.Base(file), []byte(strings.Join(known, "\n")+"\n"))
	return nil
}
