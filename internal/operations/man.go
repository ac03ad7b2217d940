package operations

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"

	"github.com/git-context-tree/git-context-tree/contracts"
	"github.com/git-context-tree/git-context-tree/contrib/man"
	"github.com/git-context-tree/git-context-tree/internal/adapters/atomicfile"
)

// ManPage is `man` without --install: the page itself.
func ManPage() *contracts.ManResult {
	return &contracts.ManResult{SchemaVersion: contracts.CLIVersion, Action: contracts.ManPrinted, Page: string(man.Page)}
}

// ManInstall writes the man page into root/man1 (root "" picks the
// default, DefaultManRoot) so that `git context-tree --help`, for which
// git runs `man git-context-tree`, finds it. Reinstalling the same page
// changes nothing. A relative root is relative to dir, the command's
// directory. getenv reads MANPATH, PATH, XDG_DATA_HOME and HOME.
func ManInstall(dir, root, exe string, getenv func(string) string) (*contracts.ManResult, error) {
	if root == "" {
		root = DefaultManRoot(exe, getenv)
	}
	if root == "" {
		return nil, contracts.Errorf(contracts.CodeUsage, "cannot tell where to install the man page (no HOME); pass --man-dir <dir>")
	}
	if !filepath.IsAbs(root) {
		root = filepath.Join(dir, root)
	}
	root = filepath.Clean(strings.TrimSuffix(filepath.Clean(root), string(filepath.Separator)+"man1"))
	man1 := filepath.Join(root, "man1")
	page := filepath.Join(man1, man.Name)
	res := &contracts.ManResult{SchemaVersion: contracts.CLIVersion, Action: contracts.ManInstalled, Path: page}
	if old, err := os.ReadFile(page); err == nil && bytes.Equal(old, man.Page) {
		res.Action = contracts.ManUnchanged
	} else {
		if err := os.MkdirAll(man1, 0o755); err != nil {
			return nil, contracts.Errorf(contracts.CodeIO, "cannot create %s: %v", man1, err)
		}
		if err := atomicfile.Write(page, man.Page, 0o644); err != nil {
			return nil, contracts.Errorf(contracts.CodeIO, "cannot write %s: %v", page, err)
		}
	}
	res.Found = manSearches(root, getenv)
	if !res.Found {
		res.Hint = "man does not search " + root + ", so `git context-tree --help` will not find the page; add it to MANPATH: export MANPATH=\"" + root + ":$MANPATH\""
	}
	return res, nil
}

// DefaultManRoot is where the page goes by default: beside the binary
// (<prefix>/share/man for <prefix>/bin/git-context-tree), which man
// searches whenever <prefix>/bin is on PATH, as it is for git to run the
// binary; else the user's data directory ($XDG_DATA_HOME/man, or
// ~/.local/share/man).
func DefaultManRoot(exe string, getenv func(string) string) string {
	if exe != "" {
		if real, err := filepath.EvalSymlinks(exe); err == nil {
			exe = real
		}
		if bin := filepath.Dir(exe); filepath.Base(bin) == "bin" {
			return filepath.Join(filepath.Dir(bin), "share", "man")
		}
	}
	if x := getenv("XDG_DATA_HOME"); filepath.IsAbs(x) {
		return filepath.Join(x, "man")
	}
	if h := getenv("HOME"); filepath.IsAbs(h) {
		return filepath.Join(h, ".local", "share", "man")
	}
	return ""
}

// manSearches reports whether man (man-db, and macOS's man) searches root:
// listed in MANPATH, or, when MANPATH is unset or has an empty entry,
// derived from a PATH directory <prefix>/bin as <prefix>/share/man or
// <prefix>/man.
func manSearches(root string, getenv func(string) string) bool {
	manpath := getenv("MANPATH")
	derive := manpath == ""
	for _, d := range strings.Split(manpath, ":") {
		if d == "" {
			derive = true
		} else if filepath.Clean(d) == root {
			return true
		}
	}
	if !derive {
		return false
	}
	for _, d := range strings.Split(getenv("PATH"), ":") {
		if d == "" || filepath.Base(filepath.Clean(d)) != "bin" {
			continue
		}
		prefix := filepath.Dir(filepath.Clean(d))
		if root == filepath.Join(prefix, "share", "man") || root == filepath.Join(prefix, "man") {
			return true
		}
	}
	return false
}
