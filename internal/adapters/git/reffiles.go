package git

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// A session's own .git belongs to the agent working in it: its
// configuration can name filters, fsmonitor commands or include files,
// so the tool runs no git command with it as the repository. The two
// facts the tool needs from it, where HEAD is and moving the session
// branch after a finish, are read and written here as files
// (gitrepository-layout(5): HEAD, loose refs, packed-refs). A session
// whose configuration asks for another ref storage is refused before
// (see the session's layout check).

// ReadHead returns the commit HEAD points at and the ref it names
// ("HEAD" when detached), read from the files of gitDir.
func ReadHead(gitDir string) (commit, ref string, err error) {
	data, err := os.ReadFile(filepath.Join(gitDir, "HEAD"))
	if err != nil {
		return "", "", err
	}
	line := strings.TrimRight(string(data), "\r\n")
	if target, ok := strings.CutPrefix(line, "ref: "); ok {
		commit, err := ReadRef(gitDir, target)
		return commit, target, err
	}
	if !isObjectID(line) {
		return "", "", fmt.Errorf("%s/HEAD holds neither a ref nor an object id", gitDir)
	}
	return line, "HEAD", nil
}

// ReadRef resolves a branch ref (refs/heads/…) from its loose file, else
// from packed-refs. A missing ref is an error.
func ReadRef(gitDir, ref string) (string, error) {
	if !strings.HasPrefix(ref, "refs/") || strings.Contains(ref, "..") {
		return "", fmt.Errorf("%q is not a ref", ref)
	}
	data, err := os.ReadFile(filepath.Join(gitDir, filepath.FromSlash(ref)))
	if err == nil {
		id := strings.TrimRight(string(data), "\r\n")
		if !isObjectID(id) {
			return "", fmt.Errorf("ref %s holds no object id", ref)
		}
		return id, nil
	}
	if !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, fs.ErrInvalid) {
		return "", err
	}
	packed, err := os.ReadFile(filepath.Join(gitDir, "packed-refs"))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return "", err
	}
	sc := bufio.NewScanner(bytes.NewReader(packed))
	for sc.Scan() {
		id, name, ok := strings.Cut(sc.Text(), " ")
		if ok && name == ref && isObjectID(id) {
			return id, nil
		}
	}
	return "", fmt.Errorf("ref %s does not exist", ref)
}

// SetLooseRef points ref at commit in gitDir's files if it currently
// points at old, replacing the loose file whole (a loose ref overrides a
// packed one). The caller holds the lock that serialises the tool's
// writes of this ref.
func SetLooseRef(gitDir, ref, commit, old string) error {
	if cur, err := ReadRef(gitDir, ref); err != nil || cur != old {
		return fmt.Errorf("ref %s is not at %.12s", ref, old)
	}
	return WriteLooseRef(gitDir, ref, commit)
}

// WriteLooseRef points ref at commit in gitDir's files, whatever it was.
func WriteLooseRef(gitDir, ref, commit string) error {
	if !strings.HasPrefix(ref, "refs/") || strings.Contains(ref, "..") {
		return fmt.Errorf("%q is not a ref", ref)
	}
	file := filepath.Join(gitDir, filepath.FromSlash(ref))
	// A ref only in packed-refs has no directory of loose refs yet. The
	// session's .git is the agent's: a directory on the way replaced by
	// a symlink must not send this write elsewhere.
	dir := gitDir
	for _, seg := range strings.Split(path.Dir(ref), "/") {
		dir = filepath.Join(dir, seg)
		fi, err := os.Lstat(dir)
		if errors.Is(err, fs.ErrNotExist) {
			if err := os.Mkdir(dir, 0o755); err != nil {
				return err
			}
			continue
		}
		if err != nil {
			return err
		}
		if !fi.IsDir() {
			return fmt.Errorf("%s is not a directory (a symlink or file replaced it)", dir)
		}
	}
	f, err := os.CreateTemp(filepath.Dir(file), ".ref-*")
	if err != nil {
		return err
	}
	_, err = f.WriteString(commit + "\n")
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), file)
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}

// isObjectID reports a full lowercase SHA-1 or SHA-256 id.
func isObjectID(s string) bool {
	return (len(s) == 40 || len(s) == 64) && strings.Trim(s, "0123456789abcdef") == ""
}
