package session

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/internal/adapters/git"
	"github.com/git-context-tree/git-context-tree/internal/operations"
	"github.com/git-context-tree/git-context-tree/internal/tree"
)

// checkBoundary refuses a captured tree that differs from the base tree
// anywhere outside the subtree. It compares tree objects level by level
// along the subtree's path: at each level every entry but the one leading
// to the subtree must be the identical object. The levels are read at once
// through the inspection's object reader; a level it cannot decide
// alone (any difference beside the subtree's entry, the entry not a
// directory on both sides, a tree not in canonical form) is compared by
// git, exactly as every level used to be.
func checkBoundary(ctx context.Context, q *git.Quarantine, objects *git.Batch, s *contracts.Session, captured string) (outside []string, err error) {
	if s.Subtree == "." {
		return nil, nil
	}
	segs := strings.Split(s.Subtree, "/")
	var names []string
	for i := range segs {
		base, capt := s.Base+"^{tree}", captured
		if i > 0 {
			prefix := strings.Join(segs[:i], "/")
			base, capt = s.Base+":"+prefix, captured+":"+prefix
		}
		names = append(names, base, capt)
	}
	ids, trees, err := objects.Trees(names)
	if errors.Is(err, git.ErrUnusualTree) {
		ids, trees = nil, nil // every level is asked of git
	} else if err != nil {
		return nil, operations.GitError(err)
	}
	from, to := s.Base+"^{tree}", captured
	fast := ids != nil // until git decides a level, then git goes on
	for i, seg := range segs {
		if fast && ids[2*i] != "" && ids[2*i+1] != "" {
			if from, to = ids[2*i], ids[2*i+1]; from == to {
				return nil, nil // the subtree is untouched
			}
			if next, ok := sameBeside(trees[2*i], trees[2*i+1], seg); ok {
				from, to = next[0], next[1]
				continue
			}
		}
		fast = false
		changes, err := q.DiffTrees(ctx, from, to, false)
		if err != nil {
			return nil, operations.GitError(err)
		}
		// The entry leading to the subtree shows up twice when its type
		// changed (a directory replaced by a symlink or file is a deletion
		// and an addition): next is its new side.
		var next *git.TreeChange
		beside := false
		for j := range changes {
			switch {
			case changes[j].Path != seg:
				beside = true
			case next == nil || next.NewMode == "000000":
				next = &changes[j]
			}
		}
		if beside {
			return outsidePaths(ctx, q, from, to, strings.Join(segs[:i], "/"), seg), nil
		}
		if next == nil {
			return nil, nil // the subtree is untouched
		}
		switch next.NewMode {
		case "040000":
		case "160000":
			return nil, refuse(s, contracts.CodeNestedRepo, "the tree contains a nested git repository", []string{s.Subtree})
		default:
			return nil, treeInvalid(s, []contracts.Finding{{Code: contracts.FindingRootMissing, Path: ".",
				Message: "the tree's directory " + s.Subtree + " was deleted or replaced by a file or symlink"}})
		}
		from, to = next.OldID, next.NewID
	}
	return nil, nil
}

// sameBeside decides one level of the boundary check on its own when it
// is the common case: every entry of the two trees but the one named seg
// is the identical object (same name, mode and id, in the same order), and
// seg is a directory in both. It returns the two directories' ids; ok is
// false whenever git must compare the level.
func sameBeside(base, captured []git.TreeItem, seg string) (next [2]string, ok bool) {
	var b, c []git.TreeItem
	var bs, cs []git.TreeItem
	for _, it := range base {
		if it.Name == seg {
			bs = append(bs, it)
		} else {
			b = append(b, it)
		}
	}
	for _, it := range captured {
		if it.Name == seg {
			cs = append(cs, it)
		} else {
			c = append(c, it)
		}
	}
	if !slices.Equal(b, c) || len(bs) != 1 || len(cs) != 1 || !bs[0].IsTree() || !cs[0].IsTree() {
		return next, false
	}
	return [2]string{bs[0].ID, cs[0].ID}, true
}

// outsidePaths names every changed file outside the subtree, below the
// level where the boundary check found them (for the error message only).
func outsidePaths(ctx context.Context, q *git.Quarantine, from, to, prefix, seg string) []string {
	changes, err := q.DiffTrees(ctx, from, to, true)
	var paths []string
	for _, c := range changes {
		if c.Path == seg || strings.HasPrefix(c.Path, seg+"/") {
			continue
		}
		paths = append(paths, path.Join(prefix, c.Path))
	}
	if err != nil || len(paths) == 0 {
		paths = []string{path.Join(prefix, "…")}
	}
	return paths
}

// checkCapturedTree verifies the subtree of a captured tree exactly as it
// will be committed: no symlink and no nested repository anywhere in it
// (hidden directories included, modes as staged), and the tree verifier's
// rules on the staged blobs, read through the quarantine.
func checkCapturedTree(ctx context.Context, q *git.Quarantine, objects *git.Batch, s *contracts.Session, captured string) error {
	rev := captured
	if s.Subtree != "." {
		rev = captured + ":" + s.Subtree
	}
	listed, err := objects.ListTree(rev)
	if errors.Is(err, git.ErrUnusualTree) {
		listed, err = q.LsTree(ctx, rev, true)
	}
	if err != nil {
		return operations.GitError(err)
	}
	var entries []tree.IndexEntry
	var gitlinks []string
	var links []contracts.Finding
	docs := map[string]string{} // path → blob id
	for _, e := range listed {
		switch e.Mode {
		case "040000":
			continue
		case "160000":
			gitlinks = append(gitlinks, joinSubtree(s.Subtree, e.Path))
		case "120000":
			links = append(links, contracts.Finding{Code: contracts.FindingSymlinkUnsupported, Path: e.Path,
				Message: "symlinks are not supported in a tree, hidden directories included"})
		}
		te := tree.IndexEntry{Path: e.Path, Mode: e.Mode}
		entries = append(entries, te)
		if tree.WantsBlob(te) {
			docs[e.Path] = e.ID
		}
	}
	if len(gitlinks) > 0 {
		return refuse(s, contracts.CodeNestedRepo, "the tree contains a nested git repository", gitlinks)
	}
	blobs, err := readBlobs(objects, docs)
	if err != nil {
		return err
	}
	rep := tree.VerifyIndex(entries, blobs)
	findings := rep.Findings
	for _, l := range links {
		if !hasFinding(findings, l.Code, l.Path) {
			findings = append(findings, l)
		}
	}
	if len(findings) > 0 {
		return treeInvalid(s, findings)
	}
	return nil
}

// readBlobs reads documents' blobs through the inspection's reader.
func readBlobs(objects *git.Batch, docs map[string]string) (map[string][]byte, error) {
	blobs := make(map[string][]byte, len(docs))
	paths := make([]string, 0, len(docs))
	ids := make([]string, 0, len(docs))
	for p, id := range docs {
		paths, ids = append(paths, p), append(ids, id)
	}
	err := objects.Objects(ids, func(i int, id string, data []byte) error {
		if id == "" {
			return fmt.Errorf("blob %s of %s is missing", ids[i], paths[i])
		}
		blobs[paths[i]] = data
		return nil
	})
	if err != nil {
		return nil, operations.GitError(err)
	}
	return blobs, nil
}

func hasFinding(fs []contracts.Finding, code contracts.FindingCode, p string) bool {
	for _, f := range fs {
		if f.Code == code && f.Path == p {
			return true
		}
	}
	return false
}

func treeInvalid(s *contracts.Session, findings []contracts.Finding) error {
	e := contracts.Errorf(contracts.CodeTreeInvalid, "the session's tree does not verify (%s); fix them in %s and finish again",
		operations.CountFindings(len(findings)), s.ContentRoot)
	return e.WithDetails(map[string]any{"session": s.ID, "root": s.ContentRoot, "findings": findings})
}

func joinSubtree(subtree, rel string) string {
	if subtree == "." {
		return rel
	}
	return subtree + "/" + rel
}

// sessionGitDir is the session repository's own git directory.
func sessionGitDir(s *contracts.Session) string { return filepath.Join(s.Worktree, ".git") }

// nestedRefusal refuses a .git entry (at p, "dir/") anywhere in the
// session's work tree but its own: git stages a nested repository as a
// gitlink (or fails on one without commits) and never stages what lies in
// a .git directory, so its content would silently be left out.
func nestedRefusal(s *contracts.Session, p string) error {
	if !inSubtree(p, s.Subtree) {
		return refuse(s, contracts.CodePathOutsideTree, "the session created a nested git repository outside the tree "+s.Subtree, []string{p})
	}
	return refuse(s, contracts.CodeNestedRepo, "the tree contains a nested git repository", []string{p})
}

// nestedGit returns the work-tree-relative directory ("dir/") holding the
// first .git entry below top other than top's own, "" when there is none.
func nestedGit(top string) string {
	own := filepath.Join(top, ".git")
	found := ""
	filepath.WalkDir(top, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // unreadable: capture or verification reports it
		}
		if p == own {
			return filepath.SkipDir
		}
		if d.Name() == ".git" {
			rel, _ := filepath.Rel(top, filepath.Dir(p))
			found = filepath.ToSlash(rel) + "/"
			return filepath.SkipAll
		}
		return nil
	})
	return found
}

// checkHidden refuses new hidden and other infrastructure files in the
// tree (editor swap files, .DS_Store, node_modules): they are not content,
// and committing them is rarely meant. Changes to ones the base already
// tracks (the tree's own .gitignore) are allowed.
func checkHidden(s *contracts.Session, changes []git.TreeChange) error {
	var hidden []string
	for _, c := range changes {
		rel, ok := tree.Inside(s.Subtree, c.Path)
		if ok && c.OldMode == "000000" && tree.ClassOf(filepath.ToSlash(rel)) == contracts.ClassInfrastructure {
			hidden = append(hidden, c.Path)
		}
	}
	if len(hidden) > 0 {
		return refuse(s, contracts.CodeHiddenContent,
			"new hidden or infrastructure files in the tree would be committed (editor and system files, dot-directories, node_modules, …); remove them or pass --include-hidden", hidden)
	}
	return nil
}
