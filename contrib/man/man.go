// Package man holds the git-context-tree(1) man page, embedded in the
// binary so that `git context-tree man --install` can put it where
// `git context-tree --help` (git runs `man git-context-tree`) finds it.
package man

import _ "embed"

// Page is git-context-tree(1) in roff.
//
//go:embed git-context-tree.1
var Page []byte

// Name is the page's file name in a man1 directory.
const Name = "git-context-tree.1"
